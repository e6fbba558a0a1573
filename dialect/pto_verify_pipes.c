/* pto_verify_pipes.c: the rules of the cube/vector pipes (TPUSH/TPOP), their
 * reserved buffers and the async DMA ops, as PTOAS states them in its op
 * verifiers and in the passes that lower the frontend ops (frontend lowering,
 * pipe-init inference, reserved-buffer resolution). ptoc checks them all when
 * it verifies, so a kernel PTOAS would reject is rejected before any pass.
 *
 * A logical pipe joins two init ops in two functions, a cube and a vector
 * kernel: each side names its consumer buffer by a pto.reserve_buffer of its
 * own or a pto.import_reserved_buffer of the peer's. The frontend inits
 * (aic_/aiv_initialize_pipe) and the internal ones (initialize_l2l_pipe,
 * initialize_l2g2l_pipe) take part alike:
 *   - an init names its local buffer through reserve/import, or has flag_base;
 *   - the buffer's pipe has exactly one init in the owner and one in the peer;
 *   - the pushes, pops and frees of one pipe use split = 0 (no split) or only
 *     split = 1/2, the same on both sides, and agree with an explicit nosplit.
 * The module-wide rules are checked by the first init of a pipe (in module
 * order), so each problem is reported once.
 */
#include <string.h>

#include "dialect/pto_internal.h"
#include "ptoc/util.h"

/* ---------------------------------------------------------------- helpers */

static ptoc_op *enclosing(const ptoc_op *op, const char *name)
{
    for (ptoc_op *m = ptoc_op_parent(op); m; m = ptoc_op_parent(m))
        if (ptoc_op_is(m, name))
            return m;
    return NULL;
}

static const char *func_name(const ptoc_op *func)
{
    ptoc_attr *a = func ? ptoc_op_attr(func, "sym_name") : NULL;
    return a && a->kind == PTOC_ATTR_STRING ? a->u.string->str : "?";
}

/* "cube", "vector", or NULL for a function without pto.kernel_kind. */
static const char *kernel_kind(const ptoc_op *func)
{
    uint32_t v;
    ptoc_attr *a = func ? ptoc_op_attr(func, "pto.kernel_kind") : NULL;
    return a && ptoc_pto_enum_value(a, PTOC_PTO_ENUM_KERNEL_KIND, &v) ? ptoc_pto_enum_name(PTOC_PTO_ENUM_KERNEL_KIND, v)
                                                                     : NULL;
}

static bool int_attr(const ptoc_op *op, const char *name, int64_t *v)
{
    ptoc_attr *a = ptoc_op_attr(op, name);
    if (!a || a->kind != PTOC_ATTR_INTEGER)
        return false;
    *v = a->u.integer.value;
    return true;
}

static int64_t int_attr_or(const ptoc_op *op, const char *name, int64_t fallback)
{
    int64_t v;
    return int_attr(op, name, &v) ? v : fallback;
}

static const char *string_attr(const ptoc_op *op, const char *name)
{
    ptoc_attr *a = ptoc_op_attr(op, name);
    return a && a->kind == PTOC_ATTR_STRING ? a->u.string->str : "";
}

/* Does `a` come before `b` in a block that holds `b` or one of its ancestors? */
static bool dominates(const ptoc_op *a, const ptoc_op *b)
{
    for (const ptoc_op *x = b; x; x = ptoc_op_parent(x)) {
        if (x->block != a->block)
            continue;
        for (const ptoc_op *y = a; y; y = y->next)
            if (y == x)
                return true;
        return false;
    }
    return false;
}

static bool is_i32(const ptoc_type *t) { return ptoc_type_is_int(t) && ptoc_type_bitwidth(t) == 32; }

/* The checks every push/pop op starts with: counts and its key block. */
static bool check_shape(const ptoc_op *op)
{
    uint32_t n;
    const pto_form_key *keys = pto_pipe_op_keys(op, &n);
    return pto_verify_structure(op) && pto_check_keys(op, keys, n);
}

static bool check_split(const ptoc_op *op)
{
    int64_t split = int_attr_or(op, "split", 0);
    if (split >= 0 && split <= 2)
        return true;
    ptoc_op_emit_error(op, "split must be 0, 1 or 2, got %lld", (long long)split);
    return false;
}

/* ---------------------------------------------------------------- frontend ops */

/* Which kernel a frontend op belongs in, and which direction it uses
 * (1 = C2V, cube to vector; 2 = V2C). */
typedef struct frontend_role { const char *op; const char *kernel; int dir; } frontend_role;
static const frontend_role frontend_roles[] = {
    {"pto.aic_initialize_pipe", "cube", 0},  {"pto.aiv_initialize_pipe", "vector", 0},
    {"pto.tpush_to_aiv", "cube", 1},         {"pto.tpush_to_aic", "vector", 2},
    {"pto.tpop_from_aic", "vector", 1},      {"pto.tpop_from_aiv", "cube", 2},
    {"pto.tfree_from_aic", "vector", 1},     {"pto.tfree_from_aiv", "cube", 2},
};

