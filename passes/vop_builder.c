/* vop_builder.c: the helpers of vop_builder.h. */
#include "passes/vop_builder.h"
#include "ptoc/ir.h"
#include "ptoc/util.h"

#include <math.h>
#include <string.h>

void vb_init(vop_builder *L, ptoc_context *ctx, ptoc_arena *arena)
{
    memset(L, 0, sizeof *L);
    L->ctx = ctx;
    L->index = ptoc_type_index(ctx);
    ptoc_builder_init(&L->b, ctx, arena);
}

ptoc_value *vb_result0(ptoc_op *op) { return ptoc_op_result(op, 0); }

static ptoc_value *constant(vop_builder *L, ptoc_type *t, ptoc_attr *value)
{
    ptoc_named_attr a = {ptoc_ident_cstr(L->ctx, "value"), value};
    return vb_result0(ptoc_builder_create(&L->b, "arith.constant", 0, NULL, 1, &t, 1, &a, 0));
}

ptoc_value *vb_int(vop_builder *L, ptoc_type *t, int64_t v) { return constant(L, t, ptoc_attr_int(L->ctx, t, v)); }

ptoc_value *vb_float(vop_builder *L, ptoc_type *t, double v) { return constant(L, t, ptoc_attr_float(L->ctx, t, v)); }

ptoc_value *vb_index(vop_builder *L, int64_t v)
{
    for (uint32_t i = 0; i < L->nconsts; i++)
        if (L->const_value[i] == v)
            return L->const_of[i];
    ptoc_value *c = vb_int(L, L->index, v);
    if (L->nconsts < VB_MAX_CONSTS) {
        L->const_value[L->nconsts] = v;
        L->const_of[L->nconsts++] = c;
    }
    return c;
}

ptoc_value *vb_arith(vop_builder *L, const char *name, ptoc_value *x, ptoc_value *y)
{
    ptoc_value *ops[2] = {x, y};
    return vb_result0(ptoc_builder_create(&L->b, name, 2, ops, 1, &x->type, 0, NULL, 0));
}

ptoc_value *vb_select(vop_builder *L, ptoc_value *c, ptoc_value *a, ptoc_value *b)
{
    ptoc_value *ops[3] = {c, a, b};
    return vb_result0(ptoc_builder_create(&L->b, "arith.select", 3, ops, 1, &a->type, 0, NULL, 0));
}

ptoc_value *vb_quiet_nan(vop_builder *L, ptoc_value *x)
{
    ptoc_type *i1 = ptoc_type_int(L->ctx, 1, PTOC_SIGNLESS);
    ptoc_value *ops[2] = {x, x};
    ptoc_named_attr pred = {ptoc_ident_cstr(L->ctx, "predicate"),
                            ptoc_attr_int(L->ctx, ptoc_type_int(L->ctx, 64, PTOC_SIGNLESS), 14 /* uno */)};
    ptoc_value *nan = vb_result0(ptoc_builder_create(&L->b, "arith.cmpf", 2, ops, 1, &i1, 1, &pred, 0));
    return vb_select(L, nan, vb_float(L, x->type, (double)NAN), x);
}

ptoc_value *vb_cast(vop_builder *L, const char *name, ptoc_value *x, ptoc_type *to)
{
    return vb_result0(ptoc_builder_create(&L->b, name, 1, &x, 1, &to, 0, NULL, 0));
}

ptoc_op *vb_vop(vop_builder *L, ptoc_pto_vop_id id, uint32_t n, ptoc_value *const *operands, uint32_t nres,
                ptoc_type *const *types, const char *k0, const char *v0, const char *k1, const char *v1)
{
    ptoc_named_attr attrs[2];
    uint32_t na = 0;
    const char *keys[2] = {k0, k1}, *vals[2] = {v0, v1};
    for (int i = 0; i < 2; i++)
        if (keys[i])
            attrs[na++] = (ptoc_named_attr){ptoc_ident_cstr(L->ctx, keys[i]),
                                            ptoc_attr_string(L->ctx, vals[i], strlen(vals[i]))};
    return ptoc_builder_create(&L->b, ptoc_pto_vop_info_at((size_t)id)->name, n, operands, nres, types, na, attrs, 0);
}

