/* register.c: registration of everything ptoc knows, and its version.
 *
 * Each ptoc_register_X_dialect is idempotent (registering twice is harmless), so
 * an embedder may call ptoc_register_all and then register a dialect again.
 */
#include "ptoc/ptoc.h"

#ifndef PTOC_VERSION_STRING
#error "PTOC_VERSION_STRING must be defined by the build (see CMakeLists.txt)"
#endif

const char *ptoc_version(void)
{
    return PTOC_VERSION_STRING;
}

void ptoc_register_all_dialects(ptoc_context *ctx)
{
    ptoc_register_builtin_dialect(ctx);
    ptoc_register_func_dialect(ctx);
    ptoc_register_arith_dialect(ctx);
    ptoc_register_scf_dialect(ctx);
    ptoc_register_memref_dialect(ctx);
    ptoc_register_pto_dialect(ctx);
}

void ptoc_register_all(ptoc_context *ctx)
{
    ptoc_register_all_dialects(ctx);
    ptoc_register_all_passes(ctx);
}