static const frontend_role *frontend_role_of(const ptoc_op *op)
{
    for (size_t i = 0; i < sizeof frontend_roles / sizeof frontend_roles[0]; i++)
        if (ptoc_op_is(op, frontend_roles[i].op))
            return &frontend_roles[i];
    return NULL;
}

static bool is_frontend_init(const ptoc_op *op)
{
    return ptoc_pto_is(op, PTOC_PTO_OP_AIC_INITIALIZE_PIPE) || ptoc_pto_is(op, PTOC_PTO_OP_AIV_INITIALIZE_PIPE);
}

static bool check_kernel_kind(const ptoc_op *op, const frontend_role *role)
{
    const char *kind = kernel_kind(enclosing(op, "func.func"));
    if (kind && strcmp(kind, role->kernel) == 0)
        return true;
    ptoc_op_emit_error(op, "must be inside a %s kernel function (pto.kernel_kind = #pto.kernel_kind<%s>)",
                       role->kernel, role->kernel);
    return false;
}

/* The first frontend init op of the function holding `op`, or NULL. */
static ptoc_walk_result find_frontend_init(ptoc_op *op, void *user)
{
    const ptoc_op **found = user;
    if (is_frontend_init(op) && !*found)
        *found = op;
    return PTOC_WALK_ADVANCE;
}

static const ptoc_op *function_init(const ptoc_op *op)
{
    ptoc_op *func = enclosing(op, "func.func");
    const ptoc_op *found = NULL;
    if (func)
        ptoc_walk_pre(func, find_frontend_init, &found);
    return found;
}

bool pto_verify_frontend_init(const ptoc_op *op)
{
    if (!check_shape(op) || !check_kernel_kind(op, frontend_role_of(op)))
        return false;
    const ptoc_op *first = function_init(op);
    if (first != op) {
        ptoc_diag *d = ptoc_op_diag_error(op, "a function takes one pto.aic_initialize_pipe or "
                                              "pto.aiv_initialize_pipe");
        ptoc_diag_op_note(d, first, "the first one is here");
        ptoc_diag_report(d);
        return false;
    }
    int64_t dir = int_attr_or(op, "dir_mask", 0), slot = int_attr_or(op, "slot_size", 0);
    if (dir < 1 || dir > 3) {
        ptoc_op_emit_error(op, "dir_mask must be 1 (C2V), 2 (V2C) or 3 (both), got %lld", (long long)dir);
        return false;
    }
    if (slot <= 0) {
        ptoc_op_emit_error(op, "slot_size must be positive, got %lld", (long long)slot);
        return false;
    }
    uint32_t bufs = op->noperands - 2;           /* after the optional slot buffer */
    if (bufs == 1 && !pto_check_type(op, "gm_slot_buffer", ptoc_op_operand(op, 0)->type,
                                 ptoc_pto_ptr_elem(ptoc_op_operand(op, 0)->type) != NULL, "a !pto.ptr"))
        return false;
    for (uint32_t i = bufs; i < op->noperands; i++)
        if (!pto_check_type(op, i == bufs ? "c2v_consumer_buf" : "v2c_consumer_buf", ptoc_op_operand(op, i)->type,
                        is_i32(ptoc_op_operand(op, i)->type), "i32"))
            return false;
    return pto_verify_pipe_peers(op);
}

/* A push, pop or free needs its function's init before it, with its direction on. */
static bool check_frontend_data(const ptoc_op *op)
{
    const frontend_role *role = frontend_role_of(op);
    if (!check_shape(op) || !check_kernel_kind(op, role) || !check_split(op))
        return false;
    const ptoc_op *init = function_init(op);
    if (!init || !dominates(init, op)) {
        ptoc_op_emit_error(op, "needs a pto.%s_initialize_pipe before it in its function",
                           strcmp(role->kernel, "cube") == 0 ? "aic" : "aiv");
        return false;
    }
    int64_t dir = int_attr_or(init, "dir_mask", 0);
    if (!(dir & role->dir)) {
        ptoc_diag *d = ptoc_op_diag_error(op, "uses the %s direction, which its initialize_pipe (dir_mask = %lld) "
                                              "does not enable", role->dir == 1 ? "C2V" : "V2C", (long long)dir);
        ptoc_diag_op_note(d, init, "initialize_pipe here");
        ptoc_diag_report(d);
        return false;
    }
    return true;
}

bool pto_verify_frontend_push(const ptoc_op *op)
{
    return check_frontend_data(op) &&
           pto_check_type(op, "the pushed tile", ptoc_op_operand(op, 0)->type,
                      ptoc_pto_tile_like(ptoc_op_operand(op, 0)->type) ||
                          ptoc_op_operand(op, 0)->type->kind == PTOC_TYPE_MEMREF,
                      "a tile");
}

