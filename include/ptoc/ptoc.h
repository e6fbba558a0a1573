/* ptoc.h: the one header an embedder includes.
 *
 *   ptoc_context *ctx = ptoc_context_create(NULL);
 *   ptoc_register_all(ctx);                 // dialects and passes
 *   ptoc_arena *arena = ptoc_arena_create(ctx);
 *   ptoc_op *module = ptoc_parse(ctx, arena, text, len, "k.pto", NULL);
 *   if (module && ptoc_verify(module)) { ... run a ptoc_pm ... print ... }
 *   ptoc_context_destroy(ctx);              // frees the arena too
 */
#ifndef PTOC_PTOC_H
#define PTOC_PTOC_H

#include "ptoc/ir.h"
#include "ptoc/pass.h"
#include "ptoc/pto.h"
#include "ptoc/syntax.h"

#ifdef __cplusplus
extern "C" {
#endif

/* "0.1.0" */
const char *ptoc_version(void);

/* Dialects: builtin, func, arith, scf, memref, pto. Each is idempotent. */
void ptoc_register_builtin_dialect(ptoc_context *ctx);
void ptoc_register_func_dialect(ptoc_context *ctx);
void ptoc_register_arith_dialect(ptoc_context *ctx);
void ptoc_register_scf_dialect(ptoc_context *ctx);
void ptoc_register_memref_dialect(ptoc_context *ctx);
void ptoc_register_pto_dialect(ptoc_context *ctx);
void ptoc_register_all_dialects(ptoc_context *ctx);
/* The value of an integer or index `arith.constant`, for the passes and dialects
 * that read constant operands (addresses, loop bounds); false for any other value. */
bool ptoc_arith_int_constant(const ptoc_value *v, int64_t *out);
/* Every pass under passes/, and the named pipelines made of them. */
void ptoc_register_all_passes(ptoc_context *ctx);
/* The named pipeline the ptoc driver runs before code generation at PTO level
 * `level` (1..3; NULL otherwise), with or without pto-insert-sync. */
const char *ptoc_level_pipeline(unsigned level, bool insert_sync);
/* Both of the above. */
void ptoc_register_all(ptoc_context *ctx);
/* Whether pto-lower-a5 lowers the tile op `opcode` to A5 micro-ops, for
 * some of its operand types and layouts (the a5 target entry's `lowers`). */
bool ptoc_lower_a5_lowers(ptoc_pto_op_id opcode);
/* Whether pto-lower-a2a3 lowers the tile op `opcode` to A2/A3 repeat
 * intrinsics, for some of its operand types and layouts (the a2a3 target
 * entry's `lowers`). */
bool ptoc_lower_a2a3_lowers(ptoc_pto_op_id opcode);

#ifdef __cplusplus
}
#endif
#endif
