/* printer.c: writes ops, types and attributes in MLIR 19's textual form.
 *
 * Ops print in their custom form (name, then the def's print hook), as an
 * assembly statement when asked to and the def's print_asm hook has one, or in
 * the generic form `%0 = "d.op"(%a) ({...}) {attrs} : (T) -> U`, which upstream
 * mlir-opt --allow-unregistered-dialect reads back. Value names follow MLIR's
 * SSANameState: before printing, each region is numbered (block arguments
 * %argN, op results %N, one number per op, `%N#i` for its i-th result) and each
 * nested region continues from the counters as they stand after its parent
 * region, so sibling regions reuse the same numbers. Numbers live in a hash map
 * so that printing is linear in the size of the IR.
 */
#include "ir/syntax_internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

struct ptoc_printer {
    ptoc_context *ctx;
    ptoc_strbuf *out;
    ptoc_print_options opts;
    uint32_t indent;
    ptoc_ptrmap names;            /* op, block argument or block -> number + 1 */
    ptoc_ptrmap hints;            /* op -> the unique name (ptoc_ident) its hook suggested */
    ptoc_ptrmap used;             /* suggested name (ptoc_ident) -> next `_N` suffix + 1 */
    const char *default_dialect;  /* op name prefix elided in the current region */
};

static void put(ptoc_printer *p, const char *s) { ptoc_strbuf_puts(p->out, s); }

ptoc_context *ptoc_printer_context(ptoc_printer *p) { return p->ctx; }
bool ptoc_printer_generic(ptoc_printer *p) { return p->opts.generic; }
void ptoc_print_str(ptoc_printer *p, const char *s) { put(p, s); }

void ptoc_print_fmt(ptoc_printer *p, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    ptoc_strbuf_vprintf(p->out, fmt, ap);
    va_end(ap);
}

void ptoc_print_int(ptoc_printer *p, int64_t v) { ptoc_strbuf_printf(p->out, "%lld", (long long)v); }

void ptoc_print_newline(ptoc_printer *p)
{
    ptoc_strbuf_putc(p->out, '\n');
    for (uint32_t i = 0; i < p->indent; i++)
        ptoc_strbuf_putc(p->out, ' ');
}

static void printer_init(ptoc_printer *p, ptoc_strbuf *out, ptoc_context *ctx, const ptoc_print_options *opts)
{
    memset(p, 0, sizeof *p);
    p->ctx = ctx;
    p->out = out;
    if (opts)
        p->opts = *opts;
    p->default_dialect = "";
    ptoc_ptrmap_init(&p->names, ctx);
    ptoc_ptrmap_init(&p->hints, ctx);
    ptoc_ptrmap_init(&p->used, ctx);
}

/* ---------------------------------------------------------------- strings */

static void escape_into(ptoc_strbuf *sb, const char *s, size_t len)
{
    static const char hex[] = "0123456789ABCDEF";
    ptoc_strbuf_putc(sb, '"');
    for (size_t i = 0; i < len; i++) {
        unsigned char c = (unsigned char)s[i];
        if (c == '"' || c == '\\') {
            ptoc_strbuf_putc(sb, '\\');
            ptoc_strbuf_putc(sb, (char)c);
        } else if (c >= 0x20 && c < 0x7f) {
            ptoc_strbuf_putc(sb, (char)c);
        } else {
            ptoc_strbuf_putc(sb, '\\');
            ptoc_strbuf_putc(sb, hex[c >> 4]);
            ptoc_strbuf_putc(sb, hex[c & 15]);
        }
    }
    ptoc_strbuf_putc(sb, '"');
}

void ptoc_print_string_lit(ptoc_printer *p, const char *s, size_t len) { escape_into(p->out, s, len); }

/* A bare identifier when it is one, else a quoted string. */
static void print_name(ptoc_printer *p, const ptoc_ident *id)
{
    if (ptoc_lex_is_bare_id(id->str, id->len))
        ptoc_strbuf_append(p->out, id->str, id->len);
    else
        escape_into(p->out, id->str, id->len);
}

/* ---------------------------------------------------------------- types */