bool pto_verify_frontend_pop(const ptoc_op *op)
{
    uint32_t nseg;
    const int64_t *seg = pto_op_segments(op, &nseg);
    if (!check_frontend_data(op))
        return false;
    if ((seg && (nseg != 2 || seg[0] != seg[1])) || (op->noperands != 0 && op->noperands != 2)) {
        ptoc_op_emit_error(op, "takes valid_row and valid_col together or neither");
        return false;
    }
    const ptoc_type *t = op->results[0].type;
    const ptoc_pto_tile_desc *d = ptoc_pto_tile_like(t);
    if (!pto_check_type(op, "the popped tile", t, d || t->kind == PTOC_TYPE_MEMREF, "a tile"))
        return false;
    if (op->noperands == 0)
        return true;
    for (uint32_t i = 0; i < 2; i++)
        if (!pto_check_type(op, i ? "valid_col" : "valid_row", ptoc_op_operand(op, i)->type,
                        ptoc_op_operand(op, i)->type->kind == PTOC_TYPE_INDEX, "index"))
            return false;
    if (!d || d->valid_rows != PTOC_DYNAMIC || d->valid_cols != PTOC_DYNAMIC) {
        ptoc_op_emit_error(op, "with valid_row and valid_col, the popped tile needs a dynamic valid shape "
                               "(valid=?x?), since they set it");
        return false;
    }
    return true;
}

bool pto_verify_frontend_free(const ptoc_op *op)
{
    return check_frontend_data(op);
}

/* ---------------------------------------------------------------- reserved buffers */

/* The first op named `name` (with string attribute `key` = `value`, when key
 * is given) under a root. */
typedef struct find_named { const char *name, *key, *value; const ptoc_op *found; } find_named;

static ptoc_walk_result find_first_named(ptoc_op *op, void *user)
{
    find_named *f = user;
    if (!f->found && ptoc_op_is(op, f->name) && (!f->key || strcmp(string_attr(op, f->key), f->value) == 0))
        f->found = op;
    return PTOC_WALK_ADVANCE;
}

/* The first op of its name in its function; a later one is an error, with a
 * note at the first. */
static bool only_one_per_function(const ptoc_op *op, const ptoc_op *func)
{
    find_named f = {op->name->str, NULL, NULL, NULL};
    ptoc_walk_pre((ptoc_op *)func, find_first_named, &f);
    if (f.found == op)
        return true;
    ptoc_diag *d = ptoc_op_diag_error(op, "a function takes at most one %s", op->name->str);
    ptoc_diag_op_note(d, f.found, "the first one is here");
    ptoc_diag_report(d);
    return false;
}

static bool check_in_function(const ptoc_op *op, const ptoc_op **func)
{
    *func = enclosing(op, "func.func");
    if (*func)
        return true;
    ptoc_op_emit_error(op, "must be inside a func.func");
    return false;
}

bool pto_verify_reserve_buffer(const ptoc_op *op)
{
    const ptoc_op *func;
    if (!check_shape(op) || !check_in_function(op, &func) || !only_one_per_function(op, func))
        return false;
    int64_t size = int_attr_or(op, "size", 0), base;
    uint32_t space = 0;
    ptoc_pto_enum_value(ptoc_op_attr(op, "location"), PTOC_PTO_ENUM_ADDRESS_SPACE, &space);
    ptoc_attr *autoalloc = ptoc_op_attr(op, "autoAlloc");
    bool has_base = int_attr(op, "base", &base);
    if (size <= 0) {
        ptoc_op_emit_error(op, "size must be positive, got %lld", (long long)size);
        return false;
    }
    if (space != PTOC_PTO_AS_VEC && space != PTOC_PTO_AS_MAT) {
        ptoc_op_emit_error(op, "location must be vec or mat, got %s",
                           ptoc_pto_enum_name(PTOC_PTO_ENUM_ADDRESS_SPACE, space));
        return false;
    }
    if (!autoalloc->u.boolean && !has_base) {
        ptoc_op_emit_error(op, "auto = false needs a base address (base = N)");
        return false;
    }
    if (has_base && base < 0) {
        ptoc_op_emit_error(op, "base must not be negative, got %lld", (long long)base);
        return false;
    }
    return pto_check_type(op, "the result", op->results[0].type, is_i32(op->results[0].type), "i32");
}

/* The func.func named `name` in the module holding `op`, or NULL. */
static const ptoc_op *module_function(const ptoc_op *op, const char *name)
{
    const ptoc_op *module = enclosing(op, "builtin.module");
    for (const ptoc_block *b = module && module->nregions ? module->regions[0].first : NULL; b; b = b->next)
        for (const ptoc_op *f = b->first; f; f = f->next)
            if (ptoc_op_is(f, "func.func") && strcmp(func_name(f), name) == 0)
                return f;
    return NULL;
}

