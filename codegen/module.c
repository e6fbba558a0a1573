/* module.c: lowering a verified builtin.module to one LLVM module.
 *
 * ptoc_llvm_lower sets up the LLVM context (owned by an ORC thread-safe
 * context, so the JIT can take the module as is) and the target machine, both
 * as the options' target entry says (targets.c), gathers the rule tables of
 * that entry into one lookup (an array indexed by opcode for pto ops, a hash
 * keyed by name for the others),
 * declares every func.func first (so calls and recursion need no order), then
 * lowers each body op by op through its rule, and finally verifies the LLVM
 * module: a module that does not verify is a codegen bug, reported as an
 * internal error. Also here: the value map (ptoc value -> LLVM value), the
 * call ABI of codegen.h, the C prototypes of exported functions, and the
 * parameter description launchers read.
 *
 * A function body is two blocks and more: `entry` holds only allocas and the
 * ptoc_rt_space_base calls (helpers add them there while the body is lowered)
 * and ends with `br body` once the body is done; the body starts in `body`.
 */
#include "codegen/codegen_internal.h"
#include "ptoc/util.h"

#include <stdlib.h>
#include <string.h>

#include <llvm-c/Analysis.h>

/* ---------------------------------------------------------------- the value map */

/* A tile that pto.set_validshape writes is a mutable value: its valid shape
 * changes at run time, possibly in one branch of an scf.if. Such a value lives
 * in an alloca of its function (`slots`: value -> alloca, NULL until its
 * defining op is lowered): its definition stores there, set_validshape stores
 * its new aggregate there (cg_assign), and every use in that function loads it
 * (mem2reg makes it SSA again). A use inside a helper function of
 * shared_ops.c, which rebinds the value to a parameter, reads the map. */
struct cg_valmap {
    ptoc_ptrmap map;
    ptoc_ptrmap slots;
};

static ptoc_walk_result mark_mutable(ptoc_op *op, void *user)
{
    if (ptoc_pto_is(op, PTOC_PTO_OP_SET_VALIDSHAPE) && op->noperands > 0)
        ptoc_ptrmap_put(user, ptoc_op_operand(op, 0), NULL);
    return PTOC_WALK_ADVANCE;
}

/* The alloca of a mutable value, when the builder is in its function. */
static LLVMValueRef slot_here(cg *g, const ptoc_value *v)
{
    const ptoc_ptrmap_entry *e = ptoc_ptrmap_find(&g->values->slots, v);
    if (!e || !e->val.ptr)
        return NULL;
    LLVMValueRef slot = e->val.ptr;
    LLVMValueRef here = LLVMGetBasicBlockParent(LLVMGetInsertBlock(g->b));
    return LLVMGetBasicBlockParent(LLVMGetInstructionParent(slot)) == here ? slot : NULL;
}

/* After `op` is lowered: each mutable result gets its alloca, holding it. */
static void define_mutable(cg *g, const ptoc_op *op)
{
    for (uint32_t i = 0; i < op->nresults; i++) {
        ptoc_ptrmap_entry *e = ptoc_ptrmap_find(&g->values->slots, &op->results[i]);
        const ptoc_ptrmap_entry *m = ptoc_ptrmap_find(&g->values->map, &op->results[i]);
        if (!e || !m)
            continue;
        LLVMValueRef v = m->val.ptr;
        e->val.ptr = cg_alloca(g, LLVMTypeOf(v), "mutable");
        LLVMBuildStore(g->b, v, e->val.ptr);
    }
}

bool cg_assign(cg *g, const ptoc_value *v, LLVMValueRef llv, ptoc_loc loc)
{
    LLVMValueRef slot = slot_here(g, v);
    if (!slot) {
        ptoc_emit_error(g->ctx, loc, "the cpu target can only change a tile that an op of this function defines "
                        "(not a block argument)");
        return false;
    }
    LLVMBuildStore(g->b, llv, slot);
    cg_set(g, v, llv);
    return true;
}

