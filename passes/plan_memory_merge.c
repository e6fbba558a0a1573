/* plan_memory_merge.c: the in-place merges of pto-plan-memory.
 *
 * An op that writes its out over a dying in (the op table's inpl column,
 * ptoc_pto_inplace_allowed) lets the two share one offset: the out's buffer
 * joins the in's group. Without the path graph, memplan_merge_handovers
 * merges, at each handover in program order, the buffers its in and out may
 * be whose pieces meet only there (or elsewhere only through one carrier).
 * With it (pl->exact), a space's pairs are those pl->exact_soft names (an in
 * dying into an out on some path, meeting it nowhere else), merged in the
 * order place_space_exact asks for (memplan_merge_space); two groups merge
 * only when no member of one may be live with a member of the other on some
 * path. memplan_exact_per_group turns the buffers' rows into the groups'.
 */
#include "passes/plan_memory.h"

/* ---------------------------------------------------------------- in-place handovers */

/* An op that reads a buffer for the last time and writes a new one may write
 * it in place when the op table allows it on the arch (record_handovers) and
 * the new one is no larger: the two then share one offset, and the handover
 * point counts once. Merged buffers form a group planned as its leader (the
 * in's group, so its size covers the out's), whose pieces become the union; a pair is
 * merged only when their groups are live together at that point and nowhere
 * else, so no other sharing is implied. */

/* The buffers a handover's use (its in or its out) may touch at run time (up
 * to MAX_HOLDERS, in `bufs`): its own, or those the iter_arg or scf result it
 * uses may hold. Returns their count, 0 when unknown; *via: that carrier's
 * via, 0 for a buffer's own value. */
static uint32_t use_candidates(const planner *pl, const uint32_t *buf_of, uint32_t use, uint32_t *bufs, uint32_t *via)
{
    const use_rec *u = &pl->uses[use];
    uint32_t set = memplan_find((planner *)pl, u->node), n;   /* finds only compress */
    *via = 0;
    if (u->web != NO_SET || buf_of[set] != NO_SET) {
        bufs[0] = use_buffer(pl, buf_of, use);
        return 1;
    }
    const uint32_t *held = set_holders(pl, set, &n);
    if (n > MAX_HOLDERS)
        return 0;
    memcpy(bufs, held, n * sizeof *bufs);
    *via = pl->same_as[set] + 1;
    return n;
}

/* Whether use `in` is the in of a handover to h's out (the op may write its
 * out over that operand too). */
static bool also_handed_over(const planner *pl, const handover *h, uint32_t in)
{
    for (const handover *o = h; o > pl->handovers && o[-1].point == h->point; o--)
        if (o[-1].in == in && o[-1].out == h->out)
            return true;
    for (const handover *o = h; o + 1 < pl->handovers + pl->nhandovers && o[1].point == h->point; o++)
        if (o[1].in == in && o[1].out == h->out)
            return true;
    return false;
}

/* Whether an operand of h's op other than its in and its out, and not
 * written in place too, may stand for group g. */
static bool op_touches_elsewhere(const planner *pl, const uint32_t *buf_of, const handover *h, uint32_t g)
{
    const ptoc_op *op = pl->uses[h->in].op;
    uint32_t first = h->in;
    while (first > 0 && pl->uses[first - 1].op == op)
        first--;
    for (uint32_t k = first; k < pl->nuses && pl->uses[k].op == op; k++) {
        if (k == h->in || k == h->out || also_handed_over(pl, h, k))
            continue;
        uint32_t bufs[MAX_HOLDERS], via, n = use_candidates(pl, buf_of, k, bufs, &via);
        if (n == 0)
            return true;
        for (uint32_t i = 0; i < n; i++)
            if (bufs[i] != NO_SET && group_of(pl, bufs[i]) == g)
                return true;
    }
    return false;
}

/* Whether group g is dead at point p but where only a carrier (`via`,
 * nonzero: the one the op's other side is used through) holds it: on paths
 * where that carrier holds another buffer, g's contents are not needed there,
 * and where it holds g the op writes g over itself. */
static bool dead_at(const planner *pl, const buffer *g, uint32_t p, uint32_t via)
{
    span piece = piece_at(pl, g, p);
    return piece.lo > piece.hi || (via && piece.via == via);
}

/* Whether the in group `in` may die into the out group `out` in place at
 * handover h: the in is live at the op and not after it, the out at the op
 * and not before it. An in or out used through an iter_arg or an scf result
 * (vin, vout: its via) is whichever buffer the carrier holds; that one must
 * not be another operand of the op. */
static bool hands_over(const planner *pl, const uint32_t *buf_of, const handover *h, uint32_t in, uint32_t vin,
                       uint32_t out, uint32_t vout)
{
    const buffer *bi = &pl->bufs[in], *bo = &pl->bufs[out];
    return live_at(pl, bi, h->point) && dead_at(pl, bi, h->point + 1, vout) && live_at(pl, bo, h->point) &&
           dead_at(pl, bo, h->point - 1, vin) && (!vin || !op_touches_elsewhere(pl, buf_of, h, in)) &&
           (!vout || !op_touches_elsewhere(pl, buf_of, h, out));
}