/* The reserve_buffer named `name` in `func`, or NULL. */
static const ptoc_op *find_reserve(const ptoc_op *func, const char *name)
{
    find_named f = {"pto.reserve_buffer", "name", name, NULL};
    ptoc_walk_pre((ptoc_op *)func, find_first_named, &f);
    return f.found;
}

const ptoc_op *ptoc_pto_imported_reserve(const ptoc_op *import)
{
    ptoc_attr *peer = ptoc_op_attr(import, "peer_func");
    const char *name = string_attr(import, "name");
    if (!peer || peer->kind != PTOC_ATTR_SYMREF || !name)
        return NULL;
    const ptoc_op *peer_func = module_function(import, peer->u.symref.root->str);
    return peer_func ? find_reserve(peer_func, name) : NULL;
}

bool pto_verify_import_reserved_buffer(const ptoc_op *op)
{
    const ptoc_op *func;
    if (!check_shape(op) || !check_in_function(op, &func) || !only_one_per_function(op, func))
        return false;
    const char *peer = ptoc_op_attr(op, "peer_func")->u.symref.root->str, *name = string_attr(op, "name");
    const ptoc_op *peer_func = module_function(op, peer);
    if (!peer_func) {
        ptoc_op_emit_error(op, "peer_func @%s is not a func.func of this module", peer);
        return false;
    }
    if (!find_reserve(peer_func, name)) {
        ptoc_diag *d = ptoc_op_diag_error(op, "@%s has no pto.reserve_buffer named \"%s\" to import", peer, name);
        ptoc_diag_op_note(d, peer_func, "@%s is here", peer);
        ptoc_diag_report(d);
        return false;
    }
    return pto_check_type(op, "the result", op->results[0].type, is_i32(op->results[0].type), "i32");
}

/* ---------------------------------------------------------------- internal pipes */

bool pto_verify_pipe_init(const ptoc_op *op)
{
    if (!check_shape(op))
        return false;
    bool l2g2l = ptoc_pto_is(op, PTOC_PTO_OP_INITIALIZE_L2G2L_PIPE);
    int64_t dir = int_attr_or(op, "dir_mask", 0), slot_size = int_attr_or(op, "slot_size", 0);
    int64_t slots = int_attr_or(op, "slot_num", 0), v;
    const char *why = NULL;
    if (dir < 1 || dir > 3)
        why = "dir_mask must be 1 (C2V), 2 (V2C) or 3 (both)";
    else if (slot_size <= 0)
        why = "slot_size must be positive";
    else if (slots != 4 && slots != 8)
        why = "slot_num must be 4 or 8";
    else if (int_attr(op, "flag_base", &v) && v < 0)
        why = "flag_base must not be negative";
    else if (int_attr(op, "local_slot_num", &v) && (v <= 0 || v > slots))
        why = "local_slot_num must be 1 to slot_num";
    else if ((dir == 3) != (op->noperands == (l2g2l ? 3u : 2u)))
        why = dir == 3 ? "dir_mask = 3 needs a peer_local_addr operand" : "only dir_mask = 3 takes a peer_local_addr";
    if (why) {
        ptoc_op_emit_error(op, "%s", why);
        return false;
    }
    return pto_check_type(op, "the result", op->results[0].type, ptoc_pto_type_is(op->results[0].type, PTOC_PTO_TYPE_PIPE),
                      "!pto.pipe") &&
           pto_verify_pipe_peers(op);
}

static bool inside_kernel(const ptoc_op *op)
{
    return enclosing(op, "pto.section.cube") || enclosing(op, "pto.section.vector") ||
           kernel_kind(enclosing(op, "func.func"));
}

/* The address space a pushed or popped tile lives in (false when unknown). */
static bool tile_space(const ptoc_type *t, uint32_t *space)
{
    const ptoc_pto_tile_desc *d = ptoc_pto_tile_like(t);
    ptoc_pto_address_space as;
    if (d) {
        *space = d->loc;
        return true;
    }
    if (t->kind == PTOC_TYPE_MEMREF && t->u.shaped.memspace && ptoc_pto_memref_space(t, &as)) {
        *space = as;
        return true;
    }
    return false;
}

/* tpush, tpop, tfree: inside a kernel, on a pipe an internal init made, with a
 * tile the pipe can carry (push: acc or vec; pop: vec or mat). */
