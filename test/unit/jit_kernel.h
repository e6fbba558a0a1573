/* jit_kernel.h: compiling a kernel's text for the cpu target and JIT-running
 * it, for the unit tests that run ops against C references
 * (test_vops_exec.c, test_a2a3_exec.c). compile() parses, verifies, lowers,
 * optimises and JITs `text` and looks up @k (NULL fn, with the text on
 * stderr, when any step fails); release() frees what it made.
 */
#ifndef PTOC_TEST_JIT_KERNEL_H
#define PTOC_TEST_JIT_KERNEL_H

#include "ptoc/codegen.h"
#include "ptoc/ptoc.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct compiled { ptoc_context *ctx; ptoc_jit *jit; void *fn; } compiled;

static compiled compile(const char *text)
{
    compiled c = {ptoc_context_create(NULL), NULL, NULL};
    ptoc_register_all(c.ctx);
    ptoc_arena *arena = ptoc_arena_create(c.ctx);
    ptoc_op *module = ptoc_parse(c.ctx, arena, text, strlen(text), "k.pto", NULL);
    if (module && ptoc_verify(module)) {
        ptoc_codegen_options o = ptoc_codegen_defaults();
        ptoc_llvm_module *m = ptoc_llvm_lower(module, &o);
        char *err = NULL;
        if (m && ptoc_llvm_optimize(m, &err))
            c.jit = ptoc_jit_create(m, &err);
        else
            ptoc_llvm_module_destroy(m);
        if (err)
            fprintf(stderr, "%s\n", err);
        free(err);
    }
    c.fn = c.jit ? ptoc_jit_lookup(c.jit, "k") : NULL;
    if (!c.fn)
        fprintf(stderr, "cannot compile:\n%s\n", text);
    return c;
}

static void release(compiled *c)
{
    if (c->jit)
        ptoc_jit_destroy(c->jit);
    ptoc_context_destroy(c->ctx);
}

#endif