LLVMValueRef cg_get(cg *g, const ptoc_value *v)
{
    LLVMValueRef slot = slot_here(g, v);
    if (slot)
        return LLVMBuildLoad2(g->b, LLVMGetAllocatedType(slot), slot, "");
    const ptoc_ptrmap_entry *e = ptoc_ptrmap_find(&g->values->map, v);
    if (e)
        return e->val.ptr;
    ptoc_loc loc = v->kind == PTOC_VALUE_RESULT ? v->owner.op->loc : v->loc;
    ptoc_emit_error(g->ctx, loc, "internal error: codegen used a value before lowering it");
    return NULL;
}

void cg_set(cg *g, const ptoc_value *v, LLVMValueRef llv)
{
    ptoc_ptrmap_put(&g->values->map, v, llv);
}

/* ---------------------------------------------------------------- the rule lookup */

/* A target's rules: pto ops by opcode, other ops in a hash keyed by name. */
typedef struct rule_map {
    const cg_rule *by_opcode[PTOC_PTO_OP_COUNT];
    const cg_rule *by_vop[PTOC_PTO_VOP_COUNT];
    const cg_rule **by_name;                    /* open addressing, cap a power of 2 */
    size_t cap;
} rule_map;

static size_t str_hash(const char *s)
{
    uint64_t h = UINT64_C(14695981039346656037);
    for (; *s; s++)
        h = (h ^ (unsigned char)*s) * UINT64_C(1099511628211);
    return (size_t)h;
}

static const cg_rule *rule_find_name(const rule_map *rm, const char *name)
{
    for (size_t i = str_hash(name) & (rm->cap - 1); rm->by_name[i]; i = (i + 1) & (rm->cap - 1))
        if (strcmp(rm->by_name[i]->name, name) == 0)
            return rm->by_name[i];
    return NULL;
}

/* A row whose op already has a rule is skipped: the first table to claim an
 * op wins. */
static void rule_add(rule_map *rm, const cg_rule *r)
{
    if (r->opcode != PTOC_PTO_OP_NONE) {
        if (r->opcode >= 0 && r->opcode < PTOC_PTO_OP_COUNT && !rm->by_opcode[r->opcode])
            rm->by_opcode[r->opcode] = r;
        return;
    }
    if (!r->name) {
        if (r->vop >= 0 && r->vop < PTOC_PTO_VOP_COUNT && !rm->by_vop[r->vop])
            rm->by_vop[r->vop] = r;
        return;
    }
    if (rule_find_name(rm, r->name))
        return;
    size_t i = str_hash(r->name) & (rm->cap - 1);
    while (rm->by_name[i])
        i = (i + 1) & (rm->cap - 1);
    rm->by_name[i] = r;
}

static void rule_map_init(rule_map *rm, const ptoc_target_backend *be)
{
    memset(rm, 0, sizeof *rm);
    size_t total = 0;
    for (size_t t = 0; t < be->ntables; t++)
        total += *be->tables[t].count;
    rm->cap = 16;
    while (rm->cap < 2 * total + 2)
        rm->cap *= 2;
    rm->by_name = calloc(rm->cap, sizeof *rm->by_name);
    if (!rm->by_name)
        ptoc_fatal("out of memory");
    for (size_t t = 0; t < be->ntables; t++)
        for (size_t k = 0; k < *be->tables[t].count; k++)
            rule_add(rm, &be->tables[t].rules[k]);
}

/* The rule that lowers `op`, or NULL. */
static const cg_rule *rule_for(const rule_map *rm, const ptoc_op *op)
{
    ptoc_pto_op_id opcode = ptoc_pto_opcode(op);
    ptoc_pto_vop_id vop = ptoc_pto_vop(op);
    if (vop != PTOC_PTO_VOP_NONE)
        return rm->by_vop[vop];
    return opcode != PTOC_PTO_OP_NONE ? rm->by_opcode[opcode] : rule_find_name(rm, op->name->str);
}

/* Whether a row of the backend's tables lowers the pto op `opcode` (when not
 * PTOC_PTO_OP_NONE) or the other op `name`. */
