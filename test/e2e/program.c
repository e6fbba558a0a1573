/* program.c: building, printing and reference-interpreting e2e programs (see
 * program.h). The printer writes the manual-mode style of examples/add.pto:
 * views per transfer, alloc_tile with an explicit address, and a
 * set_flag/wait_flag pair wherever the pipe changes (MTE2 -> V -> MTE3) and a
 * PIPE_ALL barrier before the return.
 * program_emit_level1 writes the same kernel in Level 1 (auto mode), for the
 * pto-bufferize, pto-plan-memory, pto-insert-tassign pipeline to lower.
 */
#include "harness.h"

#include <string.h>

/* ---------------------------------------------------------------- building */

void program_init(e2e_program *p, const char *name, bool dynamic)
{
    memset(p, 0, sizeof *p);
    snprintf(p->name, sizeof p->name, "%s", name);
    p->dynamic = dynamic;
}

int program_ptr(e2e_program *p, ref_dtype t, int64_t elems, int64_t ld)
{
    p->params[p->nparams] = (e2e_param){E2E_PTR, t, elems, ld};
    return p->nparams++;
}

int program_scalar(e2e_program *p, ref_dtype t)
{
    p->params[p->nparams] = (e2e_param){E2E_SCALAR, t, 0, 0, false};
    return p->nparams++;
}

int program_index(e2e_program *p)
{
    p->params[p->nparams] = (e2e_param){E2E_SCALAR, REF_I64, 0, 0, true};
    return p->nparams++;
}

int program_tile(e2e_program *p, ref_dtype t, int64_t rows, int64_t cols, int64_t vrows, int64_t vcols)
{
    int64_t bytes = rows * cols * ref_dtype_size(t);
    p->tiles[p->ntiles] = (e2e_tile){t, rows, cols, vrows, vcols, REF_ROW_MAJOR, REF_NONE_BOX, p->next_addr, 0, -1};
    p->next_addr += (bytes + 255) / 256 * 256;
    return p->ntiles++;
}

int program_alias(e2e_program *p, int of, ref_dtype t, int64_t rows, int64_t cols, int64_t vrows, int64_t vcols,
                  ref_layout layout, ref_box box)
{
    p->tiles[p->ntiles] = (e2e_tile){t, rows, cols, vrows, vcols, layout, box, p->tiles[of].addr, 0, of};
    return p->ntiles++;
}

e2e_view program_tile_view(e2e_program *p, int tile)
{
    const e2e_tile *t = &p->tiles[tile];
    e2e_view v = {program_ptr(p, t->dtype, t->rows * t->cols, t->cols), 2, {t->rows, t->cols}, {t->cols, 1},
                  {0, 0}, {t->vrows, t->vcols}};
    return v;
}

static e2e_step *add_step(e2e_program *p, e2e_step_kind kind, int tile)
{
    e2e_step *s = &p->steps[p->nsteps++];
    memset(s, 0, sizeof *s);
    s->kind = kind;
    s->tile = tile;
    s->pad_scalar = -1;
    s->is_msb = -1;
    return s;
}

void program_load(e2e_program *p, int tile, e2e_view v, int pad_scalar)
{
    e2e_step *s = add_step(p, E2E_LOAD, tile);
    s->view = v;
    s->pad_scalar = pad_scalar;
}

void program_store(e2e_program *p, int tile, e2e_view v)
{
    add_step(p, E2E_STORE, tile)->view = v;
}

void program_load_tile(e2e_program *p, int tile)
{
    program_load(p, tile, program_tile_view(p, tile), -1);
}

void program_store_tile(e2e_program *p, int tile)
{
    program_store(p, tile, program_tile_view(p, tile));
    program_store_whole(p, tile);
}

void program_store_whole(e2e_program *p, int tile)
{
    const e2e_tile *t = &p->tiles[tile];
    int full = program_alias(p, tile, t->dtype, t->rows, t->cols, t->rows, t->cols, t->layout, t->box);
    program_store(p, full, program_tile_view(p, full));
}

e2e_step *program_op(e2e_program *p, ptoc_pto_op_id op, int dst, int nin, const e2e_operand *in)
{
    e2e_step *s = add_step(p, E2E_OP, dst);
    s->op = op;
    s->nin = nin;
    memcpy(s->in, in, (size_t)nin * sizeof *in);
    return s;
}

e2e_operand tile_operand(int tile) { return (e2e_operand){false, tile}; }
e2e_operand scalar_operand(int param) { return (e2e_operand){true, param, false}; }
e2e_operand index_operand(int value) { return (e2e_operand){true, value, true}; }

/* ---------------------------------------------------------------- printing */

const char *program_op_name(ptoc_pto_op_id op)
{
    const char *name = ptoc_pto_op_name(op);
    return name ? name + strlen("pto.") : "?";
}