ptoc_value *vb_loop_begin(vop_builder *L, vb_loop *l, ptoc_value *lb, ptoc_value *ub, ptoc_value *step)
{
    ptoc_value *ops[3] = {lb, ub, step};
    ptoc_op *op = ptoc_builder_create(&L->b, "scf.for", 3, ops, 0, NULL, 0, NULL, 1);
    ptoc_block *body = ptoc_block_create(L->b.arena);
    ptoc_value *iv = ptoc_block_add_arg(body, L->b.arena, L->index, L->b.loc);
    ptoc_region_append(&op->regions[0], body);
    l->after = L->b;
    ptoc_builder_set_end(&L->b, body);
    return iv;
}

void vb_loop_end(vop_builder *L, vb_loop *l)
{
    ptoc_builder_create(&L->b, "scf.yield", 0, NULL, 0, NULL, 0, NULL, 0);
    L->b = l->after;
}

ptoc_value *vb_carry_begin(vop_builder *L, vb_carried *l, ptoc_value *lb, ptoc_value *ub, ptoc_value *step,
                           ptoc_value *init, ptoc_value **state)
{
    ptoc_value *ops[4] = {lb, ub, step, init};
    l->op = ptoc_builder_create(&L->b, "scf.for", 4, ops, 1, &init->type, 0, NULL, 1);
    ptoc_block *body = ptoc_block_create(L->b.arena);
    ptoc_value *iv = ptoc_block_add_arg(body, L->b.arena, L->index, L->b.loc);
    *state = ptoc_block_add_arg(body, L->b.arena, init->type, L->b.loc);
    ptoc_region_append(&l->op->regions[0], body);
    l->after = L->b;
    ptoc_builder_set_end(&L->b, body);
    return iv;
}

ptoc_value *vb_carry_end(vop_builder *L, vb_carried *l, ptoc_value *next)
{
    ptoc_builder_create(&L->b, "scf.yield", 1, &next, 0, NULL, 0, NULL, 0);
    L->b = l->after;
    return vb_result0(l->op);
}

vb_lanes vb_lanes_of(vop_builder *L, ptoc_type *elem)
{
    unsigned ebits = ptoc_type_bitwidth(elem);
    vb_lanes r = {elem, NULL, NULL, ebits == 64 ? 32 : ebits, ebits == 64 ? 64 : 2048 / ebits};
    r.vreg = ptoc_pto_vreg_type_get(L->ctx, elem, r.count);
    r.mask = ptoc_pto_mask_type_get(L->ctx, r.bits);
    return r;
}

ptoc_pto_vop_id vb_plt(unsigned bits)
{
    return bits == 8 ? PTOC_PTO_VOP_PLT_B8 : bits == 16 ? PTOC_PTO_VOP_PLT_B16 : PTOC_PTO_VOP_PLT_B32;
}

ptoc_value *vb_first(vop_builder *L, const vb_lanes *ln, ptoc_value *n)
{
    ptoc_type *types[2] = {ln->mask, L->index};
    return vb_result0(vb_vop(L, vb_plt(ln->bits), 1, &n, 2, types, NULL, NULL, NULL, NULL));
}

ptoc_value *vb_vop1(vop_builder *L, ptoc_pto_vop_id id, uint32_t n, ptoc_value *const *ops, ptoc_type *t,
                    const char *k, const char *v)
{
    return vb_result0(vb_vop(L, id, n, ops, 1, &t, k, v, NULL, NULL));
}

static void if_branch(vop_builder *L, vb_if *f, uint32_t k)
{
    ptoc_block *blk = ptoc_block_create(L->b.arena);
    ptoc_region_append(&f->op->regions[k], blk);
    ptoc_builder_set_end(&L->b, blk);
    L->nconsts = f->nconsts;
}