static void print_shape(ptoc_printer *p, const ptoc_type *t)
{
    for (uint32_t i = 0; i < t->u.shaped.rank; i++) {
        if (t->u.shaped.shape[i] == PTOC_DYNAMIC)
            put(p, "?x");
        else
            ptoc_print_fmt(p, "%lldx", (long long)t->u.shaped.shape[i]);
    }
    ptoc_print_type(p, t->u.shaped.elem);
}

static void print_type_list(ptoc_printer *p, ptoc_type *const *ts, uint32_t n)
{
    for (uint32_t i = 0; i < n; i++) {
        if (i)
            put(p, ", ");
        ptoc_print_type(p, ts[i]);
    }
}

/* `T` for one non-function type, else `(T, U)`. */
static void print_results(ptoc_printer *p, ptoc_type *const *ts, uint32_t n)
{
    if (n == 1 && ts[0]->kind != PTOC_TYPE_FUNCTION) {
        ptoc_print_type(p, ts[0]);
        return;
    }
    put(p, "(");
    print_type_list(p, ts, n);
    put(p, ")");
}

static void print_opaque(ptoc_printer *p, char sigil, const ptoc_ident *dialect, const ptoc_ident *body)
{
    ptoc_strbuf_putc(p->out, sigil);
    put(p, dialect->str);
    if (body->len && body->str[0] != '<')
        ptoc_strbuf_putc(p->out, '.');
    put(p, body->str);
}

void ptoc_print_type(ptoc_printer *p, const ptoc_type *t)
{
    switch (t->kind) {
    case PTOC_TYPE_INDEX: put(p, "index"); break;
    case PTOC_TYPE_NONE: put(p, "none"); break;
    case PTOC_TYPE_INTEGER:
        ptoc_print_fmt(p, "%si%u", t->u.integer.sign == PTOC_SIGNED ? "s" :
                       t->u.integer.sign == PTOC_UNSIGNED ? "u" : "", t->u.integer.width);
        break;
    case PTOC_TYPE_FLOAT: put(p, ptoc_float_kind_name(t->u.fp.kind)); break;
    case PTOC_TYPE_FUNCTION:
        put(p, "(");
        print_type_list(p, t->u.func.inputs, t->u.func.ninputs);
        put(p, ") -> ");
        print_results(p, t->u.func.results, t->u.func.nresults);
        break;
    case PTOC_TYPE_MEMREF:
        put(p, "memref<");
        print_shape(p, t);
        if (t->u.shaped.layout) {
            put(p, ", ");
            ptoc_print_attr(p, t->u.shaped.layout);
        }
        if (t->u.shaped.memspace) {
            put(p, ", ");
            ptoc_print_attr_no_type(p, t->u.shaped.memspace);
        }
        put(p, ">");
        break;
    case PTOC_TYPE_VECTOR:
    case PTOC_TYPE_TENSOR:
        put(p, t->kind == PTOC_TYPE_VECTOR ? "vector<" : "tensor<");
        print_shape(p, t);
        put(p, ">");
        break;
    case PTOC_TYPE_DIALECT:
        if (t->u.dialect.dialect->print_type)
            t->u.dialect.dialect->print_type(p, t);
        else
            ptoc_print_fmt(p, "!%s<?>", t->u.dialect.dialect->name);
        break;
    case PTOC_TYPE_OPAQUE: print_opaque(p, '!', t->u.opaque.dialect, t->u.opaque.body); break;
    }
}

/* ---------------------------------------------------------------- numbers */

/* MLIR prints `%.6e` when that reads back exactly, else more digits; NaN and
 * infinities as the hex bit pattern. */
static void print_float_value(ptoc_printer *p, ptoc_float_kind k, double v)
{
    char buf[64];
    if (isnan(v) || isinf(v)) {
        ptoc_print_fmt(p, "0x%llX", (unsigned long long)ptoc_float_to_bits(k, v));
        return;
    }
    for (int prec = 6; prec <= 17; prec++) {
        snprintf(buf, sizeof buf, "%.*e", prec, v);
        double back = ptoc_float_round(k, strtod(buf, NULL));
        if (ptoc_float_to_bits(k, back) == ptoc_float_to_bits(k, v))
            break;
    }
    put(p, buf);
}