/* The ops written with a compare mode attribute. */
static bool has_cmp_mode(const e2e_step *s)
{
    return s->op == PTOC_PTO_OP_TCMP || s->op == PTOC_PTO_OP_TCMPS;
}

static const char *const cmp_names[] = {"eq", "ne", "lt", "le", "gt", "ge"};

/* The generators' attribute, written inside ins as PTOAS writes it. */
static void print_fill_attrs(FILE *out, const e2e_step *s)
{
    if (s->op == PTOC_PTO_OP_TCI)
        fprintf(out, " {descending = %s}", s->mode ? "true" : "false");
    else if (s->op == PTOC_PTO_OP_TTRI)
        fprintf(out, " {upperOrLower = %d : i32}", s->mode);
    else if (s->op == PTOC_PTO_OP_TRANDOM)
        fprintf(out, " {rounds = %d : i32}", s->mode);
}

/* tquant's quant_type, after outs. */
static void print_quant_attrs(FILE *out, const e2e_step *s)
{
    if (s->op == PTOC_PTO_OP_TQUANT)
        fprintf(out, " {quant_type = #pto<quant_type %s>}", s->mode ? "INT8_ASYM" : "INT8_SYM");
}

/* tcvt's attributes, when the step writes them: " {rmode = ..., sat_mode = ...}". */
static void print_cvt_attrs(FILE *out, const e2e_step *s)
{
    static const char *const modes[] = {"NONE", "RINT", "ROUND", "FLOOR", "CEIL", "TRUNC", "ODD", "CAST_RINT"};
    if (s->op != PTOC_PTO_OP_TCVT || (!s->rmode && !s->sat))
        return;
    fputs(" {", out);
    if (s->rmode)
        fprintf(out, "rmode = #pto<round_mode %s>%s", modes[s->rmode - 1], s->sat ? ", " : "");
    if (s->sat)
        fprintf(out, "sat_mode = #pto<saturation_mode %s>", s->sat == 1 ? "ON" : "OFF");
    fputc('}', out);
}

const char *program_scalar_type(ref_dtype t)
{
    static const char *const names[REF_DTYPE_COUNT] = {
        [REF_I8] = "i8", [REF_I16] = "i16", [REF_I32] = "i32", [REF_I64] = "i64",
        [REF_U8] = "i8", [REF_U16] = "i16", [REF_U32] = "i32", [REF_U64] = "i64",
        [REF_F16] = "f16", [REF_BF16] = "bf16", [REF_F32] = "f32",
    };
    return names[t];
}

static void print_dim(FILE *out, int64_t d)
{
    if (d < 0)
        fputc('?', out);
    else
        fprintf(out, "%lld", (long long)d);
}

/* A tile_buf type (manual mode) or, with `value`, the Level-1 tile type of the
 * same descriptor. */
static void print_tile_type_of(FILE *out, const e2e_tile *t, bool value)
{
    fprintf(out, "%s%lldx%lldx%s", value ? "!pto.tile<" : "!pto.tile_buf<vec, ", (long long)t->rows,
            (long long)t->cols, ref_dtype_name(t->dtype));
    if (t->vrows != t->rows || t->vcols != t->cols) {
        fputs(", valid=", out);
        print_dim(out, t->vrows);
        fputc('x', out);
        print_dim(out, t->vcols);
    }
    if (t->layout == REF_COL_MAJOR)
        fputs(", blayout=col_major", out);
    if (t->box != REF_NONE_BOX)
        fprintf(out, ", slayout=%s", t->box == REF_BOX_ROW_MAJOR ? "row_major" : "col_major");
    if (t->pad)
        fprintf(out, ", pad=%d", t->pad);
    fputc('>', out);
}

static void print_tile_type(FILE *out, const e2e_tile *t)
{
    print_tile_type_of(out, t, false);
}

/* The SSA name of index value d: %vr, %vc, or the constant %cN emitted at the
 * top of the function (print_index_constants). */
static const char *index_value(int64_t d, char *buf, size_t n)
{
    if (d == E2E_DYN_R)
        return "%vr";
    if (d == E2E_DYN_C)
        return "%vc";
    snprintf(buf, n, "%%c%lld", (long long)d);
    return buf;
}

static bool add_unique(int64_t *vals, int *n, int64_t v)
{
    for (int i = 0; i < *n; i++)
        if (vals[i] == v)
            return false;
    vals[(*n)++] = v;
    return true;
}