bool pto_verify_pipe_data(const ptoc_op *op)
{
    if (!check_shape(op) || !check_split(op))
        return false;
    if (!inside_kernel(op)) {
        ptoc_op_emit_error(op, "must be inside pto.section.cube/vector or a function with pto.kernel_kind");
        return false;
    }
    const ptoc_value *pipe = ptoc_op_operand(op, op->noperands - 1);
    const ptoc_op *def = ptoc_value_def(pipe);
    if (!pto_check_type(op, "the pipe handle", pipe->type, ptoc_pto_type_is(pipe->type, PTOC_PTO_TYPE_PIPE), "!pto.pipe"))
        return false;
    if (!def ||
        !(ptoc_pto_is(def, PTOC_PTO_OP_INITIALIZE_L2L_PIPE) || ptoc_pto_is(def, PTOC_PTO_OP_INITIALIZE_L2G2L_PIPE))) {
        ptoc_op_emit_error(op, "the pipe handle must come from pto.initialize_l2l_pipe or pto.initialize_l2g2l_pipe");
        return false;
    }
    if (ptoc_pto_is(op, PTOC_PTO_OP_TFREE))
        return true;
    uint32_t space;
    bool push = ptoc_pto_is(op, PTOC_PTO_OP_TPUSH);
    bool ok = tile_space(ptoc_op_operand(op, 0)->type, &space) &&
              (push ? space == PTOC_PTO_AS_ACC || space == PTOC_PTO_AS_VEC
                    : space == PTOC_PTO_AS_VEC || space == PTOC_PTO_AS_MAT);
    return pto_check_type(op, push ? "the pushed tile" : "the popped tile", ptoc_op_operand(op, 0)->type, ok,
                      push ? "a tile in acc or vec" : "a tile in vec or mat");
}

/* ---------------------------------------------------------------- logical pipes */

/* A consumer buffer, the key of a logical pipe. */
typedef struct pipe_end {
    const char *owner;                 /* the function that reserves it */
    const char *name;                  /* the reserve_buffer's name */
    int dir;                           /* 1 C2V, 2 V2C */
} pipe_end;

/* One init op (frontend or internal) and what its pipe's users do. */
typedef struct pipe_init {
    const ptoc_op *op, *func;
    pipe_end ends[2];
    uint32_t nends;
    const ptoc_op *user[2];            /* a push/pop/free with split = 0, one with split = 1 or 2 */
    int nosplit;                       /* the explicit nosplit, -1 when not given */
} pipe_init;

typedef struct pipe_set {
    ptoc_context *ctx;
    pipe_init *inits;
    uint32_t n, cap;
} pipe_set;

static bool same_end(const pipe_end *a, const pipe_end *b)
{
    return a->dir == b->dir && strcmp(a->owner, b->owner) == 0 && strcmp(a->name, b->name) == 0;
}

static bool has_end(const pipe_init *pi, const pipe_end *e)
{
    for (uint32_t i = 0; i < pi->nends; i++)
        if (same_end(&pi->ends[i], e))
            return true;
    return false;
}

static bool shares_end(const pipe_init *a, const pipe_init *b)
{
    for (uint32_t i = 0; i < a->nends; i++)
        if (has_end(b, &a->ends[i]))
            return true;
    return false;
}

/* The buffer `addr` names, if a reserve_buffer or an import defines it. */
static void add_end(pipe_init *pi, const ptoc_value *addr, int dir)
{
    const ptoc_op *def = ptoc_value_def(addr);
    ptoc_attr *peer = def ? ptoc_op_attr(def, "peer_func") : NULL;
    pipe_end e = {NULL, NULL, dir};
    if (def && ptoc_pto_is(def, PTOC_PTO_OP_RESERVE_BUFFER))
        e.owner = func_name(pi->func);
    else if (def && ptoc_pto_is(def, PTOC_PTO_OP_IMPORT_RESERVED_BUFFER) && peer && peer->kind == PTOC_ATTR_SYMREF)
        e.owner = peer->u.symref.root->str;
    else
        return;
    e.name = string_attr(def, "name");
    pi->ends[pi->nends++] = e;
}

static void add_user(pipe_init *pi, const ptoc_op *user)
{
    int slot = int_attr_or(user, "split", 0) == 0 ? 0 : 1;
    if (!pi->user[slot])
        pi->user[slot] = user;
}

static ptoc_walk_result add_frontend_user(ptoc_op *op, void *user)
{
    pipe_init *pi = user;
    const frontend_role *role = frontend_role_of(op);
    if (role && role->dir && (int_attr_or(pi->op, "dir_mask", 0) & role->dir))
        add_user(pi, op);
    return PTOC_WALK_ADVANCE;
}

/* The buffers of an init and the users of its pipe: a frontend init's are the
 * frontend pushes, pops and frees of its function, an internal init's the
 * tpush/tpop/tfree on its handle. */