static void print_int_value(ptoc_printer *p, const ptoc_attr *a)
{
    const ptoc_type *t = a->u.integer.type;
    if (t->kind == PTOC_TYPE_INTEGER && t->u.integer.sign == PTOC_UNSIGNED)
        ptoc_print_fmt(p, "%llu", (unsigned long long)a->u.integer.value);
    else
        ptoc_print_int(p, a->u.integer.value);
}

static bool is_i1(const ptoc_type *t)
{
    return t->kind == PTOC_TYPE_INTEGER && t->u.integer.width == 1 && t->u.integer.sign == PTOC_SIGNLESS;
}

/* ---------------------------------------------------------------- attributes */

static void print_dense(ptoc_printer *p, const ptoc_attr *a)
{
    ptoc_type *elem = a->u.dense.elem;
    put(p, "array<");
    ptoc_print_type(p, elem);
    for (uint32_t i = 0; i < a->u.dense.n; i++) {
        int64_t v = a->u.dense.values[i];
        put(p, i ? ", " : ": ");
        if (ptoc_type_is_float(elem))
            print_float_value(p, elem->u.fp.kind, ptoc_float_from_bits(elem->u.fp.kind, (uint64_t)v));
        else if (is_i1(elem))
            put(p, v ? "true" : "false");
        else if (elem->u.integer.sign == PTOC_UNSIGNED)
            ptoc_print_fmt(p, "%llu", (unsigned long long)v);
        else
            ptoc_print_int(p, v);
    }
    put(p, ">");
}

static void print_named_attrs(ptoc_printer *p, const ptoc_named_attr *e, uint32_t n,
                              const char *const *elided, size_t nelided)
{
    bool first = true;
    for (uint32_t i = 0; i < n; i++) {
        bool skip = false;
        for (size_t j = 0; j < nelided && !skip; j++)
            skip = strcmp(e[i].name->str, elided[j]) == 0;
        if (skip)
            continue;
        put(p, first ? "" : ", ");
        first = false;
        print_name(p, e[i].name);
        if (e[i].value->kind != PTOC_ATTR_UNIT) {
            put(p, " = ");
            ptoc_print_attr(p, e[i].value);
        }
    }
}

static void print_symbol(ptoc_printer *p, const ptoc_ident *s)
{
    ptoc_strbuf_putc(p->out, '@');
    bool plain = s->len > 0;
    for (uint32_t i = 0; i < s->len && plain; i++)
        plain = ptoc_lex_is_id_char((unsigned char)s->str[i]) || s->str[i] == '-';
    if (plain)
        put(p, s->str);
    else
        escape_into(p->out, s->str, s->len);
}

static void print_attr(ptoc_printer *p, const ptoc_attr *a, bool with_type)
{
    switch (a->kind) {
    case PTOC_ATTR_UNIT: put(p, "unit"); break;
    case PTOC_ATTR_BOOL: put(p, a->u.boolean ? "true" : "false"); break;
    case PTOC_ATTR_INTEGER:
        if (is_i1(a->u.integer.type)) {
            put(p, a->u.integer.value ? "true" : "false");
            break;
        }
        print_int_value(p, a);
        if (with_type) {
            put(p, " : ");
            ptoc_print_type(p, a->u.integer.type);
        }
        break;
    case PTOC_ATTR_FLOAT:
        print_float_value(p, a->u.fp.type->u.fp.kind, a->u.fp.value);
        if (with_type) {
            put(p, " : ");
            ptoc_print_type(p, a->u.fp.type);
        }
        break;
    case PTOC_ATTR_STRING: escape_into(p->out, a->u.string->str, a->u.string->len); break;
    case PTOC_ATTR_TYPE: ptoc_print_type(p, a->u.type); break;
    case PTOC_ATTR_ARRAY:
        put(p, "[");
        for (uint32_t i = 0; i < a->u.array.n; i++) {
            if (i)
                put(p, ", ");
            ptoc_print_attr(p, a->u.array.elems[i]);
        }
        put(p, "]");
        break;
    case PTOC_ATTR_DICT:
        put(p, "{");
        print_named_attrs(p, a->u.dict.entries, a->u.dict.n, NULL, 0);
        put(p, "}");
        break;
    case PTOC_ATTR_SYMREF:
        print_symbol(p, a->u.symref.root);
        for (uint32_t i = 0; i < a->u.symref.nnested; i++) {
            put(p, "::");
            print_symbol(p, a->u.symref.nested[i]);
        }
        break;
    case PTOC_ATTR_DENSE_ARRAY: print_dense(p, a); break;
    case PTOC_ATTR_DIALECT:
        if (a->u.dialect.dialect->print_attr)
            a->u.dialect.dialect->print_attr(p, a);
        else
            ptoc_print_fmt(p, "#%s<?>", a->u.dialect.dialect->name);
        break;
    case PTOC_ATTR_OPAQUE:
        if (strcmp(a->u.opaque.dialect->str, "builtin") == 0)
            put(p, a->u.opaque.body->str);
        else
            print_opaque(p, '#', a->u.opaque.dialect, a->u.opaque.body);
        break;
    }
}