/* One arith.constant per distinct static index value the views use. */
static void print_index_constants(FILE *out, const e2e_program *p)
{
    int64_t vals[E2E_MAX_STEPS * 20];
    int n = 0;
    for (int i = 0; i < p->nsteps; i++) {
        const e2e_view *v = &p->steps[i].view;
        for (int k = 0; p->steps[i].kind == E2E_OP && k < p->steps[i].nin; k++)
            if (p->steps[i].in[k].constant && add_unique(vals, &n, p->steps[i].in[k].index))
                fprintf(out, "    %%c%d = arith.constant %d : index\n", p->steps[i].in[k].index,
                        p->steps[i].in[k].index);
        if (p->steps[i].kind == E2E_OP)
            continue;
        for (int d = 0; d < v->rank; d++) {
            const int64_t dims[4] = {v->shape[d], v->stride[d], v->offset[d], v->size[d]};
            for (int k = 0; k < 4; k++)
                if (dims[k] >= 0 && add_unique(vals, &n, dims[k]))
                    fprintf(out, "    %%c%lld = arith.constant %lld : index\n", (long long)dims[k],
                            (long long)dims[k]);
        }
    }
}

static void print_index_list(FILE *out, const char *const *names, int n)
{
    fputc('[', out);
    for (int i = 0; i < n; i++)
        fprintf(out, "%s%s", i ? ", " : "", names[i]);
    fputc(']', out);
}

static const char *const layout_names[] = {[REF_GM_ND] = "nd", [REF_GM_DN] = "dn", [REF_GM_NZ] = "nz"};

/* ` {layout = #pto.layout<dn>}` (nothing for nd). */
static void print_layout_attr(FILE *out, ref_gm_layout layout)
{
    if (layout != REF_GM_ND)
        fprintf(out, " {layout = #pto.layout<%s>}", layout_names[layout]);
}

/* make_tensor_view %v<id> + partition_view %w<id> of a transfer's view; the
 * layout goes on the make_tensor_view unless `op_has_layout`. */
static void print_view(FILE *out, const e2e_program *p, const e2e_view *v, int id, bool op_has_layout)
{
    char bufs[4][5][24];
    const char *shape[5], *stride[5], *offset[5], *size[5];
    for (int i = 0; i < v->rank; i++) {
        shape[i] = index_value(v->shape[i], bufs[0][i], sizeof bufs[0][i]);
        stride[i] = index_value(v->stride[i], bufs[1][i], sizeof bufs[1][i]);
        offset[i] = index_value(v->offset[i], bufs[2][i], sizeof bufs[2][i]);
        size[i] = index_value(v->size[i], bufs[3][i], sizeof bufs[3][i]);
    }
    const char *elem = ref_dtype_name(p->params[v->param].dtype);
    char tv[64] = "!pto.tensor_view<";
    for (int i = 0; i < v->rank; i++)
        strcat(tv, "?x");
    strcat(tv, elem);
    strcat(tv, ">");
    fprintf(out, "    %%v%d = pto.make_tensor_view %%p%d, shape = ", id, v->param);
    print_index_list(out, shape, v->rank);
    fputs(", strides = ", out);
    print_index_list(out, stride, v->rank);
    if (!op_has_layout)
        print_layout_attr(out, v->layout);
    fprintf(out, " : %s\n    %%w%d = pto.partition_view %%v%d, offsets = ", tv, id, id);
    print_index_list(out, offset, v->rank);
    fputs(", sizes = ", out);
    print_index_list(out, size, v->rank);
    fprintf(out, " : %s -> !pto.partition_tensor_view<", tv);
    for (int i = 0; i < v->rank; i++) {
        print_dim(out, v->size[i]);
        fputc('x', out);
    }
    fprintf(out, "%s>\n", elem);
}

static void print_part_type(FILE *out, const e2e_program *p, const e2e_view *v)
{
    fputs("!pto.partition_tensor_view<", out);
    for (int i = 0; i < v->rank; i++) {
        print_dim(out, v->size[i]);
        fputc('x', out);
    }
    fprintf(out, "%s>", ref_dtype_name(p->params[v->param].dtype));
}

static void print_transfer(FILE *out, const e2e_program *p, const e2e_step *s, int id)
{
    print_view(out, p, &s->view, id, s->view.layout_on_op);
    if (s->kind == E2E_LOAD) {
        fprintf(out, "    pto.tload ins(%%w%d : ", id);
        print_part_type(out, p, &s->view);
        fprintf(out, ") outs(%%t%d : ", s->tile);
        print_tile_type(out, &p->tiles[s->tile]);
        fputc(')', out);
        if (s->pad_scalar >= 0)
            fprintf(out, " pad_mode = #pto.padmode<PadValue> pad_value = %%p%d : %s", s->pad_scalar,
                    program_scalar_type(p->params[s->pad_scalar].dtype));
    } else {
        fprintf(out, "    pto.tstore ins(%%t%d : ", s->tile);
        print_tile_type(out, &p->tiles[s->tile]);
        fprintf(out, ") outs(%%w%d : ", id);
        print_part_type(out, p, &s->view);
        fputc(')', out);
    }
    if (s->view.layout_on_op)
        print_layout_attr(out, s->view.layout);
    fputc('\n', out);
}

