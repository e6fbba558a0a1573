/* test_arch_table.c: the arch table (dialect/pto_arch.c) is consistent with
 * itself and with what its readers assume: every name and alias finds its row
 * in any case and nothing else does; capacities and alignments are usable by
 * the planner (alignments powers of two, capacities whole multiples of them);
 * a scratch window lies inside UB; every arch has at least one event id and
 * no more than the pipe simulator tracks; in-order pipes are real pipes; and
 * ptoc_pto_space_capacity / alignment / pipe_in_order answer from the row;
 * ptoc_pto_arch_names lists every spelling.
 */
#include "check.h"

#include "ptoc/pto.h"

#include <ctype.h>
#include <string.h>

static void upper(char *dst, const char *src, size_t n)
{
    size_t i = 0;
    for (; src[i] && i + 1 < n; i++)
        dst[i] = (char)toupper((unsigned char)src[i]);
    dst[i] = '\0';
}

static void check_names(const ptoc_pto_arch_info *row)
{
    char big[32];
    CHECK(ptoc_pto_arch_from_name(row->name) == row->arch);
    upper(big, row->name, sizeof big);
    CHECK(ptoc_pto_arch_from_name(big) == row->arch);
    CHECK(strcmp(ptoc_pto_arch_name(row->arch), row->name) == 0);
    for (int k = 0; k < PTOC_PTO_ARCH_MAX_ALIASES && row->aliases[k]; k++) {
        CHECK(ptoc_pto_arch_from_name(row->aliases[k]) == row->arch);
        upper(big, row->aliases[k], sizeof big);
        CHECK(ptoc_pto_arch_from_name(big) == row->arch);
    }
}

static void check_spaces(const ptoc_pto_arch_info *row)
{
    for (int s = 0; s < PTOC_PTO_AS_COUNT; s++) {
        uint64_t cap = row->capacity[s];
        uint32_t align = ptoc_pto_space_alignment(row->arch, (ptoc_pto_address_space)s);
        CHECK(align != 0 && (align & (align - 1)) == 0);
        CHECK(cap % align == 0);
        CHECK(ptoc_pto_space_capacity(row->arch, (ptoc_pto_address_space)s) == cap);
        bool on_chip = s != PTOC_PTO_AS_ZERO && s != PTOC_PTO_AS_GM;
        CHECK(on_chip == (cap != 0));
    }
    CHECK(row->scratch_begin <= row->scratch_end);
    CHECK(row->scratch_end <= row->capacity[PTOC_PTO_AS_VEC]);
}

static void check_pipes(const ptoc_pto_arch_info *row)
{
    CHECK(row->event_ids >= 1 && row->event_ids <= 8);
    CHECK((row->in_order_pipes >> PTOC_PTO_PIPE_NUM) == 0);
    CHECK((row->in_order_pipes & (1u << PTOC_PTO_PIPE_ALL)) == 0);
    for (int p = 0; p < PTOC_PTO_PIPE_NUM; p++)
        CHECK(ptoc_pto_pipe_in_order(row->arch, p) == ((row->in_order_pipes >> p) & 1u));
}

int main(void)
{
    for (int a = 0; a < PTOC_PTO_ARCH_INVALID; a++) {
        const ptoc_pto_arch_info *row = ptoc_pto_arch_info_of((ptoc_pto_arch)a);
        CHECK(row != NULL);
        if (!row)
            continue;
        CHECK(row->arch == (ptoc_pto_arch)a);
        check_names(row);
        check_spaces(row);
        check_pipes(row);
    }
    /* The list diagnostics quote: every name and alias, in table order, the last
     * after "or"; truncated to the buffer, the full length returned. */
    char names[128], small[6];
    size_t len = ptoc_pto_arch_names(names, sizeof names);
    CHECK(strcmp(names, "a2, a3, a2a3, a5 or cpu") == 0 && len == strlen(names));
    CHECK(ptoc_pto_arch_names(small, sizeof small) == len && strcmp(small, "a2, a") == 0);
    /* The same list as the tools' --pto-arch metavar. */
    CHECK(ptoc_pto_arch_names_joined(names, sizeof names, "|", "|") == strlen("a2|a3|a2a3|a5|cpu") &&
          strcmp(names, "a2|a3|a2a3|a5|cpu") == 0);
    CHECK(ptoc_pto_arch_info_of(PTOC_PTO_ARCH_INVALID) == NULL);
    CHECK(ptoc_pto_arch_from_name("a4") == PTOC_PTO_ARCH_INVALID);
    CHECK(ptoc_pto_arch_from_name("") == PTOC_PTO_ARCH_INVALID);
    CHECK(ptoc_pto_arch_from_name("a55") == PTOC_PTO_ARCH_INVALID);
    CHECK(ptoc_pto_space_capacity(PTOC_PTO_ARCH_INVALID, PTOC_PTO_AS_VEC) == 0);
    CHECK(!ptoc_pto_pipe_in_order(PTOC_PTO_ARCH_INVALID, PTOC_PTO_PIPE_V));
    /* The A2/A3 UB keeps its hidden scratch in its last 8 KiB (the ops that use it
     * address it there). */
    const ptoc_pto_arch_info *a3 = ptoc_pto_arch_info_of(PTOC_PTO_ARCH_A3);
    CHECK(a3->scratch_end == a3->capacity[PTOC_PTO_AS_VEC] && a3->scratch_end - a3->scratch_begin == 8u << 10);
    return CHECK_DONE();
}