void ptoc_print_attr(ptoc_printer *p, const ptoc_attr *a) { print_attr(p, a, true); }
void ptoc_print_attr_no_type(ptoc_printer *p, const ptoc_attr *a) { print_attr(p, a, false); }

static uint32_t count_shown(const ptoc_op *op, const char *const *elided, size_t nelided)
{
    uint32_t shown = 0;
    for (uint32_t i = 0; i < op->nattrs; i++) {
        bool skip = false;
        for (size_t j = 0; j < nelided && !skip; j++)
            skip = strcmp(op->attrs[i].name->str, elided[j]) == 0;
        shown += !skip;
    }
    return shown;
}

static void print_attr_dict_prefixed(ptoc_printer *p, const ptoc_op *op, const char *prefix,
                                     const char *const *elided, size_t nelided)
{
    if (!count_shown(op, elided, nelided))
        return;
    put(p, prefix);
    print_named_attrs(p, op->attrs, op->nattrs, elided, nelided);
    put(p, "}");
}

void ptoc_print_attr_dict(ptoc_printer *p, const ptoc_op *op, const char *const *elided, size_t nelided)
{
    print_attr_dict_prefixed(p, op, " {", elided, nelided);
}

void ptoc_print_attr_dict_with_keyword(ptoc_printer *p, const ptoc_op *op,
                                       const char *const *elided, size_t nelided)
{
    print_attr_dict_prefixed(p, op, " attributes {", elided, nelided);
}

/* ---------------------------------------------------------------- locations */

static void print_loc(ptoc_printer *p, ptoc_loc l)
{
    put(p, " loc(");
    if (l.file) {
        escape_into(p->out, l.file->str, l.file->len);
        ptoc_print_fmt(p, ":%u:%u", l.line, l.col);
    } else {
        put(p, "unknown");
    }
    put(p, ")");
}

/* ---------------------------------------------------------------- value names */

static uint32_t number_of(const ptoc_printer *p, const void *key)
{
    return (uint32_t)(uintptr_t)ptoc_ptrmap_get(&p->names, key);
}

static void set_number(ptoc_printer *p, const void *key, uint32_t n)
{
    ptoc_ptrmap_put(&p->names, key, (void *)(uintptr_t)(n + 1));
}

static bool is_name_char(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
           c == '_' || c == '$' || c == '.' || c == '-';
}

static bool is_valid_hint(const char *s, size_t len)
{
    if (len == 0 || (s[0] >= '0' && s[0] <= '9'))
        return false;
    for (size_t i = 0; i < len; i++)
        if (!is_name_char(s[i]))
            return false;
    return true;
}

/* Marks `name` used; its first suffix to try is 0. */
static void mark_used(ptoc_printer *p, ptoc_ident *name)
{
    if (!ptoc_ptrmap_get(&p->used, name))
        ptoc_ptrmap_put(&p->used, name, (void *)(uintptr_t)1);
}

