/* lower_text.h: the unit tests' way to compile a kernel's text in process.
 * lower_text parses, verifies and lowers `text` ("k.pto") at -O0 for target
 * `t` (NULL: the default target), with the context option pto-arch set to
 * `arch` when not NULL, and returns the LLVM IR (malloc'd), or NULL with the
 * last error, as "line:col: message", in lower_text_error. */
#ifndef PTOC_TEST_LOWER_TEXT_H
#define PTOC_TEST_LOWER_TEXT_H

#include "ptoc/codegen.h"
#include "ptoc/ptoc.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static char lower_text_error[512];

static void lower_text_capture(void *user, const ptoc_diagnostic *d)
{
    (void)user;
    if (d->severity == PTOC_SEV_ERROR)
        snprintf(lower_text_error, sizeof lower_text_error, "%u:%u: %s", d->loc.line, d->loc.col, d->message);
}

static char *lower_text(const ptoc_target *t, const char *arch, const char *text)
{
    lower_text_error[0] = '\0';
    ptoc_context *ctx = ptoc_context_create(NULL);
    ptoc_register_all(ctx);
    if (arch)
        ptoc_context_set_option(ctx, "pto-arch", arch);
    ptoc_context_set_diag_handler(ctx, lower_text_capture, NULL, NULL);
    ptoc_arena *arena = ptoc_arena_create(ctx);
    ptoc_op *module = ptoc_parse(ctx, arena, text, strlen(text), "k.pto", NULL);
    char *ir = NULL;
    if (module && ptoc_verify(module)) {
        ptoc_codegen_options o = ptoc_codegen_defaults();
        if (t)
            o.target = t;
        o.opt_level = 0;
        ptoc_llvm_module *m = ptoc_llvm_lower(module, &o);
        char *err = NULL;
        if (m)
            ir = ptoc_llvm_emit_string(m, PTOC_EMIT_LLVM, &err);
        free(err);
        ptoc_llvm_module_destroy(m);
    }
    ptoc_context_destroy(ctx);
    return ir;
}

#endif