static void print_operand_type(FILE *out, const e2e_program *p, e2e_operand o)
{
    if (o.constant)
        fputs("index", out);
    else if (o.scalar)
        fputs(p->params[o.index].index ? "index" : program_scalar_type(p->params[o.index].dtype), out);
    else
        print_tile_type(out, &p->tiles[o.index]);
}

static const char *const mask_names[] = {"", "P0101", "P1010", "P0001", "P0010", "P0100", "P1000", "P1111"};

/* tgather's mask form, `ins(%src, {maskPattern = ...} : T)`, and compare form,
 * two outs and the attributes after them. */
static bool print_tgather(FILE *out, const e2e_program *p, const e2e_step *s)
{
    if (s->op != PTOC_PTO_OP_TGATHER || (!s->mask && !s->cdst))
        return false;
    const e2e_tile *d = &p->tiles[s->tile];
    if (s->mask) {
        fprintf(out, "    pto.tgather ins(%%t%d, {maskPattern = #pto.mask_pattern<%s>} : ", s->in[0].index,
                mask_names[s->mask]);
        print_tile_type(out, &p->tiles[s->in[0].index]);
        fprintf(out, ") outs(%%t%d : ", s->tile);
        print_tile_type(out, d);
        fputs(")\n", out);
        return true;
    }
    fprintf(out, "    pto.tgather ins(%%t%d, %%p%d, %%t%d : ", s->in[0].index, s->in[1].index,
            s->in[2].index);
    for (int i = 0; i < 3; i++) {
        fputs(i ? ", " : "", out);
        print_operand_type(out, p, s->in[i]);
    }
    fprintf(out, ") outs(%%t%d, %%t%d : ", s->tile, s->cdst - 1);
    print_tile_type(out, d);
    fputs(", ", out);
    print_tile_type(out, &p->tiles[s->cdst - 1]);
    fprintf(out, ") {cmpMode = #pto<cmp %s>, offset = %d : i32}\n", cmp_names[s->cmp], s->offset);
    return true;
}

static void print_op(FILE *out, const e2e_program *p, const e2e_step *s)
{
    if (print_tgather(out, p, s))
        return;
    fprintf(out, "    %s ins(", ptoc_pto_op_name(s->op));
    for (int i = 0; i < s->nin; i++)
        fprintf(out, "%s%%%c%d", i ? ", " : "", s->in[i].constant ? 'c' : s->in[i].scalar ? 'p' : 't',
                s->in[i].index);
    if (has_cmp_mode(s))
        fprintf(out, " {cmpMode = #pto<cmp %s>}", cmp_names[s->cmp]);
    print_fill_attrs(out, s);
    if (s->exhausted)
        fputs(" {exhausted = true}", out);
    fputs(" : ", out);
    for (int i = 0; i < s->nin; i++) {
        if (i)
            fputs(", ", out);
        print_operand_type(out, p, s->in[i]);
    }
    fprintf(out, ") outs(%%t%d : ", s->tile);
    print_tile_type(out, &p->tiles[s->tile]);
    fputc(')', out);
    print_cvt_attrs(out, s);
    print_quant_attrs(out, s);
    if (s->op == PTOC_PTO_OP_THISTOGRAM) {
        if (s->is_msb >= 0)
            fprintf(out, " {isMSB = %s}", s->is_msb ? "true" : "false");
        else
            fprintf(out, " {byte = %d}", s->byte);
    }
    fputc('\n', out);
}

/* The pipe a step runs on, for the flags between consecutive steps. */
/* The pipe a step runs on: the DMA engines' for transfers; V for the ops,
 * but for an integer tdivs, tshl and tshr on A2/A3, which run on the scalar
 * unit (pto-isa a2a3/TDivS.hpp, TShl.hpp, TShr.hpp), and the ops ptoc runs
 * there (ptoc_pto_a2a3_scalar_unit; on A5 ptoc_pto_a5_scalar_unit). */
static const char *step_pipe(const e2e_program *p, const e2e_step *s, const char *arch)
{
    if (s->kind != E2E_OP)
        return s->kind == E2E_LOAD ? "PIPE_MTE2" : "PIPE_MTE3";
    bool a2a3 = !strcmp(arch, "a2") || !strcmp(arch, "a3") || !strcmp(arch, "a2a3");
    bool int_divs = s->op == PTOC_PTO_OP_TDIVS && !ref_dtype_is_float(p->tiles[s->tile].dtype);
    bool shift = s->op == PTOC_PTO_OP_TSHL || s->op == PTOC_PTO_OP_TSHR ||   /* TShl.hpp, TShr.hpp */
                 s->op == PTOC_PTO_OP_TCI;                                   /* TCI.hpp */
    ref_dtype d = p->tiles[s->tile].dtype;
    bool is_int = !ref_dtype_is_float(d);
    bool scalar_unit = ptoc_pto_a2a3_scalar_unit(s->op, is_int, 8 * ref_dtype_size(d), is_int && !ref_dtype_is_signed(d));
    bool a5_scalar = !strcmp(arch, "a5") && ptoc_pto_a5_scalar_unit(s->op, !is_int);
    return (a2a3 && (int_divs || shift || scalar_unit)) || a5_scalar ? "PIPE_S" : "PIPE_V";
}