/* Names an op's results after its def's suggestion, made unique over the whole
 * printout with `_0`, `_1` ... as MLIR does (`%c0`, `%c0_0`). Plain numbers
 * cannot clash: they start with a digit and suggestions never do. */
static bool name_from_hint(ptoc_printer *p, const ptoc_op *op)
{
    ptoc_strbuf sb;
    ptoc_ident *base, *name;
    if (!op->def || !op->def->result_name)
        return false;
    ptoc_strbuf_init(&sb, p->ctx);
    op->def->result_name(op, &sb);
    if (!is_valid_hint(sb.data, sb.len)) {
        ptoc_strbuf_free(&sb);
        return false;
    }
    base = name = ptoc_ident_get(p->ctx, sb.data, sb.len);
    uintptr_t next = (uintptr_t)ptoc_ptrmap_get(&p->used, base);
    if (next) {
        do {
            sb.len = base->len;
            ptoc_strbuf_printf(&sb, "_%u", (unsigned)(next++ - 1));
            name = ptoc_ident_get(p->ctx, sb.data, sb.len);
        } while (ptoc_ptrmap_get(&p->used, name));
        ptoc_ptrmap_put(&p->used, base, (void *)next);
    }
    mark_used(p, name);
    ptoc_ptrmap_put(&p->hints, op, name);
    ptoc_strbuf_free(&sb);
    return true;
}

typedef struct name_frame {
    const ptoc_region *region;
    uint32_t next_value, next_arg;
} name_frame;

PTOC_VARR_DEF(name_frame, frame_stack)

static void frames_push(frame_stack *s, const ptoc_region *r, uint32_t nv, uint32_t na)
{
    name_frame f = { r, nv, na };
    frame_stack_push(s, f);
}

/* Numbers one region's blocks, arguments and results, then queues its ops'
 * regions with the counters as they stand now. */
static void number_region(ptoc_printer *p, frame_stack *s, name_frame f)
{
    uint32_t index = 0;
    for (const ptoc_block *b = f.region->first; b; b = b->next) {
        set_number(p, b, index++);
        for (uint32_t i = 0; i < b->nargs; i++)
            set_number(p, b->args[i], f.next_arg++);
        for (const ptoc_op *op = b->first; op; op = op->next)
            if (op->nresults && !name_from_hint(p, op))
                set_number(p, op, f.next_value++);
    }
    for (const ptoc_block *b = f.region->first; b; b = b->next)
        for (const ptoc_op *op = b->first; op; op = op->next)
            for (uint32_t i = 0; i < op->nregions; i++)
                frames_push(s, &op->regions[i], f.next_value, f.next_arg);
}

static void number_values(ptoc_printer *p, const ptoc_op *root)
{
    frame_stack s;
    frame_stack_init(&s, p->ctx);
    uint32_t nv = 0;
    if (root->nresults)
        set_number(p, root, nv++);
    for (uint32_t i = 0; i < root->nregions; i++)
        frames_push(&s, &root->regions[i], nv, 0);
    while (frame_stack_length(&s)) {
        name_frame f = frame_stack_pop(&s);
        const ptoc_op *owner = f.region->owner;
        /* Suggested names start afresh in each region isolated from above (each
         * function), as mlir-opt's do; no value can be seen across that border.
         * The walk is depth-first, so no other scope is still being named. */
        if (owner && owner->def && (owner->def->flags & PTOC_OPF_ISOLATED)) {
            ptoc_ptrmap_free(&p->used);
            ptoc_ptrmap_init(&p->used, p->ctx);
        }
        number_region(p, &s, f);
    }
    frame_stack_free(&s);
}

/* `%c0` or `%3`: the name an op's results share. */
static void print_result_name(ptoc_printer *p, const ptoc_op *op)
{
    const ptoc_ident *hint = ptoc_ptrmap_get(&p->hints, op);
    if (hint)
        ptoc_print_fmt(p, "%%%s", hint->str);
    else
        ptoc_print_fmt(p, "%%%u", number_of(p, op) - 1);
}

