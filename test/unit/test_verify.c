/* test_verify.c: the verifier driver's structural checks - terminators,
 * single-block regions, isolation, dominance - and the per-op hook, each shown
 * by the diagnostic it must produce (and a clean tree producing none). */
#include "check.h"
#include "unit_dialect.h"

#include <string.h>

typedef struct seen {
    int n, notes;
    char text[1024];
} seen;

/* Counts handler calls in n and notes in notes; text lists each message and
 * then its notes' messages. */
static void remember(void *user, const ptoc_diagnostic *d)
{
    seen *s = user;
    s->n++;
    s->notes += (int)d->nnotes;
    strncat(s->text, d->message, sizeof s->text - strlen(s->text) - 2);
    strcat(s->text, "|");
    for (size_t i = 0; i < d->nnotes; i++) {
        strncat(s->text, d->notes[i].message, sizeof s->text - strlen(s->text) - 2);
        strcat(s->text, "|");
    }
}

typedef struct fixture {
    ptoc_context *ctx;
    ptoc_arena *arena;
    ptoc_builder b;
    seen seen;
} fixture;

static void setup(fixture *f)
{
    memset(f, 0, sizeof *f);
    f->ctx = unit_context(NULL);
    f->arena = ptoc_arena_create(f->ctx);
    ptoc_builder_init(&f->b, f->ctx, f->arena);
    ptoc_context_set_diag_handler(f->ctx, remember, &f->seen, NULL);
}

/* Creates op `name` at the builder with optional operand and an i32 result. */
static ptoc_op *op(fixture *f, const char *name, ptoc_value *operand, uint32_t nregions)
{
    ptoc_type *i32 = ptoc_type_int(f->ctx, 32, PTOC_SIGNLESS);
    return ptoc_builder_create(&f->b, name, operand ? 1 : 0, &operand, 1, &i32, 0, NULL, nregions);
}

/* Gives region `i` of `parent` a new block and points the builder at its end. */
static ptoc_block *enter(fixture *f, ptoc_op *parent, uint32_t i)
{
    ptoc_block *blk = ptoc_block_create(f->arena);
    ptoc_region_append(&parent->regions[i], blk);
    ptoc_builder_set_end(&f->b, blk);
    return blk;
}

static void test_clean(void)
{
    fixture f;
    ptoc_op *module, *func, *c, *r;
    ptoc_block *body;
    setup(&f);
    module = op(&f, "t.module", NULL, 1);
    enter(&f, module, 0);
    func = op(&f, "t.func", NULL, 1);
    body = enter(&f, func, 0);
    c = op(&f, "t.add", ptoc_block_add_arg(body, f.arena, ptoc_type_index(f.ctx), ptoc_loc_unknown()), 0);
    r = op(&f, "t.region", NULL, 1);
    op(&f, "t.ret", NULL, 0);
    enter(&f, r, 0);
    op(&f, "t.add", ptoc_op_result(c, 0), 0);
    op(&f, "t.ret", NULL, 0);
    CHECK(ptoc_verify(module));
    CHECK(f.seen.n == 0);
    ptoc_context_destroy(f.ctx);
}

static void test_terminators(void)
{
    fixture f;
    ptoc_op *module, *func, *func2, *ret;
    setup(&f);
    module = op(&f, "t.module", NULL, 1);
    enter(&f, module, 0);
    func = op(&f, "t.func", NULL, 1);
    func2 = op(&f, "t.func", NULL, 1);
    ptoc_context_allow_unregistered(f.ctx, true);
    op(&f, "x.unknown", NULL, 1);            /* its empty region needs no terminator */
    enter(&f, func, 0);
    op(&f, "t.add", NULL, 0);                /* no terminator */
    enter(&f, func2, 0);
    ret = op(&f, "t.ret", NULL, 0);
    op(&f, "t.add", NULL, 0);
    CHECK(!ptoc_verify(module));
    CHECK(strstr(f.seen.text, "'t.add' op block with no terminator|") != NULL);
    CHECK(strstr(f.seen.text, "'t.ret' op must be the last operation in the parent block|") != NULL);
    (void)ret;
    ptoc_context_destroy(f.ctx);
}

static void test_single_block_and_hook(void)
{
    fixture f;
    ptoc_op *module;
    setup(&f);
    module = op(&f, "t.module", NULL, 1);
    enter(&f, module, 0);
    enter(&f, module, 0);
    op(&f, "t.bad", NULL, 0);
    CHECK(!ptoc_verify(module));
    CHECK(strstr(f.seen.text, "'t.module' op expects region #0 to have 0 or 1 blocks|") != NULL);
    CHECK(strstr(f.seen.text, "'t.bad' op is always bad|") != NULL);
    ptoc_context_destroy(f.ctx);
}

static void test_dominance(void)
{
    fixture f;
    ptoc_op *module, *func, *late, *use, *r;
    ptoc_block *entry;
    setup(&f);
    module = op(&f, "t.module", NULL, 1);
    enter(&f, module, 0);
    func = op(&f, "t.func", NULL, 1);
    entry = enter(&f, func, 0);
    use = op(&f, "t.add", NULL, 0);
    late = op(&f, "t.add", NULL, 0);
    ptoc_op_set_operands(use, f.arena, 1, (ptoc_value *[]){ptoc_op_result(late, 0)});
    r = op(&f, "t.region", NULL, 1);
    op(&f, "t.ret", NULL, 0);
    enter(&f, r, 0);
    op(&f, "t.add", ptoc_op_result(r, 0), 0);     /* an op's own result inside it */
    op(&f, "t.ret", NULL, 0);
    /* A second block of the func: sees the entry block, not a sibling block. */
    enter(&f, func, 0);
    use = op(&f, "t.add", ptoc_op_result(late, 0), 0);
    op(&f, "t.ret", NULL, 0);
    enter(&f, func, 0);
    op(&f, "t.add", ptoc_op_result(use, 0), 0);
    op(&f, "t.ret", NULL, 0);
    (void)entry;
    CHECK(!ptoc_verify(module));
    CHECK(f.seen.n == 3 && f.seen.notes == 3);   /* three errors, each with its note */
    CHECK(strstr(f.seen.text, "'t.add' op operand #0 does not dominate this use|operand defined here|") != NULL);
    ptoc_context_destroy(f.ctx);
}

static void test_isolation(void)
{
    fixture f;
    ptoc_op *module, *outer, *func;
    setup(&f);
    module = op(&f, "t.module", NULL, 1);
    enter(&f, module, 0);
    outer = op(&f, "t.add", NULL, 0);
    func = op(&f, "t.func", NULL, 1);
    enter(&f, func, 0);
    op(&f, "t.add", ptoc_op_result(outer, 0), 0);
    op(&f, "t.ret", NULL, 0);
    CHECK(!ptoc_verify(module));
    CHECK(strcmp(f.seen.text, "'t.add' op using value defined outside the region|"
                              "required by region isolation constraints|") == 0);
    ptoc_context_destroy(f.ctx);
}

int main(void)
{
    test_clean();
    test_terminators();
    test_single_block_and_hook();
    test_dominance();
    test_isolation();
    return CHECK_DONE();
}
