/* pto_arch.c: the arch table, one row per arch ptoc knows.
 *
 * Everything ptoc knows about an arch is in its row: the names it goes by, the
 * capacity and alignment of each on-chip address space, which pipes keep
 * their own ops in order (a same-pipe dependency there needs no sync), the
 * hidden scratch window some ops use, how many event ids each (source pipe,
 * destination pipe) pair has, and which column of the element type table
 * (pto_dtypes.def) its verifiers read. The verifiers, the memory planner,
 * pto-insert-sync, codegen and (through the driver) the pipe simulator read
 * it; nothing else spells an arch's name or figure.
 *
 * Sources (docs/decisions.md): capacities from pto-isa's
 * include/pto/common/buffer_limits.hpp, 32-byte alignment and 512 bytes in L0
 * (the L0 fractal), in-order pipes from the A2/A3 and A5 implementations (V is
 * in order on A5, only S on A2/A3), 8 event ids per pipe pair (event.hpp), and
 * A2/A3's UB[184 KiB, 192 KiB) scratch of TROWEXPAND*, TCVT, TEXTRACT, TCMP, TCMPS and
 * TROWSUM/TROWMAX/TROWMIN without tmp. cpu
 * simulates A5 and checks the union of the hardware dtype sets.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dialect/pto_internal.h"

#define KIB(n) ((uint64_t)(n) << 10)
#define PIPE_BIT(p) (1u << (p))

/* The on-chip spaces of the A2/A3 and A5 generations. */
#define A2A3_CAPACITY                                                                            \
    {[PTOC_PTO_AS_VEC] = KIB(192), [PTOC_PTO_AS_MAT] = KIB(512), [PTOC_PTO_AS_LEFT] = KIB(64),  \
     [PTOC_PTO_AS_RIGHT] = KIB(64), [PTOC_PTO_AS_ACC] = KIB(128), [PTOC_PTO_AS_BIAS] = KIB(1), \
     [PTOC_PTO_AS_SCALING] = KIB(2)}
#define A5_CAPACITY                                                                              \
    {[PTOC_PTO_AS_VEC] = KIB(256), [PTOC_PTO_AS_MAT] = KIB(512), [PTOC_PTO_AS_LEFT] = KIB(64),  \
     [PTOC_PTO_AS_RIGHT] = KIB(64), [PTOC_PTO_AS_ACC] = KIB(256), [PTOC_PTO_AS_BIAS] = KIB(4), \
     [PTOC_PTO_AS_SCALING] = KIB(4)}
#define ALIGNMENT                                                                                    \
    {[PTOC_PTO_AS_VEC] = 32, [PTOC_PTO_AS_MAT] = 32, [PTOC_PTO_AS_LEFT] = 512, [PTOC_PTO_AS_RIGHT] = 512, \
     [PTOC_PTO_AS_ACC] = 512, [PTOC_PTO_AS_BIAS] = 32, [PTOC_PTO_AS_SCALING] = 32}

/* A2/A3's clock and DMA bandwidths, pto-isa's cost model (costmodel/arch_config.hpp). */
#define A2A3_CLOCK_HZ 1.85e9
#define A2A3_BANDWIDTH                                                                                   \
    {{PTOC_PTO_PIPE_MTE2, PTOC_PTO_AS_VEC, 100.9}, {PTOC_PTO_PIPE_MTE2, PTOC_PTO_AS_MAT, 135.0},         \
     {PTOC_PTO_PIPE_MTE3, PTOC_PTO_AS_VEC, 188.46}, {PTOC_PTO_PIPE_MTE1, PTOC_PTO_AS_LEFT, 441.0},      \
     {PTOC_PTO_PIPE_MTE1, PTOC_PTO_AS_RIGHT, 220.5}}

static const ptoc_pto_arch_info arch_rows[] = {
    /* arch, name, aliases, capacity, alignment, in-order pipes, scratch window, event ids, dtype column,
     * MX scale buffers (A5: ScaleLeft and ScaleRight, 4 KiB each, pto-isa's buffer limits; A2/A3 have none),
     * clock, DMA bandwidths (A5: not published; the pipe simulator's rough figures) */
    {PTOC_PTO_ARCH_A2, "a2", {NULL}, A2A3_CAPACITY, ALIGNMENT, PIPE_BIT(PTOC_PTO_PIPE_S),
     KIB(184), KIB(192), 8, PTOC_PTO_DTYPE_COLUMN_A2A3, 0, A2A3_CLOCK_HZ, A2A3_BANDWIDTH},
    /* a2a3 (PTOAS's name for the shared A2/A3 rules) is a3: the two have the same rules everywhere */
    {PTOC_PTO_ARCH_A3, "a3", {"a2a3"}, A2A3_CAPACITY, ALIGNMENT, PIPE_BIT(PTOC_PTO_PIPE_S),
     KIB(184), KIB(192), 8, PTOC_PTO_DTYPE_COLUMN_A2A3, 0, A2A3_CLOCK_HZ, A2A3_BANDWIDTH},
    {PTOC_PTO_ARCH_A5, "a5", {NULL}, A5_CAPACITY, ALIGNMENT, PIPE_BIT(PTOC_PTO_PIPE_V), 0, 0, 8,
     PTOC_PTO_DTYPE_COLUMN_A5, KIB(4)},
    {PTOC_PTO_ARCH_CPU, "cpu", {NULL}, A5_CAPACITY, ALIGNMENT, PIPE_BIT(PTOC_PTO_PIPE_V), 0, 0, 8,
     PTOC_PTO_DTYPE_COLUMN_UNION, KIB(4)},
};
_Static_assert(sizeof arch_rows / sizeof arch_rows[0] == PTOC_PTO_ARCH_INVALID, "a row per arch, in enum order");