void ptoc_print_value(ptoc_printer *p, const ptoc_value *v)
{
    if (v->kind == PTOC_VALUE_BLOCK_ARG) {
        uint32_t n = number_of(p, v);
        if (n)
            ptoc_print_fmt(p, "%%arg%u", n - 1);
        else
            put(p, "<<UNKNOWN SSA VALUE>>");
        return;
    }
    const ptoc_op *op = v->owner.op;
    if (!op || (!ptoc_ptrmap_get(&p->hints, op) && !number_of(p, op))) {
        put(p, "<<UNKNOWN SSA VALUE>>");
        return;
    }
    print_result_name(p, op);
    if (op->nresults > 1)
        ptoc_print_fmt(p, "#%u", v->index);
}

void ptoc_print_value_type(ptoc_printer *p, const ptoc_value *v) { ptoc_print_type(p, v->type); }

void ptoc_print_operands(ptoc_printer *p, const ptoc_op *op, uint32_t from, uint32_t n)
{
    for (uint32_t i = 0; i < n; i++) {
        if (i)
            put(p, ", ");
        ptoc_print_value(p, op->operands[from + i].value);
    }
}

void ptoc_print_operand_types(ptoc_printer *p, const ptoc_op *op, uint32_t from, uint32_t n)
{
    for (uint32_t i = 0; i < n; i++) {
        if (i)
            put(p, ", ");
        ptoc_print_type(p, op->operands[from + i].value->type);
    }
}

/* `T`, or `(T, U)`; `()` when there are none. A lone function type needs the
 * parentheses too, or its own `->` would be read as the arrow. */
static void print_result_types(ptoc_printer *p, const ptoc_op *op)
{
    if (op->nresults == 1 && op->results[0].type->kind != PTOC_TYPE_FUNCTION) {
        ptoc_print_type(p, op->results[0].type);
        return;
    }
    put(p, "(");
    for (uint32_t i = 0; i < op->nresults; i++) {
        if (i)
            put(p, ", ");
        ptoc_print_type(p, op->results[i].type);
    }
    put(p, ")");
}

void ptoc_print_arrow_result_types(ptoc_printer *p, const ptoc_op *op)
{
    if (!op->nresults)
        return;
    put(p, " -> ");
    print_result_types(p, op);
}

void ptoc_print_block_arg(ptoc_printer *p, const ptoc_value *arg, bool with_type)
{
    ptoc_print_value(p, arg);
    if (!with_type)
        return;
    put(p, ": ");
    ptoc_print_type(p, arg->type);
    if (p->opts.debuginfo)
        print_loc(p, arg->loc);
}

/* ---------------------------------------------------------------- regions */

static void print_op(ptoc_printer *p, const ptoc_op *op);

static const struct { const char *op; const char *dialect; } default_dialects[] = {
    { "func.func", "func" },
};

static const char *default_dialect_of(const ptoc_op *op)
{
    for (size_t i = 0; op && i < sizeof default_dialects / sizeof default_dialects[0]; i++)
        if (strcmp(op->name->str, default_dialects[i].op) == 0)
            return default_dialects[i].dialect;
    return "";
}

static void print_block_header(ptoc_printer *p, const ptoc_block *b)
{
    p->indent -= 2;
    ptoc_print_newline(p);
    p->indent += 2;
    ptoc_print_fmt(p, "^bb%u", number_of(p, b) - 1);
    if (b->nargs) {
        put(p, "(");
        for (uint32_t i = 0; i < b->nargs; i++) {
            if (i)
                put(p, ", ");
            ptoc_print_block_arg(p, b->args[i], true);
        }
        put(p, ")");
    }
    put(p, ":");
}

static bool is_omitted(const ptoc_op *op, const char *omit)
{
    return omit && op == op->block->last && ptoc_op_is(op, omit) && op->noperands == 0 &&
           op->nattrs == 0 && op->nresults == 0 && op->nregions == 0;
}