static bool backend_claims(const ptoc_target_backend *be, ptoc_pto_op_id opcode, const char *name)
{
    for (size_t t = 0; t < be->ntables; t++)
        for (size_t k = 0; k < *be->tables[t].count; k++) {
            const cg_rule *r = &be->tables[t].rules[k];
            if (opcode != PTOC_PTO_OP_NONE ? r->opcode == opcode
                                           : r->opcode == PTOC_PTO_OP_NONE && r->name && strcmp(r->name, name) == 0)
                return true;
        }
    return false;
}

bool ptoc_llvm_supports_pto_op(const ptoc_target *t, ptoc_pto_op_id opcode)
{
    return opcode >= 0 && opcode < PTOC_PTO_OP_COUNT && ptoc_target_generates_code(t) &&
           (backend_claims(t->backend, opcode, NULL) || (t->lowers && t->lowers(opcode)));
}

bool ptoc_llvm_rule_lowers_pto_op(const ptoc_target *t, ptoc_pto_op_id opcode)
{
    return opcode >= 0 && opcode < PTOC_PTO_OP_COUNT && ptoc_target_generates_code(t) &&
           backend_claims(t->backend, opcode, NULL);
}

bool ptoc_llvm_supports_vop(const ptoc_target *t, ptoc_pto_vop_id vop)
{
    if (vop < 0 || vop >= PTOC_PTO_VOP_COUNT || !ptoc_target_generates_code(t))
        return false;
    for (size_t k = 0; k < t->backend->ntables; k++)
        for (size_t i = 0; i < *t->backend->tables[k].count; i++) {
            const cg_rule *r = &t->backend->tables[k].rules[i];
            if (r->opcode == PTOC_PTO_OP_NONE && !r->name && r->vop == vop)
                return true;
        }
    return false;
}

/* The opcode of the pto op called `name`, or PTOC_PTO_OP_NONE. */
static ptoc_pto_op_id pto_opcode_named(const char *name)
{
    for (size_t i = 0; i < ptoc_pto_op_count(); i++)
        if (strcmp(ptoc_pto_op_info_at(i)->name, name) == 0)
            return ptoc_pto_op_info_at(i)->opcode;
    return PTOC_PTO_OP_NONE;
}

bool ptoc_llvm_supports_op(const ptoc_target *t, const char *name)
{
    if (!ptoc_target_generates_code(t))
        return false;
    ptoc_pto_op_id opcode = pto_opcode_named(name);
    return opcode != PTOC_PTO_OP_NONE ? ptoc_llvm_supports_pto_op(t, opcode)
                                      : backend_claims(t->backend, PTOC_PTO_OP_NONE, name);
}

/* The lowering state of a whole module: `cg` plus what only this file sees. */
typedef struct cg_module {
    cg g;
    cg_valmap values;
    rule_map rules;
} cg_module;

/* Every `cg` is the first member of a cg_module (ptoc_llvm_lower makes it).
 * An op is lowered by its rule, in place or into the function its repeated
 * signature shares (shared_ops.c); with the option pipe_events, its pipe
 * events follow at the op's own place. */
bool cg_lower_op(cg *g, ptoc_op *op)
{
    const cg_rule *rule = rule_for(&((cg_module *)g)->rules, op);
    if (!rule) {
        ptoc_op_emit_error(op, "is not supported by the %s target yet", g->target->name);
        return false;
    }
    bool ok = ptoc_pto_vop(op) != PTOC_PTO_VOP_NONE ? cg_intrinsic_lower(g, op, rule) : cg_shared_lower(g, op, rule);
    if (ok && g->values->slots.count)
        define_mutable(g, op);
    return ok && (!g->opts->pipe_events || cg_pipe_events(g, op));
}

bool cg_lower_block(cg *g, ptoc_block *b)
{
    for (ptoc_op *op = b->first; op; op = op->next) {
        if (op->def && (op->def->flags & PTOC_OPF_TERMINATOR) && op == b->last)
            break;
        if (!cg_lower_op(g, op))
            return false;
    }
    return true;
}

/* ---------------------------------------------------------------- types and the call ABI */

LLVMTypeRef cg_type(cg *g, const ptoc_type *t, ptoc_loc loc)
{
    return g->target->backend->type(g, t, loc);
}

static bool is_half_like(const ptoc_type *t)
{
    return t->kind == PTOC_TYPE_FLOAT && (t->u.fp.kind == PTOC_F16 || t->u.fp.kind == PTOC_BF16);
}

