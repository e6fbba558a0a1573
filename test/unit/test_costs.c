/* test_costs.c: every A2/A3 repeat intrinsic is priced by the A2/A3 model.
 *
 * a2a3_costs.c's count() adds nothing for an intrinsic without a cost row, so
 * an intrinsic added to dialect/pto_vops.def without one would make --stats
 * and --trace quietly undercount the kernels that use it. Every "a2a3.*" row
 * must therefore either be priced (cg_a2a3_has_cost) or be named below as work
 * that costs the vector pipe nothing: mask, mode and state writes and reads,
 * address casts, the scalar unit's UB loads and stores, and the GM <-> UB DMA
 * copies (priced by the DMA model on their own pipes, not by the vector
 * function's). A name on the list that has a cost, or that is no intrinsic, is
 * a stale entry and fails too.
 *
 * A5 needs no such check: a5_costs.c gives every micro-op without a row of its
 * own the default row (latency 6, issue 1), so none costs nothing by omission.
 */
#include "check.h"

#include "codegen/codegen_internal.h"
#include "ptoc/pto.h"

#include <stdio.h>
#include <string.h>

static const char *const free_intrinsics[] = {
    "pto.a2a3.set_vector_mask", "pto.a2a3.set_mask_norm", "pto.a2a3.set_mask_count",
    "pto.a2a3.set_cmpmask",     "pto.a2a3.ub_addr",       "pto.a2a3.ub_ptr",
    "pto.a2a3.ld_ub",           "pto.a2a3.st_ub",         "pto.a2a3.get_rsvd_cnt",
    "pto.a2a3.get_vms4_sr",     "pto.a2a3.copy_gm_to_ubuf", "pto.a2a3.copy_ubuf_to_gm",
};
enum { NFREE = sizeof free_intrinsics / sizeof free_intrinsics[0] };

static bool on_free_list(const char *name)
{
    for (size_t i = 0; i < NFREE; i++)
        if (strcmp(free_intrinsics[i], name) == 0)
            return true;
    return false;
}

static const ptoc_pto_vop_info *find_vop(const char *name)
{
    const ptoc_pto_vop_info *v;
    for (size_t i = 0; (v = ptoc_pto_vop_info_at(i)); i++)
        if (strcmp(v->name, name) == 0)
            return v;
    return NULL;
}

/* Each a2a3 intrinsic: priced, or on the list of the free ones. */
static void test_every_intrinsic_priced(void)
{
    const ptoc_pto_vop_info *v;
    size_t seen = 0;
    for (size_t i = 0; (v = ptoc_pto_vop_info_at(i)); i++) {
        if (strncmp(v->name, "pto.a2a3.", 9) != 0)
            continue;
        seen++;
        bool ok = cg_a2a3_has_cost(v->id) || on_free_list(v->name);
        if (!ok)
            fprintf(stderr, "%s has no cost row in codegen/a2a3_costs.c\n", v->name);
        CHECK(ok);
    }
    CHECK(seen > NFREE);
}

/* The list is not stale: each name is an intrinsic, and one without a cost. */
static void test_free_list_current(void)
{
    for (size_t i = 0; i < NFREE; i++) {
        const ptoc_pto_vop_info *v = find_vop(free_intrinsics[i]);
        if (!v || cg_a2a3_has_cost(v->id))
            fprintf(stderr, "stale free-list entry: %s\n", free_intrinsics[i]);
        CHECK(v != NULL);
        CHECK(!v || !cg_a2a3_has_cost(v->id));
    }
}

int main(void)
{
    test_every_intrinsic_priced();
    test_free_list_current();
    return CHECK_DONE();
}
