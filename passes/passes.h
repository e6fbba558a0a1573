/* passes.h: the pass rows defined under passes/, for register.c.
 *
 * One row per pass, each defined in its own file; register.c lists them in one
 * table. Private to the library: embedders look passes up by name.
 */
#ifndef PTOC_PASSES_PASSES_H
#define PTOC_PASSES_PASSES_H

#include "ptoc/pass.h"
#include "ptoc/pto.h"

extern const ptoc_pass_def ptoc_dce_pass;
extern const ptoc_pass_def ptoc_strip_debuginfo_pass;
extern const ptoc_pass_def ptoc_bufferize_pass;
extern const ptoc_pass_def ptoc_plan_memory_pass;
extern const ptoc_pass_def ptoc_insert_tassign_pass;
extern const ptoc_pass_def ptoc_insert_sync_pass;
extern const ptoc_pass_def ptoc_canonicalize_pass;
extern const ptoc_pass_def ptoc_cse_pass;
extern const ptoc_pass_def ptoc_symbol_dce_pass;
extern const ptoc_pass_def ptoc_inline_pass;
extern const ptoc_pass_def ptoc_lower_a5_pass;
extern const ptoc_pass_def ptoc_lower_a2a3_pass;
extern const ptoc_pass_def ptoc_split_u64_pass;

/* pass_util.c: whether an option value is "true" or "1" (NULL: false); a
 * func.func's sym_name ("?" without one), for printed reports; whether a
 * function has auto-mode work left: a Level-1 tile value, an on-chip buffer
 * without an address or a reserve_buffer without a base (otherwise its
 * buffers are all the author's). */
bool ptoc_pass_flag(const char *value);
const char *ptoc_pass_func_name(const ptoc_op *func);
bool ptoc_pass_needs_auto_mode(ptoc_op *func);
/* The arch whose rules a pass applies to `func` (ptoc_pto_target_arch); false,
 * with an error at `func`, when the option or attribute names no known arch
 * (possible on IR that was never verified). */
bool ptoc_pass_target_arch(ptoc_op *func, ptoc_pto_arch *arch);

#endif