/* Whether handover h lets group x's buffer die into group y's (or y's into
 * x's) in place at its point. */
static bool handover_between(const planner *pl, const uint32_t *buf_of, const handover *h, uint32_t x, uint32_t y)
{
    uint32_t ins[MAX_HOLDERS], outs[MAX_HOLDERS], vin, vout;
    uint32_t nin = use_candidates(pl, buf_of, h->in, ins, &vin), nout = use_candidates(pl, buf_of, h->out, outs, &vout);
    for (uint32_t i = 0; i < nin; i++)
        for (uint32_t j = 0; j < nout; j++) {
            uint32_t in = ins[i] == NO_SET ? NO_SET : group_of(pl, ins[i]);
            uint32_t out = outs[j] == NO_SET ? NO_SET : group_of(pl, outs[j]);
            if (((in == x && out == y) || (in == y && out == x)) && hands_over(pl, buf_of, h, in, vin, out, vout))
                return true;
        }
    return false;
}

/* Some handover between groups x and y at `point` (handovers are in point order). */
static bool handover_at(const planner *pl, const uint32_t *buf_of, uint32_t point, uint32_t x, uint32_t y)
{
    uint32_t first, end = memplan_handovers_at(pl, point, &first);
    for (uint32_t k = first; k < end; k++)
        if (handover_between(pl, buf_of, &pl->handovers[k], x, y))
            return true;
    return false;
}

/* Whether groups x and y meet only at single points, each an in-place handover
 * between them (a tile can pass back and forth: b = f(a); a = g(b)). Where
 * both are there only through one carrier (span.via), they do not meet: it
 * holds one of them. */
static bool meet_only_in_place(const planner *pl, const uint32_t *buf_of, uint32_t x, uint32_t y)
{
    const buffer *bx = &pl->bufs[x], *by = &pl->bufs[y];
    const span *a = &pl->pieces[bx->pieces], *b = &pl->pieces[by->pieces];
    uint32_t i = 0, j = 0;
    bool met = false;
    while (i < bx->npieces && j < by->npieces) {
        uint32_t lo = a[i].lo > b[j].lo ? a[i].lo : b[j].lo, hi = a[i].hi < b[j].hi ? a[i].hi : b[j].hi;
        if (lo <= hi && !(a[i].via && a[i].via == b[j].via)) {
            if (lo != hi || !handover_at(pl, buf_of, lo, x, y))
                return false;
            met = true;
        }
        if (a[i].hi < b[j].hi)
            i++;
        else
            j++;
    }
    return met;
}

/* The union of the pieces of x and y, as x's new pieces. */
static void merge_pieces(planner *pl, buffer *x, const buffer *y)
{
    uint32_t n = x->npieces + y->npieces;
    span *all = PTOC_NEW_ARRAY(pl->tmp, span, n + 1);
    memcpy(all, &pl->pieces[x->pieces], x->npieces * sizeof *all);
    memcpy(all + x->npieces, &pl->pieces[y->pieces], y->npieces * sizeof *all);
    x->pieces = pl->npieces;
    x->npieces = memplan_add_pieces(pl, all, n);
    x->start = x->start < y->start ? x->start : y->start;
    x->end = x->end > y->end ? x->end : y->end;
}

/* The leader keeps only the arms both were confined to. */
static void intersect_confined(planner *pl, buffer *x, const buffer *y)
{
    uint32_t kept = 0;
    for (uint32_t i = 0; i < x->nconfined; i++) {
        uint32_t arm = pl->confined_to[x->confined + i];
        bool both = false;
        for (uint32_t j = 0; j < y->nconfined; j++)
            both |= pl->confined_to[y->confined + j] == arm;
        if (both)
            pl->confined_to[x->confined + kept++] = arm;
    }
    x->nconfined = kept;
}

/* Merges each buffer handover h's in may be with each its out may be, where
 * they meet only in place. */
static void merge_handover(planner *pl, const uint32_t *buf_of, const handover *h)
{
    uint32_t ins[MAX_HOLDERS], outs[MAX_HOLDERS], vin, vout;
    uint32_t nin = use_candidates(pl, buf_of, h->in, ins, &vin), nout = use_candidates(pl, buf_of, h->out, outs, &vout);
    for (uint32_t i = 0; i < nin; i++)
        for (uint32_t j = 0; j < nout; j++) {
            if (ins[i] == NO_SET || outs[j] == NO_SET)
                continue;
            uint32_t in = group_of(pl, ins[i]), out = group_of(pl, outs[j]);
            buffer *x = &pl->bufs[in], *y = &pl->bufs[out];
            if (in == out || x->fixed || x->unknown || x->unused || y->fixed || y->unknown || y->unused ||
                x->space != y->space || x->size < y->size || !meet_only_in_place(pl, buf_of, in, out))
                continue;
            merge_pieces(pl, x, y);
            intersect_confined(pl, x, y);
            y->merged = true;
            y->leader = in;
        }
}