LLVMTypeRef cg_abi_type(cg *g, const ptoc_type *t, ptoc_loc loc)
{
    return is_half_like(t) ? g->i16 : cg_type(g, t, loc);
}

LLVMValueRef cg_to_abi(cg *g, LLVMValueRef v, const ptoc_type *t)
{
    return is_half_like(t) ? LLVMBuildBitCast(g->b, v, g->i16, "") : v;
}

LLVMValueRef cg_from_abi(cg *g, LLVMValueRef v, const ptoc_type *t)
{
    return is_half_like(t) ? LLVMBuildBitCast(g->b, v, cg_type(g, t, ptoc_loc_unknown()), "") : v;
}

LLVMTypeRef cg_func_type(cg *g, const ptoc_type *fn, ptoc_loc loc)
{
    uint32_t np = fn->u.func.ninputs, nr = fn->u.func.nresults;
    LLVMTypeRef *params = calloc(np + nr + 1, sizeof *params), *results = params + np;
    bool ok = params != NULL;
    for (uint32_t i = 0; ok && i < np; i++)
        ok = (params[i] = cg_abi_type(g, fn->u.func.inputs[i], loc)) != NULL;
    for (uint32_t i = 0; ok && i < nr; i++)
        ok = (results[i] = cg_abi_type(g, fn->u.func.results[i], loc)) != NULL;
    LLVMTypeRef ret = nr == 0 ? g->void_ty : nr == 1 ? results[0] : NULL;
    if (ok && nr > 1)
        ret = LLVMStructTypeInContext(g->llctx, results, nr, false);
    LLVMTypeRef fty = ok ? LLVMFunctionType(ret, params, np, false) : NULL;
    free(params);
    return fty;
}

/* ---------------------------------------------------------------- functions */

static const char *func_name(const ptoc_op *fn)
{
    ptoc_attr *a = ptoc_op_attr(fn, "sym_name");
    return a && a->kind == PTOC_ATTR_STRING ? a->u.string->str : NULL;
}

static const ptoc_type *func_type(const ptoc_op *fn)
{
    ptoc_attr *a = ptoc_op_attr(fn, "function_type");
    return a && a->kind == PTOC_ATTR_TYPE && a->u.type->kind == PTOC_TYPE_FUNCTION ? a->u.type : NULL;
}

static bool func_has_body(const ptoc_op *fn)
{
    return fn->nregions > 0 && fn->regions[0].first != NULL;
}

static bool func_is_private(const ptoc_op *fn)
{
    ptoc_attr *a = ptoc_op_attr(fn, "sym_visibility");
    return a && a->kind == PTOC_ATTR_STRING && strcmp(a->u.string->str, "public") != 0;
}

static bool declare_function(cg *g, ptoc_op *fn)
{
    const char *name = func_name(fn);
    const ptoc_type *ft = func_type(fn);
    if (!name || !ft) {
        ptoc_op_emit_error(fn, "internal error: func.func without sym_name or function_type");
        return false;
    }
    LLVMTypeRef llty = cg_func_type(g, ft, fn->loc);
    if (!llty)
        return false;
    if (LLVMGetNamedFunction(g->mod, name)) {
        ptoc_op_emit_error(fn, "symbol '%s' is already defined in the LLVM module", name);
        return false;
    }
    LLVMValueRef f = LLVMAddFunction(g->mod, name, llty);
    if (func_has_body(fn) && func_is_private(fn))
        LLVMSetLinkage(f, LLVMInternalLinkage);
    unsigned kind = LLVMGetEnumAttributeKindForName("nounwind", 8);
    LLVMAddAttributeAtIndex(f, LLVMAttributeFunctionIndex, LLVMCreateEnumAttribute(g->llctx, kind, 0));
    return true;
}