static void describe_init(pipe_init *pi)
{
    const ptoc_op *op = pi->op;
    ptoc_attr *nosplit = ptoc_op_attr(op, "nosplit");
    int64_t dir = int_attr_or(op, "dir_mask", 0);
    bool frontend = is_frontend_init(op);
    uint32_t local = frontend ? op->noperands - 2 : ptoc_pto_is(op, PTOC_PTO_OP_INITIALIZE_L2G2L_PIPE) ? 1 : 0;
    pi->func = enclosing(op, "func.func");
    pi->nosplit = nosplit && nosplit->kind == PTOC_ATTR_BOOL ? nosplit->u.boolean : -1;
    if (dir == 3) {
        add_end(pi, ptoc_op_operand(op, local), 1);
        if (local + 1 < op->noperands)
            add_end(pi, ptoc_op_operand(op, local + 1), 2);
    } else if (dir == 1 || dir == 2) {
        add_end(pi, ptoc_op_operand(op, local + (frontend && dir == 2)), (int)dir);
    }
    if (frontend && pi->func)
        ptoc_walk_pre((ptoc_op *)pi->func, add_frontend_user, pi);
    for (const ptoc_use *u = frontend || op->nresults == 0 ? NULL : op->results[0].uses; u; u = u->next)
        switch (ptoc_pto_opcode(u->owner)) {
        case PTOC_PTO_OP_TPUSH: case PTOC_PTO_OP_TPOP: case PTOC_PTO_OP_TFREE:
            add_user(pi, u->owner);
            break;
        default:
            break;
        }
}

static bool is_pipe_init(const ptoc_op *op)
{
    return is_frontend_init(op) || ptoc_pto_is(op, PTOC_PTO_OP_INITIALIZE_L2L_PIPE) ||
           ptoc_pto_is(op, PTOC_PTO_OP_INITIALIZE_L2G2L_PIPE);
}

static ptoc_walk_result collect_init(ptoc_op *op, void *user)
{
    pipe_set *s = user;
    if (!is_pipe_init(op))
        return PTOC_WALK_ADVANCE;
    if (s->n == s->cap)
        s->inits = ptoc_varr_grow(s->ctx, NULL, s->inits, s->n, &s->cap, s->n + 1, sizeof *s->inits,
                                  _Alignof(pipe_init));
    s->inits[s->n] = (pipe_init){.op = op};
    describe_init(&s->inits[s->n++]);
    return PTOC_WALK_ADVANCE;
}

static uint32_t index_of(const pipe_set *s, const ptoc_op *op)
{
    uint32_t i = 0;
    while (i < s->n && s->inits[i].op != op)
        i++;
    return i;
}

/* Every op of its pipe agrees on split; the peers agree with each other and
 * with an explicit nosplit. `member[i]` marks the inits of X's pipe. */
static bool check_split_usage(const pipe_set *s, const bool *member)
{
    const pipe_init *explicit = NULL, *inferred = NULL;
    for (uint32_t i = 0; i < s->n; i++) {
        const pipe_init *pi = &s->inits[i];
        if (!member[i])
            continue;
        if (pi->user[0] && pi->user[1]) {
            ptoc_diag *d = ptoc_op_diag_error(pi->op, "its pipe is used with split = 0 and with split = %lld: a pipe "
                                                      "either splits its tiles or does not",
                                              (long long)int_attr_or(pi->user[1], "split", 1));
            ptoc_diag_op_note(d, pi->user[0], "split = 0 here");
            ptoc_diag_op_note(d, pi->user[1], "the split one here");
            ptoc_diag_report(d);
            return false;
        }
        if (pi->nosplit >= 0 && explicit && explicit->nosplit != pi->nosplit) {
            ptoc_diag *d = ptoc_op_diag_error(pi->op, "nosplit = %s conflicts with its peer's nosplit = %s",
                                              pi->nosplit ? "true" : "false", explicit->nosplit ? "true" : "false");
            ptoc_diag_op_note(d, explicit->op, "the peer's pipe initialization here");
            ptoc_diag_report(d);
            return false;
        }
        if (pi->nosplit >= 0 && !explicit)
            explicit = pi;
        bool uses = pi->user[0] || pi->user[1];
        if (uses && inferred && !inferred->user[0] != !pi->user[0]) {
            const ptoc_op *mine = pi->user[0] ? pi->user[0] : pi->user[1];
            const ptoc_op *theirs = inferred->user[0] ? inferred->user[0] : inferred->user[1];
            ptoc_diag *d = ptoc_op_diag_error(pi->op, "the peers of its pipe disagree on split: split = %lld here, "
                                                      "split = %lld at the peer",
                                              (long long)int_attr_or(mine, "split", 0),
                                              (long long)int_attr_or(theirs, "split", 0));
            ptoc_diag_op_note(d, mine, "this side's use");
            ptoc_diag_op_note(d, theirs, "the peer's use");
            ptoc_diag_report(d);
            return false;
        }
        if (uses && !inferred)
            inferred = pi;
    }
    if (!explicit || !inferred || !explicit->nosplit == !inferred->user[0])
        return true;
    for (uint32_t i = 0; i < s->n; i++) {
        const pipe_init *pi = &s->inits[i];
        if (!member[i] || pi->nosplit < 0 || !pi->nosplit == !inferred->user[0])
            continue;
        const ptoc_op *use = inferred->user[0] ? inferred->user[0] : inferred->user[1];
        ptoc_diag *d = ptoc_op_diag_error(pi->op, "explicit 'nosplit = %s' conflicts with its pipe's users, which use "
                                                  "split = %lld", pi->nosplit ? "true" : "false",
                                          (long long)int_attr_or(use, "split", 0));
        ptoc_diag_op_note(d, use, "a user here");
        ptoc_diag_report(d);
        return false;
    }
    return true;
}