const ptoc_pto_arch_info *ptoc_pto_arch_info_of(ptoc_pto_arch arch)
{
    return (unsigned)arch < PTOC_PTO_ARCH_INVALID ? &arch_rows[arch] : NULL;
}

bool pto_same_name(const char *name, const char *want)
{
    size_t i = 0;
    while (name[i] && want[i] && tolower((unsigned char)name[i]) == want[i])
        i++;
    return !name[i] && !want[i];
}

ptoc_pto_arch ptoc_pto_arch_from_name(const char *name)
{
    for (size_t a = 0; a < sizeof arch_rows / sizeof arch_rows[0]; a++) {
        const ptoc_pto_arch_info *row = &arch_rows[a];
        if (pto_same_name(name, row->name))
            return row->arch;
        for (size_t k = 0; k < PTOC_PTO_ARCH_MAX_ALIASES && row->aliases[k]; k++)
            if (pto_same_name(name, row->aliases[k]))
                return row->arch;
    }
    return PTOC_PTO_ARCH_INVALID;
}

size_t ptoc_pto_arch_names(char *buf, size_t n)
{
    return ptoc_pto_arch_names_joined(buf, n, ", ", " or ");
}

size_t ptoc_pto_arch_names_joined(char *buf, size_t n, const char *sep, const char *last_sep)
{
    const char *names[2 * (PTOC_PTO_ARCH_MAX_ALIASES + 1) * PTOC_PTO_ARCH_INVALID];
    size_t count = 0, len = 0;
    for (size_t a = 0; a < sizeof arch_rows / sizeof arch_rows[0]; a++) {
        names[count++] = arch_rows[a].name;
        for (size_t k = 0; k < PTOC_PTO_ARCH_MAX_ALIASES && arch_rows[a].aliases[k]; k++)
            names[count++] = arch_rows[a].aliases[k];
    }
    for (size_t i = 0; i < count; i++) {
        const char *before = i == 0 ? "" : i + 1 == count ? last_sep : sep;
        int w = snprintf(buf + (len < n ? len : n), len < n ? n - len : 0, "%s%s", before, names[i]);
        len += w > 0 ? (size_t)w : 0;
    }
    if (n && len >= n)
        buf[n - 1] = '\0';
    return len;
}

const char *ptoc_pto_arch_name(ptoc_pto_arch arch)
{
    const ptoc_pto_arch_info *row = ptoc_pto_arch_info_of(arch);
    return row ? row->name : "invalid";
}

uint64_t ptoc_pto_space_capacity(ptoc_pto_arch arch, ptoc_pto_address_space space)
{
    const ptoc_pto_arch_info *row = ptoc_pto_arch_info_of(arch);
    return row && (unsigned)space < PTOC_PTO_AS_COUNT ? row->capacity[space] : 0;
}

uint32_t ptoc_pto_space_alignment(ptoc_pto_arch arch, ptoc_pto_address_space space)
{
    const ptoc_pto_arch_info *row = ptoc_pto_arch_info_of(arch);
    uint32_t align = row && (unsigned)space < PTOC_PTO_AS_COUNT ? row->alignment[space] : 0;
    return align ? align : 32;
}

bool ptoc_pto_pipe_in_order(ptoc_pto_arch arch, int pipe)
{
    const ptoc_pto_arch_info *row = ptoc_pto_arch_info_of(arch);
    return row && pipe >= 0 && pipe < 32 && (row->in_order_pipes & PIPE_BIT(pipe)) != 0;
}

uint64_t ptoc_pto_planned_capacity(ptoc_context *ctx, ptoc_pto_arch arch, ptoc_pto_address_space space)
{
    const char *ub = space == PTOC_PTO_AS_VEC ? ptoc_context_option(ctx, "pto-ub-size") : NULL;
    char *end = NULL;
    unsigned long long bytes = ub ? strtoull(ub, &end, 10) : 0;
    if (ub && end != ub && !*end && bytes > 0)
        return bytes;                  /* the tools check the value; a bad one is ignored */
    return ptoc_pto_space_capacity(arch, space);
}