static bool lower_function(cg *g, ptoc_op *fnop)
{
    if (!func_has_body(fnop))
        return true;
    const ptoc_type *ft = func_type(fnop);
    ptoc_block *body = fnop->regions[0].first;
    cg_func f;
    memset(&f, 0, sizeof f);
    f.op = fnop;
    f.fn = LLVMGetNamedFunction(g->mod, func_name(fnop));
    if (g->xcore && !func_is_private(fnop) && !(f.fn = cg_xcore_entry(g, fnop, f.fn)))
        return false;
    g->fn = &f;
    f.entry = cg_block(g, "entry");
    LLVMBasicBlockRef first = cg_block(g, "body");
    LLVMPositionBuilderAtEnd(g->b, first);
    for (uint32_t i = 0; i < body->nargs && i < ft->u.func.ninputs; i++)
        cg_set(g, body->args[i], cg_from_abi(g, LLVMGetParam(f.fn, i), body->args[i]->type));
    if (g->xcore)
        cg_xcore_kind_guard(g, fnop);
    ptoc_op *term = ptoc_block_terminator(body);
    bool ok = cg_lower_block(g, body);
    if (ok && !term) {
        ptoc_op_emit_error(fnop, "internal error: function body without a terminator");
        ok = false;
    }
    ok = ok && cg_lower_op(g, term);
    LLVMPositionBuilderAtEnd(g->b, f.entry);
    LLVMBuildBr(g->b, first);
    g->fn = NULL;
    return ok;
}

/* ---------------------------------------------------------------- C prototypes */

/* The C spelling of a scalar type, NULL if C callers cannot pass it. */
static const char *c_scalar(const ptoc_type *t)
{
    static const char *const sints[] = {"int8_t", "int16_t", "int32_t", "int64_t"};
    static const char *const uints[] = {"uint8_t", "uint16_t", "uint32_t", "uint64_t"};
    if (t->kind == PTOC_TYPE_INDEX)
        return "int64_t";
    if (t->kind == PTOC_TYPE_INTEGER) {
        uint32_t w = t->u.integer.width;
        if (w == 1)
            return "bool";
        int k = w == 8 ? 0 : w == 16 ? 1 : w == 32 ? 2 : w == 64 ? 3 : -1;
        return k < 0 ? NULL : t->u.integer.sign == PTOC_UNSIGNED ? uints[k] : sints[k];
    }
    if (t->kind == PTOC_TYPE_FLOAT) {
        switch (t->u.fp.kind) {
        case PTOC_F16: case PTOC_BF16: return "uint16_t";
        case PTOC_F32: return "float";
        case PTOC_F64: return "double";
        default: return NULL;
        }
    }
    return NULL;
}

/* The pointee of a pointer-passed parameter (!pto.ptr<T>, GM memref), or NULL. */
static const ptoc_type *pointee(const ptoc_type *t)
{
    ptoc_pto_address_space space;
    if (ptoc_pto_ptr_elem(t))
        return ptoc_pto_ptr_elem(t);
    if (ptoc_pto_memref_space(t, &space) && space == PTOC_PTO_AS_GM)
        return t->u.shaped.elem;
    return NULL;
}

/* Appends the C spelling of a parameter type; false if C cannot spell it. */
static bool c_param(ptoc_strbuf *sb, const ptoc_type *t)
{
    const ptoc_type *elem = pointee(t);
    const char *s = c_scalar(elem ? elem : t);
    if (!s)
        return false;
    ptoc_strbuf_printf(sb, "%s%s", s, elem ? " *" : "");
    return true;
}

static void c_prototype(ptoc_strbuf *out, const ptoc_op *fn)
{
    const ptoc_type *ft = func_type(fn);
    const char *name = func_name(fn);
    ptoc_strbuf sb;
    ptoc_strbuf_init(&sb, NULL);
    uint32_t nr = ft->u.func.nresults;
    const char *ret = nr == 0 ? "void" : nr == 1 ? c_scalar(ft->u.func.results[0]) : NULL;
    bool ok = ret != NULL;
    ptoc_strbuf_printf(&sb, "%s %s(", ret ? ret : "", name);
    for (uint32_t i = 0; ok && i < ft->u.func.ninputs; i++) {
        if (i)
            ptoc_strbuf_puts(&sb, ", ");
        ok = c_param(&sb, ft->u.func.inputs[i]);
    }
    if (ok && ft->u.func.ninputs == 0)
        ptoc_strbuf_puts(&sb, "void");
    if (ok)
        ptoc_strbuf_printf(out, "%s);\n", ptoc_strbuf_cstr(&sb));
    else
        ptoc_strbuf_printf(out, "/* %s: not callable from C (tile, view or multi-result signature) */\n", name);
    ptoc_strbuf_free(&sb);
}