/* Each buffer an init names has its pair: one init in the owner, one in the peer. */
static bool check_pairs(const pipe_set *s, uint32_t x)
{
    const pipe_init *pi = &s->inits[x];
    for (uint32_t e = 0; e < pi->nends; e++) {
        const pipe_end *end = &pi->ends[e];
        uint32_t n = 0, first = x;
        const ptoc_op *funcs[2] = {NULL, NULL};
        bool owner_in = false;
        for (uint32_t i = 0; i < s->n; i++) {
            if (!has_end(&s->inits[i], end))
                continue;
            if (n == 0)
                first = i;
            if (n < 2)
                funcs[n] = s->inits[i].func;
            n++;
            owner_in = owner_in || strcmp(func_name(s->inits[i].func), end->owner) == 0;
        }
        bool complete = n == 2 && funcs[0] != funcs[1] && owner_in;
        if (first != x || complete)
            continue;
        ptoc_op_emit_error(pi->op, "the %s pipe through reserved buffer \"%s\" of @%s has %u initialization%s: it "
                                   "needs one in @%s and one in its peer function",
                           end->dir == 1 ? "C2V" : "V2C", end->name, end->owner, n, n == 1 ? "" : "s", end->owner);
        return false;
    }
    return true;
}

bool pto_verify_pipe_peers(const ptoc_op *op)
{
    const ptoc_op *module = enclosing(op, "builtin.module");
    pipe_set s = {ptoc_op_context(op), NULL, 0, 0};
    if (!module)
        return true;
    ptoc_walk_pre((ptoc_op *)module, collect_init, &s);
    uint32_t x = index_of(&s, op);
    bool *member = ptoc_alloc(s.ctx, s.n + 1);
    memset(member, 0, s.n + 1);
    /* X's pipe: the inits joined to it through shared buffers; the first checks it. */
    member[x] = true;
    for (bool grew = true; grew;) {
        grew = false;
        for (uint32_t i = 0; i < s.n; i++)
            for (uint32_t j = 0; j < s.n && !member[i]; j++)
                if (member[j] && shares_end(&s.inits[i], &s.inits[j]))
                    member[i] = grew = true;
    }
    uint32_t first = 0;
    while (!member[first])
        first++;
    bool ok = first != x || check_split_usage(&s, member);
    if (ok && s.inits[x].nends == 0 && !ptoc_op_attr(op, "flag_base")) {
        ptoc_op_emit_error(op, "its local buffer must come from pto.reserve_buffer or pto.import_reserved_buffer, "
                               "or the op needs an explicit flag_base");
        ok = false;
    }
    ok = ok && check_pairs(&s, x);
    ptoc_free(s.ctx, member, s.n + 1);
    ptoc_free(s.ctx, s.inits, sizeof *s.inits * s.cap);
    return ok;
}

/* ---------------------------------------------------------------- async DMA */

/* The static shape and element type of a memref, tensor view or partition view. */
static bool view_shape(const ptoc_type *t, const int64_t **shape, uint32_t *rank, ptoc_type **elem)
{
    const ptoc_pto_view *v = ptoc_pto_partition_view(t);
    if (!v)
        v = ptoc_pto_tensor_view(t);
    if (v) {
        *shape = v->shape, *rank = v->rank, *elem = v->elem;
        return true;
    }
    if (t->kind != PTOC_TYPE_MEMREF)
        return false;
    *shape = t->u.shaped.shape, *rank = t->u.shaped.rank, *elem = t->u.shaped.elem;
    return true;
}

/* A transfer's end: a GM memref or view, static, 1-D in effect (every dim but
 * the last is 1). A memref with a layout is taken as laid out densely. */
static bool check_flat_gm(const ptoc_op *op, const char *name, const ptoc_type *t)
{
    const int64_t *shape;
    uint32_t rank;
    ptoc_type *elem;
    ptoc_pto_address_space as;
    const char *why = NULL;
    if (!view_shape(t, &shape, &rank, &elem))
        why = "a memref, tensor_view or partition_tensor_view";
    else if (t->kind == PTOC_TYPE_MEMREF && (!ptoc_pto_memref_space(t, &as) || as != PTOC_PTO_AS_GM))
        why = "in GM";
    else if (rank == 0)
        why = "of rank 1 or more";
    for (uint32_t i = 0; !why && i < rank; i++)
        if (shape[i] == PTOC_DYNAMIC)
            why = "of a static shape";
        else if (i + 1 < rank && shape[i] != 1)
            why = "flat: a static, contiguous, in effect 1-D GM buffer (every dim but the last 1)";
    return pto_check_type(op, name, t, why == NULL, why ? why : "");
}