/* `  func.func @name(params) {` and the index constants both forms start with. */
static void print_signature(FILE *out, const e2e_program *p)
{
    fprintf(out, "  func.func @%s(", p->name);
    for (int i = 0; i < p->nparams; i++) {
        const e2e_param *q = &p->params[i];
        fprintf(out, "%s%%p%d: ", i ? ", " : "", i);
        if (q->kind == E2E_PTR)
            fprintf(out, "!pto.ptr<%s>", ref_dtype_name(q->dtype));
        else
            fputs(q->index ? "index" : program_scalar_type(q->dtype), out);
    }
    if (p->dynamic)
        fprintf(out, "%s%%vr: index, %%vc: index", p->nparams ? ", " : "");
    fputs(") {\n", out);
    print_index_constants(out, p);
}

void program_emit(const e2e_program *p, const char *arch, FILE *out)
{
    print_signature(out, p);
    for (int i = 0; i < p->ntiles; i++) {
        const e2e_tile *t = &p->tiles[i];
        fprintf(out, "    %%a%d = arith.constant %lld : i64\n    %%t%d = pto.alloc_tile addr = %%a%d", i,
                (long long)t->addr, i, i);
        if (t->vrows < 0)
            fprintf(out, " valid_row = %s", t->vrows == E2E_DYN_R ? "%vr" : "%vc");
        if (t->vcols < 0)
            fprintf(out, " valid_col = %s", t->vcols == E2E_DYN_R ? "%vr" : "%vc");
        fputs(" : ", out);
        print_tile_type(out, t);
        fputc('\n', out);
    }
    for (int i = 0; i < p->nsteps; i++) {
        const e2e_step *s = &p->steps[i];
        const char *prev = i > 0 ? step_pipe(p, &p->steps[i - 1], arch) : NULL, *pipe = step_pipe(p, s, arch);
        if (prev && strcmp(prev, pipe) != 0)
            fprintf(out, "    pto.set_flag[<%s>, <%s>, <EVENT_ID0>]\n    pto.wait_flag[<%s>, <%s>, <EVENT_ID0>]\n",
                    prev, pipe, prev, pipe);
        else if (prev && s->kind == E2E_OP && p->steps[i - 1].kind == E2E_OP)
            /* one op reads what the other wrote; V is in order on A5 and cpu, not on A2/A3 */
            fprintf(out, "    pto.barrier <%s>\n", pipe);
        if (s->kind == E2E_OP)
            print_op(out, p, s);
        else
            print_transfer(out, p, s, i);
    }
    fputs("    pto.barrier <PIPE_ALL>\n    return\n  }\n", out);   /* every pipe done before the return */
}

/* ---------------------------------------------------------------- Level 1 */

static void print_op_attrs(FILE *out, const e2e_step *s)
{
    if (has_cmp_mode(s))
        fprintf(out, " {cmpMode = #pto<cmp %s>}", cmp_names[s->cmp]);
    else if (s->op == PTOC_PTO_OP_THISTOGRAM && s->is_msb >= 0)
        fprintf(out, " {isMSB = %s}", s->is_msb ? "true" : "false");
    else if (s->op == PTOC_PTO_OP_THISTOGRAM)
        fprintf(out, " {byte = %d}", s->byte);
    print_cvt_attrs(out, s);
    print_fill_attrs(out, s);
    print_quant_attrs(out, s);
}

/* Whether every tile an op reads holds a value by then (loaded, or an op's
 * result): a Level-1 program has no uninitialised tile to pass as scratch. */
static bool reads_defined_tiles(const e2e_program *p, const char **why)
{
    bool defined[E2E_MAX_TILES] = {false};
    for (int i = 0; i < p->nsteps; i++) {
        const e2e_step *s = &p->steps[i];
        for (int k = 0; s->kind == E2E_OP && k < s->nin; k++)
            if (!s->in[k].scalar && !defined[s->in[k].index]) {
                *why = "reads a scratch tile (tmp) that holds no value, which Level 1 cannot name";
                return false;
            }
        if (s->kind != E2E_STORE)
            defined[s->tile] = true;
    }
    return true;
}