void vb_if_begin(vop_builder *L, vb_if *f, ptoc_value *cond)
{
    f->op = ptoc_builder_create(&L->b, "scf.if", 1, &cond, 0, NULL, 0, NULL, 2);
    f->after = L->b;
    f->nconsts = L->nconsts;
    if_branch(L, f, 0);
}

void vb_if_else(vop_builder *L, vb_if *f)
{
    ptoc_builder_create(&L->b, "scf.yield", 0, NULL, 0, NULL, 0, NULL, 0);
    if_branch(L, f, 1);
}

void vb_if_end(vop_builder *L, vb_if *f)
{
    ptoc_builder_create(&L->b, "scf.yield", 0, NULL, 0, NULL, 0, NULL, 0);
    L->b = f->after;
    L->nconsts = f->nconsts;
}

ptoc_value *vb_cmpi(vop_builder *L, int64_t predicate, ptoc_value *x, ptoc_value *y)
{
    ptoc_type *i1 = ptoc_type_int(L->ctx, 1, PTOC_SIGNLESS);
    ptoc_value *ops[2] = {x, y};
    ptoc_named_attr pred = {ptoc_ident_cstr(L->ctx, "predicate"),
                            ptoc_attr_int(L->ctx, ptoc_type_int(L->ctx, 64, PTOC_SIGNLESS), predicate)};
    return vb_result0(ptoc_builder_create(&L->b, "arith.cmpi", 2, ops, 1, &i1, 1, &pred, 0));
}

ptoc_value *vb_same_valid(vop_builder *L, ptoc_value *a, ptoc_value *b)
{
    ptoc_op *va = vb_tile_valid(L, a), *vb = vb_tile_valid(L, b);
    ptoc_value *rows = vb_cmpi(L, VB_CMP_EQ, ptoc_op_result(va, 0), ptoc_op_result(vb, 0));
    ptoc_value *cols = vb_cmpi(L, VB_CMP_EQ, ptoc_op_result(va, 1), ptoc_op_result(vb, 1));
    return vb_arith(L, "arith.andi", rows, cols);
}

int vb_dps_ins(const ptoc_op *op)
{
    uint32_t nins, nouts;
    if (op->nresults != 0 || !ptoc_pto_dps_split(op, &nins, &nouts) || nouts != 1 || nins + nouts != op->noperands)
        return -1;
    return (int)nins;
}

/* A vec memref's description, kept per thread for the few types one op's
 * lowering reads (the description is a function of the type alone). */
enum { MEMREF_SLOTS = 64 };
static _Thread_local struct { const ptoc_type *type; ptoc_pto_tile_desc desc; } memref_descs[MEMREF_SLOTS];
static _Thread_local uint32_t memref_next;

const ptoc_pto_tile_desc *vb_tile_desc(const ptoc_type *t)
{
    const ptoc_pto_tile_desc *d = ptoc_pto_tile_buf(t);
    ptoc_pto_address_space space;
    if (d || !ptoc_pto_memref_space(t, &space) || space != PTOC_PTO_AS_VEC || t->u.shaped.rank != 2 ||
        t->u.shaped.shape[0] == PTOC_DYNAMIC || t->u.shaped.shape[1] == PTOC_DYNAMIC || t->u.shaped.layout)
        return d;
    for (uint32_t i = 0; i < MEMREF_SLOTS; i++)
        if (memref_descs[i].type == t)
            return &memref_descs[i].desc;
    uint32_t i = memref_next++ % MEMREF_SLOTS;
    memref_descs[i].type = t;
    memref_descs[i].desc = ptoc_pto_tile_desc_init(t->u.shaped.elem, t->u.shaped.shape[0], t->u.shaped.shape[1]);
    return &memref_descs[i].desc;
}