static char *c_declarations(ptoc_op *module)
{
    ptoc_strbuf out;
    ptoc_strbuf_init(&out, NULL);
    for (ptoc_op *op = module->regions[0].first ? module->regions[0].first->first : NULL; op; op = op->next)
        if (ptoc_op_is(op, "func.func") && func_has_body(op) && !func_is_private(op))
            c_prototype(&out, op);
    const char *text = out.len ? ptoc_strbuf_cstr(&out) : "";
    char *s = malloc(out.len + 1);
    if (!s)
        ptoc_fatal("out of memory");
    memcpy(s, text, out.len + 1);
    ptoc_strbuf_free(&out);
    return s;
}

/* ---------------------------------------------------------------- the module */

ptoc_codegen_options ptoc_codegen_defaults(void)
{
    ptoc_codegen_options o;
    memset(&o, 0, sizeof o);
    o.target = ptoc_target_default();
    o.opt_level = 2;
    return o;
}

static ptoc_llvm_module *module_create(ptoc_op *module, const ptoc_codegen_options *opts)
{
    ptoc_llvm_module *m = calloc(1, sizeof *m);
    if (!m)
        ptoc_fatal("out of memory");
    m->opts = *opts;
    m->tsc = LLVMOrcCreateNewThreadSafeContext();
    m->llctx = LLVMOrcThreadSafeContextGetContext(m->tsc);
    const char *name = module->loc.file ? module->loc.file->str : "ptoc";
    m->mod = LLVMModuleCreateWithNameInContext(name, m->llctx);
    return m;
}

/* Declares every function, then lowers every body. */
static bool lower_functions(cg *g, ptoc_op *module)
{
    ptoc_block *top = module->regions[0].first;
    bool ok = true;
    for (ptoc_op *op = top ? top->first : NULL; op; op = op->next)
        if (ptoc_op_is(op, "func.func"))
            ok = declare_function(g, op) && ok;
    if (!ok)
        return false;
    for (ptoc_op *op = top ? top->first : NULL; op; op = op->next) {
        if (ptoc_op_is(op, "func.func"))
            ok = lower_function(g, op) && ok;
        else if (!(op->def && (op->def->flags & PTOC_OPF_TERMINATOR)))
            ok = cg_lower_op(g, op) && ok;  /* a module-level op no rule claims: reported */
    }
    return ok;
}

static bool verify_one(cg *g, ptoc_op *module, LLVMModuleRef m)
{
    char *msg = NULL;
    bool broken = LLVMVerifyModule(m, LLVMReturnStatusAction, &msg);
    if (broken)
        ptoc_emit_error(g->ctx, module->loc, "internal error: the LLVM module does not verify: %s",
                        msg ? msg : "");
    LLVMDisposeMessage(msg);
    return !broken;
}

/* The kernel's module, and the target's intrinsics when it has them. */
static bool verify_llvm(cg *g, ptoc_op *module)
{
    return verify_one(g, module, g->mod) && (!g->intrinsics || verify_one(g, module, g->intrinsics));
}

static bool check_options(ptoc_op *module, const ptoc_codegen_options *opts)
{
    if (!ptoc_target_generates_code(opts->target)) {
        ptoc_emit_error(ptoc_op_context(module), module->loc, "code generation for target '%s' is not implemented",
                        opts->target ? opts->target->name : "(none)");
        return false;
    }
    if (!ptoc_op_is(module, "builtin.module") || module->nregions != 1) {
        ptoc_op_emit_error(module, "codegen expects a builtin.module");
        return false;
    }
    return true;
}