bool program_level1_ok(const e2e_program *p, const char **why)
{
    if (!reads_defined_tiles(p, why))
        return false;
    for (int i = 0; i < p->nsteps; i++) {
        const e2e_step *s = &p->steps[i];
        if (s->kind == E2E_LOAD && p->tiles[s->tile].alias_of >= 0) {
            *why = "loads through an alias (a reinterpretation of another tile's bytes)";
            return false;
        }
        if (s->kind == E2E_LOAD && s->pad_scalar >= 0) {
            *why = "Level-1 tload has no pad_value clause";
            return false;
        }
        if (s->kind == E2E_OP && (s->op == PTOC_PTO_OP_TGATHER || s->op == PTOC_PTO_OP_TSCATTER)) {
            /* tscatter's result would define only the elements it scatters */
            *why = "tgather has no Level-1 form, and a Level-1 tscatter has no dst to scatter into";
            return false;
        }
        const e2e_tile *d = &p->tiles[s->tile];
        if (s->kind == E2E_OP && s->op == PTOC_PTO_OP_TAXPY) {
            *why = "taxpy accumulates into its dst, which its Level-1 form does not take";
            return false;
        }
        if (s->kind == E2E_OP && s->op == PTOC_PTO_OP_TTRANS && (d->vrows < 0 || d->vcols < 0)) {
            *why = "ttrans's dynamic valid shape is its source's transposed, which no operand gives";
            return false;
        }
        if (s->kind == E2E_OP && s->op == PTOC_PTO_OP_TCOLEXPAND && (d->vrows < 0 || d->vcols < 0)) {
            /* the 1-row source has no valid rows to give: only an alloc_tile could say them */
            *why = "tcolexpand's dynamic valid shape comes from no operand";
            return false;
        }
        if (s->kind == E2E_OP && s->op == PTOC_PTO_OP_TEXPANDS && (d->vrows < 0 || d->vcols < 0)) {
            *why = "texpands's dynamic valid shape comes from no operand";
            return false;
        }
        if (s->kind == E2E_OP && s->op == PTOC_PTO_OP_TROWEXPAND && (d->vrows < 0 || d->vcols < 0)) {
            /* the one-column source has no valid columns to give */
            *why = "trowexpand's dynamic valid shape comes from no operand";
            return false;
        }
    }
    return true;
}

bool program_a2a3_cmp_quirk(const e2e_program *p)
{
    for (int i = 0; i < p->nsteps; i++) {
        const e2e_step *s = &p->steps[i];
        if (s->kind == E2E_OP && has_cmp_mode(s) &&
            ref_a2a3_cmp_quirk(s->cmp, p->tiles[s->in[0].index].dtype, s->op == PTOC_PTO_OP_TCMPS))
            return true;
    }
    return false;
}

bool program_level1_compares(const e2e_program *p, int param)
{
    bool stored = false;
    for (int i = 0; i < p->nsteps; i++) {
        const e2e_step *s = &p->steps[i];
        if (s->kind == E2E_STORE && s->view.param == param) {
            if (p->tiles[s->tile].alias_of < 0)
                return true;
            stored = true;
        }
    }
    return !stored;                  /* inputs are compared; alias-only outputs are not */
}

/* The SSA name of tile operand `tile` is the step that last defined it:
 * %s<step>. Every tile the e2e programs read is defined before. */
static void print_value_operands(FILE *out, const e2e_program *p, const e2e_step *s, const int *def)
{
    for (int i = 0; i < s->nin; i++) {
        if (s->in[i].scalar)
            fprintf(out, "%s%%%c%d", i ? ", " : " ", s->in[i].constant ? 'c' : 'p', s->in[i].index);
        else
            fprintf(out, "%s%%s%d", i ? ", " : " ", def[s->in[i].index]);
    }
    print_op_attrs(out, s);
    fputs(" : ", out);
    for (int i = 0; i < s->nin; i++) {
        if (i)
            fputs(", ", out);
        if (s->in[i].scalar)
            print_operand_type(out, p, s->in[i]);
        else
            print_tile_type_of(out, &p->tiles[s->in[i].index], true);
    }
}

void program_emit_level1(const e2e_program *p, FILE *out)
{
    int def[E2E_MAX_TILES];
    for (int i = 0; i < E2E_MAX_TILES; i++)
        def[i] = -1;
    print_signature(out, p);
    /* No set_flag/wait_flag: the cpu target runs the pipes in program order. */
    for (int i = 0; i < p->nsteps; i++) {
        const e2e_step *s = &p->steps[i];
        const e2e_tile *t = &p->tiles[s->tile];
        if (s->kind == E2E_STORE && t->alias_of >= 0)
            continue;                /* Level 1 cannot alias: valid-region outputs only */
        if (s->kind != E2E_OP)
            print_view(out, p, &s->view, i, false);
        if (s->kind == E2E_LOAD) {
            fprintf(out, "    %%s%d = pto.tload %%w%d : ", i, i);
            print_part_type(out, p, &s->view);
        } else if (s->kind == E2E_STORE) {
            fprintf(out, "    pto.tstore %%s%d, %%w%d : ", def[s->tile], i);
            print_tile_type_of(out, t, true);
            fputs(", ", out);
            print_part_type(out, p, &s->view);
            fputc('\n', out);
            continue;
        } else {
            fprintf(out, "    %%s%d = %s", i, ptoc_pto_op_name(s->op));
            print_value_operands(out, p, s, def);
        }
        fputs(" -> ", out);
        print_tile_type_of(out, t, true);
        fputc('\n', out);
        def[s->tile] = i;
    }
    fputs("    return\n  }\n", out);
}