bool pto_verify_async_transfer(const ptoc_op *op)
{
    if (!pto_verify_structure(op))
        return false;
    const ptoc_type *dst = ptoc_op_operand(op, 0)->type, *src = ptoc_op_operand(op, 1)->type;
    if (!check_flat_gm(op, "dst", dst) || !check_flat_gm(op, "src", src))
        return false;
    const int64_t *ds = NULL, *ss = NULL;
    uint32_t dr = 0, sr = 0;
    ptoc_type *de = NULL, *se = NULL;
    if (!view_shape(dst, &ds, &dr, &de) || !view_shape(src, &ss, &sr, &se) || de != se || dr != sr ||
        memcmp(ds, ss, sizeof *ds * dr) != 0) {
        ptoc_op_emit_error(op, "src and dst must have the same shape and element type");
        return false;
    }
    const ptoc_type *session = ptoc_op_operand(op, 2)->type, *r = op->results[0].type;
    return pto_check_type(op, "the session", session, ptoc_pto_type_is(session, PTOC_PTO_TYPE_ASYNC_SESSION),
                      "!pto.async_session") &&
           pto_check_type(op, "the result", r, ptoc_pto_type_is(r, PTOC_PTO_TYPE_ASYNC_EVENT), "!pto.async_event");
}

bool pto_verify_async_event(const ptoc_op *op)
{
    if (!pto_verify_structure(op))
        return false;
    const ptoc_type *e = ptoc_op_operand(op, 0)->type, *s = ptoc_op_operand(op, 1)->type, *r = op->results[0].type;
    return pto_check_type(op, "the event", e, ptoc_pto_type_is(e, PTOC_PTO_TYPE_ASYNC_EVENT), "!pto.async_event") &&
           pto_check_type(op, "the session", s, ptoc_pto_type_is(s, PTOC_PTO_TYPE_ASYNC_SESSION), "!pto.async_session") &&
           pto_check_type(op, "the result", r, ptoc_type_is_int(r) && ptoc_type_bitwidth(r) == 1, "i1");
}

/* An optional integer attribute within [lo, hi]. */
static bool check_range(const ptoc_op *op, const char *name, int64_t lo, int64_t hi)
{
    int64_t v;
    ptoc_attr *a = ptoc_op_attr(op, name);
    if (!a)
        return true;
    if (int_attr(op, name, &v) && v >= lo && v <= hi)
        return true;
    ptoc_op_emit_error(op, "%s must be an integer in [%lld, %lld]", name, (long long)lo, (long long)hi);
    return false;
}

bool pto_verify_build_async_session(const ptoc_op *op)
{
    if (!pto_verify_structure(op))
        return false;
    const ptoc_type *scratch = ptoc_op_operand(op, 0)->type, *ws = ptoc_op_operand(op, 1)->type;
    const ptoc_pto_tile_desc *d = ptoc_pto_tile_buf(scratch);
    ptoc_pto_address_space as = PTOC_PTO_AS_ZERO;
    uint64_t bytes = 0;
    if (d) {
        as = (ptoc_pto_address_space)d->loc;
        bytes = (uint64_t)d->rows * (uint64_t)d->cols * pto_elem_bytes(d->elem);
    } else if (scratch->kind == PTOC_TYPE_MEMREF && ptoc_pto_memref_space(scratch, &as)) {
        bytes = pto_elem_bytes(scratch->u.shaped.elem);
        for (uint32_t i = 0; i < scratch->u.shaped.rank; i++)
            bytes = scratch->u.shaped.shape[i] == PTOC_DYNAMIC ? 0 : bytes * (uint64_t)scratch->u.shaped.shape[i];
        if (scratch->u.shaped.rank == 0 || scratch->u.shaped.rank > 2)
            bytes = 0;
    }
    if (!pto_check_type(op, "scratch", scratch, as == PTOC_PTO_AS_VEC && bytes >= 8,
                    "a static rank-1 or rank-2 tile_buf or memref in vec of at least 8 bytes"))
        return false;
    ptoc_type *elem = ptoc_pto_ptr_elem(ws);
    if (!elem && ws->kind == PTOC_TYPE_MEMREF && ptoc_pto_memref_space(ws, &as) && as == PTOC_PTO_AS_GM)
        elem = ws->u.shaped.elem;
    if (!pto_check_type(op, "workspace", ws, elem && ptoc_type_is_int(elem) && ptoc_type_bitwidth(elem) == 8,
                    "a !pto.ptr or GM memref of 8-bit integers"))
        return false;
    return check_range(op, "sync_id", 0, 7) && check_range(op, "block_bytes", 1, INT64_MAX) &&
           check_range(op, "comm_block_offset", 0, INT64_MAX) && check_range(op, "queue_num", 1, INT32_MAX) &&
           check_range(op, "channel_group_idx", 0, UINT32_MAX) &&
           pto_check_type(op, "the result", op->results[0].type,
                      ptoc_pto_type_is(op->results[0].type, PTOC_PTO_TYPE_ASYNC_SESSION), "!pto.async_session");
}