static void print_region_impl(ptoc_printer *p, const ptoc_region *r, bool entry_args,
                              const char *omit, bool empty_header)
{
    const char *saved = p->default_dialect;
    p->default_dialect = default_dialect_of(r->owner);
    put(p, "{");
    p->indent += 2;
    bool several = r->first && r->first != r->last;
    for (const ptoc_block *b = r->first; b; b = b->next) {
        bool header = b != r->first || several || (entry_args && b->nargs) || (empty_header && !b->first);
        if (header)
            print_block_header(p, b);
        for (const ptoc_op *op = b->first; op; op = op->next) {
            if (is_omitted(op, omit))
                continue;
            ptoc_print_newline(p);
            print_op(p, op);
        }
    }
    p->indent -= 2;
    ptoc_print_newline(p);
    put(p, "}");
    p->default_dialect = saved;
}

void ptoc_print_region(ptoc_printer *p, const ptoc_region *r, bool print_entry_args,
                       const char *omit_terminator)
{
    print_region_impl(p, r, print_entry_args, omit_terminator, false);
}

/* ---------------------------------------------------------------- ops */

static void print_generic(ptoc_printer *p, const ptoc_op *op)
{
    escape_into(p->out, op->name->str, op->name->len);
    put(p, "(");
    ptoc_print_operands(p, op, 0, op->noperands);
    put(p, ")");
    if (op->nregions) {
        put(p, " (");
        for (uint32_t i = 0; i < op->nregions; i++) {
            if (i)
                put(p, ", ");
            print_region_impl(p, &op->regions[i], true, NULL, true);
        }
        put(p, ")");
    }
    ptoc_print_attr_dict(p, op, NULL, 0);
    put(p, " : (");
    ptoc_print_operand_types(p, op, 0, op->noperands);
    put(p, ") -> ");
    print_result_types(p, op);
}

/* The custom-form name: `builtin.` and the region's default dialect dropped. */
static void print_custom_name(ptoc_printer *p, const ptoc_op *op)
{
    const char *name = op->name->str;
    size_t dl = strlen(p->default_dialect);
    if (strncmp(name, "builtin.", 8) == 0 && !strchr(name + 8, '.'))
        name += 8;
    else if (dl && strncmp(name, p->default_dialect, dl) == 0 && name[dl] == '.' && !strchr(name + dl + 1, '.'))
        name += dl + 1;
    put(p, name);
}

static void print_op(ptoc_printer *p, const ptoc_op *op)
{
    if (op->nresults) {
        print_result_name(p, op);
        if (op->nresults > 1)
            ptoc_print_fmt(p, ":%u", op->nresults);
        put(p, " = ");
    }
    bool custom = !p->opts.generic && op->def && op->def->print && !(op->def->flags & PTOC_OPF_UNREGISTERED);
    bool assembly = custom && p->opts.assembly && op->def->print_asm;
    if (assembly && op->def->print_asm(p, op)) {
        /* printed as an assembly statement */
    } else if (custom) {
        print_custom_name(p, op);
        op->def->print(p, op);
    } else {
        print_generic(p, op);
    }
    if (p->opts.debuginfo)
        print_loc(p, op->loc);
}

void ptoc_print_op(ptoc_strbuf *out, const ptoc_op *op, const ptoc_print_options *opts)
{
    ptoc_printer p;
    printer_init(&p, out, ptoc_op_context(op), opts);
    number_values(&p, op);
    print_op(&p, op);
    ptoc_strbuf_putc(out, '\n');
    ptoc_ptrmap_free(&p.names);
    ptoc_ptrmap_free(&p.hints);
    ptoc_ptrmap_free(&p.used);
}

void ptoc_print_type_to(ptoc_strbuf *out, const ptoc_type *t)
{
    ptoc_printer p;
    printer_init(&p, out, out->ctx, NULL);
    ptoc_print_type(&p, t);
}

void ptoc_print_attr_to(ptoc_strbuf *out, const ptoc_attr *a)
{
    ptoc_printer p;
    printer_init(&p, out, out->ctx, NULL);
    ptoc_print_attr(&p, a);
}

const char *ptoc_syntax_type_str(ptoc_context *ctx, ptoc_strbuf *sb, const ptoc_type *t)
{
    (void)ctx;
    sb->len = 0;
    ptoc_print_type_to(sb, t);
    return ptoc_strbuf_cstr(sb);
}