/* ---------------------------------------------------------------- reference */

static int64_t resolve(int64_t d, int64_t vr, int64_t vc)
{
    return d == E2E_DYN_R ? vr : d == E2E_DYN_C ? vc : d;
}

static ref_tile ref_of(const e2e_tile *t, uint8_t *ub, int64_t vr, int64_t vc)
{
    return (ref_tile){t->dtype, t->rows, t->cols, resolve(t->vrows, vr, vc), resolve(t->vcols, vr, vc),
                      t->layout, t->box, ub + t->addr};
}

static ref_view view_of(const e2e_program *p, const e2e_view *v, uint8_t **bufs, int64_t vr, int64_t vc)
{
    ref_view rv = {bufs[v->param], {1, 1, 1, 1, 1}, {0, 0, 0, 0, 1}, v->layout};
    int64_t off = 0;
    for (int i = 0; i < v->rank; i++) {
        int d = 5 - v->rank + i;             /* a 2-D view is dims 3 and 4 */
        rv.shape[d] = resolve(v->size[i], vr, vc);
        rv.stride[d] = v->stride[i];
        off += v->offset[i] * v->stride[i];
    }
    rv.base += off * ref_dtype_size(p->params[v->param].dtype);
    return rv;
}

static ref_binop binop_of(ptoc_pto_op_id op)
{
    switch (op) {
    case PTOC_PTO_OP_TSUB: case PTOC_PTO_OP_TCOLEXPANDSUB: return REF_SUB;
    case PTOC_PTO_OP_TMUL: case PTOC_PTO_OP_TMULS: case PTOC_PTO_OP_TCOLEXPANDMUL: return REF_MUL;
    case PTOC_PTO_OP_TDIV: case PTOC_PTO_OP_TDIVS: case PTOC_PTO_OP_TCOLEXPANDDIV: return REF_DIV;
    case PTOC_PTO_OP_TMAX: case PTOC_PTO_OP_TCOLEXPANDMAX: return REF_MAX;
    case PTOC_PTO_OP_TMIN: case PTOC_PTO_OP_TCOLEXPANDMIN: return REF_MIN;
    case PTOC_PTO_OP_TCOLEXPANDEXPDIF: return REF_EXPDIF;
    default: return REF_ADD;
    }
}

/* A step's rmode as the reference's mode: NONE, RINT and CAST_RINT (and none
 * written) round to nearest even. */
static ref_round cvt_round(int rmode)
{
    static const ref_round modes[] = {REF_ROUND_R, REF_ROUND_R, REF_ROUND_A, REF_ROUND_F,
                                      REF_ROUND_C, REF_ROUND_Z, REF_ROUND_O, REF_ROUND_R};
    return rmode ? modes[rmode - 1] : REF_ROUND_R;
}