static bool mergeable(const buffer *x, const buffer *y)
{
    return !x->fixed && !x->unknown && !x->unused && !y->fixed && !y->unknown && !y->unused && x->space == y->space;
}


static bool rows_meet(const uint64_t *a, const uint64_t *b, uint32_t words)
{
    for (uint32_t w = 0; w < words; w++)
        if (a[w] & b[w])
            return true;
    return false;
}

/* With the path graph: buffer `in`, which dies into `out` in place on some
 * path (pl->exact_soft), and `out` join one group, the in's, unless the
 * out's group is the larger or a member of one group may be live with a
 * member of the other on some path. */
static void merge_soft_pair(planner *pl, memplan_group_rows *r, uint32_t in, uint32_t out)
{
    uint32_t words = pl->exact_words, x = group_of(pl, in), y = group_of(pl, out);
    if (x == y || !mergeable(&pl->bufs[x], &pl->bufs[y]) || pl->bufs[x].size < pl->bufs[y].size)
        return;
    uint64_t *hx = &r->hard[(size_t)x * words], *hy = &r->hard[(size_t)y * words];
    uint64_t *mx = &r->members[(size_t)x * words], *my = &r->members[(size_t)y * words];
    if (rows_meet(hx, my, words))
        return;                          /* hard rows are symmetric: y's meets x's members too */
    for (uint32_t w = 0; w < words; w++) {
        hx[w] |= hy[w];
        mx[w] |= my[w];
    }
    merge_pieces(pl, &pl->bufs[x], &pl->bufs[y]);
    intersect_confined(pl, &pl->bufs[x], &pl->bufs[y]);
    pl->bufs[y].merged = true;
    pl->bufs[y].leader = x;
}

/* pl->exact_groups: per group leader, of leaders, where some members may be
 * live together, or meet in place without sharing a group. */
void memplan_exact_per_group(planner *pl)
{
    uint32_t words = pl->exact_words;
    if (!pl->exact_groups)
        pl->exact_groups = PTOC_NEW_ARRAY(pl->tmp, uint64_t, (size_t)pl->nbufs * words);
    memset(pl->exact_groups, 0, (size_t)pl->nbufs * words * sizeof *pl->exact_groups);
    for (uint32_t m = 0; m < pl->nbufs; m++) {
        const uint64_t *hard = &pl->exact[(size_t)m * words], *soft = &pl->exact_soft[(size_t)m * words];
        uint32_t g = group_of(pl, m);
        uint64_t *row = &pl->exact_groups[(size_t)g * words];
        for (uint32_t w = 0; w < words; w++)
            for (uint64_t bits = hard[w] | soft[w]; bits; bits &= bits - 1) {
                uint32_t h = group_of(pl, w * 64 + (uint32_t)__builtin_ctzll(bits));
                set_bit_of(row, h);
                set_bit_of(&pl->exact_groups[(size_t)h * words], g);   /* soft rows are the in's only */
            }
    }
}


void memplan_merge_space(planner *pl, const uint32_t *ids, uint32_t n, uint32_t order, memplan_group_rows *r)
{
    uint32_t words = pl->exact_words;
    size_t all = (size_t)pl->nbufs * words;
    memcpy(r->hard, pl->exact, all * sizeof *r->hard);
    memset(r->members, 0, all * sizeof *r->members);
    for (uint32_t b = 0; b < pl->nbufs; b++)
        r->members[(size_t)b * words + b / 64] |= 1ull << (b % 64);
    bool down = order == 1, same_size = order == 2;
    for (uint32_t pass = 0; pass < 2; pass++)    /* webs of one alloc first: the kernel wrote it in place */
        for (uint32_t i = 0; i < n; i++) {
            uint32_t a = ids[down ? n - 1 - i : i];
            const uint64_t *soft = &pl->exact_soft[(size_t)a * words];
            for (uint32_t k = 0; k < words; k++) {
                uint32_t w = down ? words - 1 - k : k;
                for (uint64_t bits = soft[w]; bits;) {
                    uint32_t bit = down ? 63 - (uint32_t)__builtin_clzll(bits) : (uint32_t)__builtin_ctzll(bits);
                    uint32_t b = w * 64 + bit;
                    bits &= ~(1ull << bit);
                    if ((pass == 1 || pl->bufs[a].root == pl->bufs[b].root) &&
                        (!same_size || pl->bufs[a].size == pl->bufs[b].size))
                        merge_soft_pair(pl, r, a, b);
                }
            }
        }
    memplan_exact_per_group(pl);
}

void memplan_merge_handovers(planner *pl, const uint32_t *buf_of)
{
    if (pl->exact)
        return;                          /* per space, in place_space_exact */
    for (uint32_t k = 0; k < pl->nhandovers; k++)
        merge_handover(pl, buf_of, &pl->handovers[k]);
}