ptoc_llvm_module *ptoc_llvm_lower(ptoc_op *module, const ptoc_codegen_options *opts)
{
    if (!check_options(module, opts))
        return NULL;
    ptoc_llvm_module *m = module_create(module, opts);
    char *err = NULL;
    const ptoc_target_backend *be = opts->target->backend;
    if (!be->machine(m, &err)) {
        ptoc_emit_error(ptoc_op_context(module), module->loc, "cannot set up the LLVM target: %s",
                        err ? err : "unknown error");
        free(err);
        ptoc_llvm_module_destroy(m);
        return NULL;
    }
    cg_module cm;
    memset(&cm, 0, sizeof cm);
    cg *g = &cm.g;
    g->ctx = ptoc_op_context(module);
    g->opts = &m->opts;
    g->target = opts->target;
    g->arch = ptoc_pto_target_arch(module, NULL);
    if (g->arch == PTOC_PTO_ARCH_INVALID)
        g->arch = PTOC_PTO_ARCH_CPU;
    g->llctx = m->llctx;
    g->mod = m->mod;
    if (be->intrinsic_prefix) {
        m->intrinsics = LLVMModuleCreateWithNameInContext("intrinsics", m->llctx);
        LLVMSetTarget(m->intrinsics, LLVMGetTarget(m->mod));
        LLVMSetDataLayout(m->intrinsics, LLVMGetDataLayoutStr(m->mod));
        g->intrinsics = m->intrinsics;
    }
    g->b = LLVMCreateBuilderInContext(g->llctx);
    be->init_types(g);
    ptoc_ptrmap_init(&cm.values.map, g->ctx);
    ptoc_ptrmap_init(&cm.values.slots, g->ctx);
    ptoc_walk_pre(module, mark_mutable, &cm.values.slots);
    g->values = &cm.values;
    rule_map_init(&cm.rules, be);
    for (size_t i = 0; i < be->ntables; i++)
        g->xcore = g->xcore || be->tables[i].rules == cg_pto_xcore_rules;
    g->xcore = g->xcore && cg_xcore_module(module);
    g->shared = cg_shared_count(module);
    bool ok = lower_functions(g, module) && verify_llvm(g, module);
    cg_shared_free(g->shared);
    LLVMDisposeBuilder(g->b);
    ptoc_ptrmap_free(&cm.values.map);
    ptoc_ptrmap_free(&cm.values.slots);
    free(cm.rules.by_name);
    if (!ok) {
        ptoc_llvm_module_destroy(m);
        return NULL;
    }
    m->c_decls = c_declarations(module);
    return m;
}

void ptoc_llvm_module_destroy(ptoc_llvm_module *m)
{
    if (!m)
        return;
    if (m->mod)
        LLVMDisposeModule(m->mod);
    if (m->intrinsics)
        LLVMDisposeModule(m->intrinsics);
    if (m->tm)
        LLVMDisposeTargetMachine(m->tm);
    if (m->tsc)
        LLVMOrcDisposeThreadSafeContext(m->tsc);
    free(m->c_decls);
    free(m);
}

/* ---------------------------------------------------------------- launchers */

static ptoc_param_info param_of(const ptoc_type *t)
{
    ptoc_param_info p = {PTOC_PARAM_UNSUPPORTED, t, NULL, -1};
    const ptoc_type *elem = pointee(t);
    if (elem && c_scalar(elem)) {
        p.kind = PTOC_PARAM_POINTER;
        p.elem = elem;
        if (t->kind == PTOC_TYPE_MEMREF) {
            p.static_elems = 1;
            for (uint32_t d = 0; d < t->u.shaped.rank && p.static_elems >= 0; d++)
                p.static_elems = t->u.shaped.shape[d] == PTOC_DYNAMIC ? -1 : p.static_elems * t->u.shaped.shape[d];
        }
    } else if (!elem && c_scalar(t)) {
        p.kind = PTOC_PARAM_SCALAR;
        p.elem = t;
    }
    return p;
}

uint32_t ptoc_llvm_param_info(const ptoc_op *fn, ptoc_param_info *out, uint32_t max)
{
    const ptoc_type *ft = fn ? func_type(fn) : NULL;
    if (!ft)
        return 0;
    for (uint32_t i = 0; i < ft->u.func.ninputs && i < max; i++)
        out[i] = param_of(ft->u.func.inputs[i]);
    return ft->u.func.ninputs;
}