static void reference_op(const e2e_step *s, const ref_tile *t, const uint64_t *scalars, bool a2a3)
{
    const ref_tile *d = &t[s->tile];
#define IN(i) (&t[s->in[i].index])
#define SC(i) (scalars[s->in[i].index])
    switch (s->op) {
    case PTOC_PTO_OP_TADD: case PTOC_PTO_OP_TSUB: case PTOC_PTO_OP_TMUL: case PTOC_PTO_OP_TDIV:
    case PTOC_PTO_OP_TMAX: case PTOC_PTO_OP_TMIN:
        ref_binary(binop_of(s->op), d, IN(0), IN(1));
        break;
    case PTOC_PTO_OP_TADDS: case PTOC_PTO_OP_TMULS:
        ref_binary_scalar(binop_of(s->op), d, IN(0), SC(1));
        break;
    case PTOC_PTO_OP_TDIVS:                        /* the scalar first: tdivs ins(%s, %t), dst = s / t */
        if (s->in[0].scalar)
            ref_scalar_binary(REF_DIV, d, SC(0), IN(1));
        else
            ref_binary_scalar(REF_DIV, d, IN(0), SC(1));
        break;
    case PTOC_PTO_OP_TCOLEXPAND:
        ref_tcolexpand(d, IN(0));
        break;
    case PTOC_PTO_OP_TCOLEXPANDADD: case PTOC_PTO_OP_TCOLEXPANDSUB: case PTOC_PTO_OP_TCOLEXPANDMUL:
    case PTOC_PTO_OP_TCOLEXPANDDIV: case PTOC_PTO_OP_TCOLEXPANDMAX: case PTOC_PTO_OP_TCOLEXPANDMIN:
    case PTOC_PTO_OP_TCOLEXPANDEXPDIF:
        ref_tcolexpand_binary(binop_of(s->op), d, IN(0), IN(1));
        break;
    case PTOC_PTO_OP_TCMP: (a2a3 ? ref_tcmp_a2a3 : ref_tcmp)(s->cmp, d, IN(0), IN(1)); break;
    case PTOC_PTO_OP_TCMPS:                        /* src1 a scalar, or a tile (its [0,0]) */
        if (s->in[1].scalar)
            (a2a3 ? ref_tcmps_a2a3 : ref_tcmps)(s->cmp, d, IN(0), SC(1));
        else
            (a2a3 ? ref_tcmps_tile_a2a3 : ref_tcmps_tile)(s->cmp, d, IN(0), IN(1));
        break;
    case PTOC_PTO_OP_TROWSUM: case PTOC_PTO_OP_TROWMAX: case PTOC_PTO_OP_TROWMIN:
        reduce_reference_op(s, t);   /* reduce.c; every target's order */
        break;
    case PTOC_PTO_OP_TROWPROD:
        reduce_reference_op(s, t);   /* reduce.c; every target's order */
        break;
    case PTOC_PTO_OP_TCOLSUM: case PTOC_PTO_OP_TCOLMAX: case PTOC_PTO_OP_TCOLMIN: case PTOC_PTO_OP_TCOLPROD:
        reduce_reference_op(s, t);   /* reduce.c; every target's order */
        break;
    case PTOC_PTO_OP_TSEL: ref_tsel(d, IN(0), IN(1), IN(2)); break;
    case PTOC_PTO_OP_TSELS: ref_tsels(d, IN(0), IN(1), SC(s->nin - 1)); break;   /* ins(mask, src[, tmp], scalar) */
    case PTOC_PTO_OP_THISTOGRAM: ref_thistogram(d, IN(0), IN(1), s->byte); break;
    case PTOC_PTO_OP_TCVT: ref_tcvt(d, IN(0), cvt_round(s->rmode), s->sat ? s->sat == 1 : ref_tcvt_default_sat(IN(0)->dtype, d->dtype)); break;
    case PTOC_PTO_OP_TEXPANDS: case PTOC_PTO_OP_TFILLPAD: case PTOC_PTO_OP_TFILLPAD_EXPAND:
    case PTOC_PTO_OP_TFILLPAD_INPLACE: case PTOC_PTO_OP_TCI: case PTOC_PTO_OP_TTRI: case PTOC_PTO_OP_TRANDOM:
    case PTOC_PTO_OP_TQUANT: case PTOC_PTO_OP_TDEQUANT:
        fill_reference_op(s, t, scalars);   /* fill.c */
        break;
    case PTOC_PTO_OP_TGATHER: case PTOC_PTO_OP_TGATHERB: case PTOC_PTO_OP_TSCATTER:
    case PTOC_PTO_OP_TTRANS: case PTOC_PTO_OP_TCONCAT: case PTOC_PTO_OP_TPACK: case PTOC_PTO_OP_TMOV:
    case PTOC_PTO_OP_TEXTRACT: case PTOC_PTO_OP_TINSERT:
        gather_reference_op(s, t, scalars);      /* gather.c */
        break;
    default:       /* ewx.c, rowexpand.c, sort.c, reduce.c; others are not computed and differ from ptoc's */
        if (!ewx_reference_op(s, t, scalars) && !rowexpand_reference_op(s, t) && !sort_reference_op(s, t, scalars))
            reduce_reference_op(s, t);
        break;
    }
#undef IN
#undef SC
}

void program_reference(const e2e_program *p, uint8_t **bufs, const uint64_t *scalars, int64_t vr, int64_t vc,
                       uint8_t ub_fill, bool a2a3)
{
    static uint8_t ub[E2E_UB_BYTES];
    ref_tile t[E2E_MAX_TILES];
    memset(ub, ub_fill, sizeof ub);
    for (int i = 0; i < p->ntiles; i++)
        t[i] = ref_of(&p->tiles[i], ub, vr, vc);
    for (int i = 0; i < p->nsteps; i++) {
        const e2e_step *s = &p->steps[i];
        const e2e_tile *tile = &p->tiles[s->tile];
        if (s->kind == E2E_LOAD) {
            ref_view v = view_of(p, &s->view, bufs, vr, vc);
            bool pad = s->pad_scalar >= 0 || tile->pad != 0;
            uint64_t bits = s->pad_scalar >= 0 ? scalars[s->pad_scalar] : ref_pad_bits(tile->dtype, tile->pad);
            ref_tload(&t[s->tile], &v, pad, bits);
        } else if (s->kind == E2E_STORE) {
            ref_view v = view_of(p, &s->view, bufs, vr, vc);
            ref_tstore(&v, &t[s->tile]);
        } else {
            reference_op(s, t, scalars, a2a3);
        }
    }
}