ptoc_value *vb_tile_ptr(vop_builder *L, ptoc_value *tile, ptoc_type *elem)
{
    ptoc_type *pt = ptoc_pto_ub_ptr_type(L->ctx, elem);
    return vb_result0(vb_vop(L, PTOC_PTO_VOP_TILE_PTR, 1, &tile, 1, &pt, NULL, NULL, NULL, NULL));
}

ptoc_op *vb_tile_valid(vop_builder *L, ptoc_value *tile)
{
    ptoc_type *vt[2] = {L->index, L->index};
    return vb_vop(L, PTOC_PTO_VOP_TILE_VALID, 1, &tile, 2, vt, NULL, NULL, NULL, NULL);
}

bool vb_scalar_fits(const ptoc_type *t, const ptoc_type *elem)
{
    return (ptoc_type_is_float(t) && ptoc_type_is_float(elem)) || (ptoc_type_is_int(t) && ptoc_type_is_int(elem));
}

ptoc_value *vb_scalar_as(vop_builder *L, ptoc_value *s, ptoc_type *elem)
{
    ptoc_type *t = s->type;
    unsigned tb = ptoc_type_bitwidth(t), eb = ptoc_type_bitwidth(elem);
    if (ptoc_type_is_float(t) && ptoc_type_is_float(elem))
        return t == elem ? s : vb_cast(L, tb > eb ? "arith.truncf" : "arith.extf", s, elem);
    if (!ptoc_type_is_int(t) || !ptoc_type_is_int(elem))
        return NULL;
    if (tb == eb)
        return s;
    ptoc_type *signless = ptoc_type_int(L->ctx, eb, PTOC_SIGNLESS);
    return vb_cast(L, tb > eb ? "arith.trunci" : "arith.extsi", s, signless);
}

void vb_open_vecscope(vop_builder *L, ptoc_op *op, ptoc_value *const *tiles, uint32_t n, uint32_t nouts)
{
    ptoc_builder_set_before(&L->b, op);
    L->b.loc = op->loc;
    /* `from`: the tile op it runs, for traces and readers */
    const char *from = op->name->str;
    ptoc_named_attr a = {ptoc_ident_cstr(L->ctx, "from"), ptoc_attr_string(L->ctx, from, strlen(from))};
    ptoc_op *scope = ptoc_builder_create(&L->b, ptoc_pto_op_name(PTOC_PTO_OP_VECSCOPE), n, tiles, 0, NULL, 1,
                                         &a, 1);
    int64_t seg[2] = {(int64_t)n - (int64_t)nouts, (int64_t)nouts};
    ptoc_op_set_segment_sizes(scope, L->b.arena, 2, seg);
    ptoc_block *body = ptoc_block_create(L->b.arena);
    ptoc_region_append(&scope->regions[0], body);
    ptoc_builder_set_end(&L->b, body);
    L->nconsts = 0;
}

typedef struct lower_walk { bool (*lowers)(ptoc_pto_op_id); ptoc_op_varr *ops; } lower_walk;

static ptoc_walk_result collect(ptoc_op *op, void *user)
{
    lower_walk *w = user;
    if (w->lowers(ptoc_pto_opcode(op)))
        ptoc_op_varr_push(w->ops, op);
    return PTOC_WALK_ADVANCE;
}

void vb_lower_each(ptoc_op *func, ptoc_arena *arena, bool (*lowers)(ptoc_pto_op_id),
                   void (*lower_one)(vop_builder *L, ptoc_op *op))
{
    ptoc_context *ctx = ptoc_op_context(func);
    vop_builder L;
    vb_init(&L, ctx, arena);
    ptoc_arena *tmp = ptoc_arena_create(ctx);
    ptoc_op_varr ops;
    ptoc_op_varr_init_arena(&ops, tmp);
    lower_walk w = {lowers, &ops};
    ptoc_walk_pre(func, collect, &w);
    for (uint32_t i = 0; i < ops.len; i++)
        lower_one(&L, ops.data[i]);
    ptoc_arena_destroy(tmp);
}
