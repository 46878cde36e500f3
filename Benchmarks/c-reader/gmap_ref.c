/*
 * gmap_ref.c: a reference reader for the .gmap format in C99, written from Spec/FORMAT.md alone
 * (section numbers below are the specification's).
 *
 * Opening memory-maps the file and makes the O(1) checks of section 13.1; a lookup walks the
 * directory (11.1) and evaluates one record (11.2, 11.3; in a layer of banded polygons, 3.5, it
 * skips the runs whose band shows they cannot flip, 8.5.1) with the bounds checks of 13.2, in
 * wrapping 64-bit arithmetic (section 12: a corrupt vertex gives a wrong answer, never a trap).
 * Nothing is allocated per lookup.
 */
#define _POSIX_C_SOURCE 200809L

#include "gmap_ref.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

/* ---------------------------------------------------------------------------------------------
 * Little-endian loads (section 1: unaligned, little-endian)
 * ------------------------------------------------------------------------------------------- */

static uint16_t rd16(const uint8_t *p) { return (uint16_t)(p[0] | (p[1] << 8)); }
static uint32_t rd32(const uint8_t *p)
{
    return (uint32_t)p[0] | ((uint32_t)p[1] << 8) | ((uint32_t)p[2] << 16) | ((uint32_t)p[3] << 24);
}
static uint64_t rd64(const uint8_t *p) { return (uint64_t)rd32(p) | ((uint64_t)rd32(p + 4) << 32); }

static inline uint64_t ld64(const uint8_t *p)
{
#if defined(__BYTE_ORDER__) && defined(__ORDER_LITTLE_ENDIAN__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    uint64_t v;
    memcpy(&v, p, 8);
    return v;
#else
    return rd64(p);
#endif
}

static inline int popcount64(uint64_t v)
{
#if defined(__GNUC__) && defined(__POPCNT__)
    return __builtin_popcountll(v);
#else /* without a popcount instruction, the SWAR count beats a library call */
    v = v - ((v >> 1) & UINT64_C(0x5555555555555555));
    v = (v & UINT64_C(0x3333333333333333)) + ((v >> 2) & UINT64_C(0x3333333333333333));
    v = (v + (v >> 4)) & UINT64_C(0x0F0F0F0F0F0F0F0F);
    return (int)((v * UINT64_C(0x0101010101010101)) >> 56);
#endif
}

static inline int ctz64(uint64_t v) /* v != 0 */
{
#if defined(__GNUC__)
    return __builtin_ctzll(v);
#else
    int c = 0;
    while (!(v & 1)) { v >>= 1; c++; }
    return c;
#endif
}

/* Wrapping signed arithmetic (two's complement), so that a corrupt file cannot cause undefined
   behaviour; for in-range values these are the exact results (section 12). */
static inline int64_t wadd(int64_t a, int64_t b) { return (int64_t)((uint64_t)a + (uint64_t)b); }
static inline int64_t wsub(int64_t a, int64_t b) { return (int64_t)((uint64_t)a - (uint64_t)b); }
static inline int64_t wmul(int64_t a, int64_t b) { return (int64_t)((uint64_t)a * (uint64_t)b); }

static inline int64_t unzigzag(uint64_t z) { return (int64_t)((z >> 1) ^ (0 - (z & 1))); }

/* field(P, bit, w) of section 1, 0 <= w <= 64, for a bit stream starting at base with `avail`
   readable bytes from base on. The caller has checked that the field's own bytes lie inside;
   bytes past `avail` are never touched (they read as zero). */
static inline uint64_t field(const uint8_t *base, uint64_t avail, uint64_t bit, unsigned w)
{
    uint64_t bi, v;
    unsigned sh;
    if (w == 0) return 0;
    bi = bit >> 3;
    sh = (unsigned)(bit & 7);
    if (bi < avail && avail - bi >= 9) {
        v = ld64(base + bi) >> sh;
        if (sh + w > 64) v |= (uint64_t)base[bi + 8] << (64 - sh);
    } else {
        unsigned nb = (sh + w + 7) / 8, i;
        v = 0;
        for (i = 0; i < nb && bi + i < avail; i++) {
            if (i == 0) v = (uint64_t)(base[bi] >> sh);
            else v |= (uint64_t)base[bi + i] << (8 * i - sh);
        }
    }
    return w >= 64 ? v : (v & ((UINT64_C(1) << w) - 1));
}

/* A varint (section 1) at t[*pos], t holding len bytes. Returns 0 when it runs past the end or is
   longer than 10 bytes. Of a tenth byte only the lowest bit counts (bit 63 of the value): the bits
   that would lie above 2^64 are dropped, as the reference reader does (13.2). */
static inline int get_varint(const uint8_t *t, uint64_t len, uint64_t *pos, uint64_t *out)
{
    uint64_t p = *pos, v = 0;
    unsigned shift = 0;
    int i;
    if (p < len && t[p] < 0x80) {
        *out = t[p];
        *pos = p + 1;
        return 1;
    }
    for (i = 0; i < 10; i++) {
        uint8_t b;
        if (p >= len) return 0;
        b = t[p++];
        if (i == 9) {
            if (b & 0x80) return 0;
            v |= (uint64_t)(b & 1) << 63;
        } else {
            v |= (uint64_t)(b & 0x7f) << shift;
        }
        if (!(b & 0x80)) {
            *out = v;
            *pos = p;
            return 1;
        }
        shift += 7;
    }
    return 0;
}

static inline int get_svarint(const uint8_t *t, uint64_t len, uint64_t *pos, int64_t *out)
{
    uint64_t z;
    if (!get_varint(t, len, pos, &z)) return 0;
    *out = unzigzag(z);
    return 1;
}

/* The number of non-zero 2-bit kinds among the first `n` kinds of the bytes at k (7.3, 5.1.1). */
static inline uint64_t count_kinds(const uint8_t *k, uint64_t n)
{
    uint64_t c = 0, i, whole = n >> 2;
    for (i = 0; i + 8 <= whole; i += 8) {
        uint64_t w = ld64(k + i);
        c += (uint64_t)popcount64((w | (w >> 1)) & UINT64_C(0x5555555555555555));
    }
    for (; i < whole; i++) {
        unsigned b = k[i];
        c += (uint64_t)popcount64((b | (b >> 1)) & 0x55);
    }
    if (n & 3) {
        unsigned b = k[whole] & ((1u << (2 * (n & 3))) - 1);
        c += (uint64_t)popcount64((b | (b >> 1)) & 0x55);
    }
    return c;
}

/* ---------------------------------------------------------------------------------------------
 * The query point (10.4) and the crossing test (11.6)
 * ------------------------------------------------------------------------------------------- */

typedef struct {
    int64_t x, y;   /* whole-unit parts, rounded towards -inf */
    int64_t fx, fy; /* fractions, 0 ... 2^24 - 1 */
} gm_point;

/* round_half_away_from_zero(v) of section 9 (C's round()) for |v| < 2^62, without a library
   call: truncation is exact, and so is v - trunc(v). */
static inline int64_t round_away(double v)
{
    int64_t t = (int64_t)v;
    double frac = v - (double)t;
    if (frac >= 0.5) t++;
    else if (frac <= -0.5) t--;
    return t;
}

static int query_point(double lat, double lon, uint32_t units, gm_point *q)
{
    double scale = (double)units * 16777216.0;
    int64_t X, Y, lim;
    if (!(lat >= -90.0 && lat <= 90.0) || !(lon >= -180.0 && lon <= 180.0)) return 0; /* 10.1 */
    X = round_away(lon * scale); /* ties away from zero (section 9) */
    Y = round_away(lat * scale);
    lim = (int64_t)180 * units * 16777216;
    if (X >= lim) X = -lim;
    lim = (int64_t)90 * units * 16777216;
    if (Y >= lim) Y = ((int64_t)90 * units - 1) * 16777216;
    q->fx = (int64_t)((uint64_t)X & 0xFFFFFF);
    q->fy = (int64_t)((uint64_t)Y & 0xFFFFFF);
    q->x = (X - q->fx) / 16777216;
    q->y = (Y - q->fy) / 16777216;
    return 1;
}

/* less(D, g, L): whether D * 2^24 < g, for |g| < 2^24 * L (11.6) */
static inline int less24(int64_t d, int64_t g, int64_t l)
{
    if (d >= l) return 0;
    if (d <= wsub(0, l)) return 1;
    return wmul(d, 16777216) < g;
}

/* flips(p, E, S, a, b) of sections 11.5 and 11.6. */
#if defined(__GNUC__)
__attribute__((always_inline))
#endif
static inline int flips(const gm_point *q, int64_t E, int64_t S, int64_t ax, int64_t ay, int64_t bx,
                        int64_t by)
{
    int f = 0;
    const int64_t x = q->x, y = q->y, fx = q->fx, fy = q->fy;
    if ((ay > y) != (by > y)) { /* horizontal leg */
        int64_t lx, ly, hx, hy, rise, dx, adx, A, B, C;
        if (ay < by) { lx = ax; ly = ay; hx = bx; hy = by; }
        else { lx = bx; ly = by; hx = ax; hy = ay; }
        rise = wsub(hy, ly);
        dx = wsub(hx, lx);
        adx = dx < 0 ? wsub(0, dx) : dx;
        A = wmul(wsub(x, lx), rise);
        B = wmul(wsub(y, ly), dx);
        C = wmul(wsub(E, lx), rise);
        if (less24(wsub(A, B), wsub(wmul(fy, dx), wmul(fx, rise)), wadd(adx, rise)) &&
            !less24(wsub(C, B), wmul(fy, dx), wadd(adx, 1)))
            f = 1;
    }
    if ((ax > E) != (bx > E) && (y > S || fy > 0)) { /* vertical leg */
        int64_t lx, ly, rx, ry, run, rise, lift, D, atCorner;
        int belowPoint, belowCorner;
        if (ax < bx) { lx = ax; ly = ay; rx = bx; ry = by; }
        else { lx = bx; ly = by; rx = ax; ry = ay; }
        run = wsub(rx, lx);
        rise = wsub(ry, ly);
        lift = wmul(wsub(E, lx), rise);
        D = wsub(lift, wmul(wsub(y, ly), run));
        if (D < 0) belowPoint = 1;
        else if (D == 0) belowPoint = fy > 0 || rise <= 0;
        else if (D >= run) belowPoint = 0;
        else {
            int64_t l = wmul(D, 16777216), r = wmul(fy, run);
            belowPoint = l < r || (l == r && rise <= 0);
        }
        atCorner = wmul(wsub(S, ly), run);
        belowCorner = lift < atCorner || (lift == atCorner && rise <= 0);
        if (belowPoint && !belowCorner) f ^= 1;
    }
    return f;
}

/* ---------------------------------------------------------------------------------------------
 * Answers
 * ------------------------------------------------------------------------------------------- */

typedef struct {
    uint32_t *out;
    int cap;
    int count;
    int first_only; /* lookup: stop at the first answer */
    int64_t last;   /* the feature reported last (3.2: a record's slots report each feature once) */
} gm_answers;

static inline void report(gm_answers *a, uint64_t feature)
{
    a->last = (int64_t)feature;
    if (a->count < a->cap) a->out[a->count] = (uint32_t)feature;
    a->count++;
}

/* ---------------------------------------------------------------------------------------------
 * Records of versions 1 and 2 (8.1-8.3, 11.2, checks of 13.2)
 * ------------------------------------------------------------------------------------------- */

static void record12(const gm_map *m, const gm_layer *L, uint64_t off, const gm_point *q, int64_t W,
                     int64_t S, int64_t E, gm_answers *a)
{
    const uint8_t *t = L->tile.p;
    const uint64_t tlen = L->tile.len;
    const int v2 = m->major == 2;
    const int64_t wx_max = (int64_t)180 * m->units, wy_max = (int64_t)90 * m->units;
    uint64_t pos = off, n, e, index = 0;
    if (pos >= tlen) return;
    if (!get_varint(t, tlen, &pos, &n) || n > tlen - pos) return;
    for (e = 0; e < n; e++) {
        uint64_t head, runs, ri;
        int inside;
        if (!get_varint(t, tlen, &pos, &head) || !get_varint(t, tlen, &pos, &runs)) return;
        if (runs > tlen - pos) return;
        index += head >> 1;
        if (index >= L->feature_count) return;
        inside = (int)(head & 1);
        for (ri = 0; ri < runs; ri++) {
            uint64_t vc, left, k;
            int64_t ax, ay, d0x, d0y;
            if (!get_varint(t, tlen, &pos, &vc)) return;
            left = tlen - pos;
            if (vc < 2) return;
            if (v2) {
                if ((vc - 1) / 8 + (((vc - 1) & 7) != 0) > left) return; /* n - 1 <= 8 * left, without overflow */
            } else {
                if (vc - 1 > left / 2) return; /* n <= left div 2 + 1 */
            }
            if (!get_svarint(t, tlen, &pos, &d0x) || !get_svarint(t, tlen, &pos, &d0y)) return;
            ax = wadd(W, d0x);
            ay = wadd(S, d0y);
            if (v2) {
                unsigned wx, wy, p;
                uint64_t nbytes, bit = 0;
                const uint8_t *packed;
                if (tlen - pos < 2) return;
                wx = t[pos];
                wy = t[pos + 1];
                pos += 2;
                if (wx > 33 || wy > 33) return;
                p = wx + wy;
                nbytes = ((vc - 1) * p + 7) / 8;
                if (nbytes > tlen - pos) return;
                packed = t + pos;
                left = tlen - pos; /* readable bytes from packed on */
                for (k = 1; k < vc; k++) {
                    int64_t bx, by;
                    if (p <= 56 && (bit >> 3) + 8 <= left) {
                        uint64_t v = ld64(packed + (bit >> 3)) >> (bit & 7);
                        uint64_t zx = wx ? (v & ((UINT64_C(1) << wx) - 1)) : 0;
                        uint64_t zy = wy ? ((v >> wx) & ((UINT64_C(1) << wy) - 1)) : 0;
                        bx = wadd(ax, unzigzag(zx));
                        by = wadd(ay, unzigzag(zy));
                    } else {
                        bx = wadd(ax, unzigzag(field(packed, left, bit, wx)));
                        by = wadd(ay, unzigzag(field(packed, left, bit + wx, wy)));
                    }
                    bit += p;
                    if (flips(q, E, S, ax, ay, bx, by)) inside ^= 1;
                    ax = bx;
                    ay = by;
                }
                pos += nbytes;
            } else {
                if (ax < -wx_max || ax > wx_max || ay < -wy_max || ay > wy_max) return;
                for (k = 1; k < vc; k++) {
                    int64_t dx, dy, bx, by;
                    if (!get_svarint(t, tlen, &pos, &dx) || !get_svarint(t, tlen, &pos, &dy)) return;
                    bx = wadd(ax, dx);
                    by = wadd(ay, dy);
                    if (bx < -wx_max || bx > wx_max || by < -wy_max || by > wy_max) return;
                    if (flips(q, E, S, ax, ay, bx, by)) inside ^= 1;
                    ax = bx;
                    ay = by;
                }
            }
        }
        if (inside) {
            report(a, index);
            if (a->first_only) return;
        }
    }
}

/* ---------------------------------------------------------------------------------------------
 * Records of version 3 (8.5, 8.5.1, 8.6, 11.3, checks of 13.2)
 * ------------------------------------------------------------------------------------------- */

/* The slots' feature indexes, read forward as slots are answered (8.5, 11.3). */
typedef struct {
    uint64_t pos;   /* the next feature varint in TILE */
    unsigned next;  /* the slot it belongs to */
    uint64_t index; /* the feature of slot next - 1 */
} gm_slots;

/* Report the feature of each slot set in `set` (ascending, above the slots reported before), each
   feature once. Returns 0 when the lookup ends: lookup has its answer, or a feature index is out
   of range (13.2). */
static int report_slots(const gm_layer *L, gm_slots *sl, uint64_t set, gm_answers *a)
{
    while (set) {
        unsigned slot = (unsigned)ctz64(set);
        set &= set - 1;
        while (sl->next <= slot) {
            uint64_t d;
            if (!get_varint(L->tile.p, L->tile.len, &sl->pos, &d)) return 0; /* checked before */
            sl->index += d;
            sl->next++;
        }
        if (sl->index >= L->feature_count) return 0;
        if ((int64_t)sl->index == a->last) continue; /* 3.2: another parity group of the feature */
        report(a, sl->index);
        if (a->first_only) return 0;
    }
    return 1;
}

static inline uint64_t low_bits(unsigned n) { return n >= 64 ? ~UINT64_C(0) : (UINT64_C(1) << n) - 1; }

/* row(v) or column(v) of section 8.5.1: clamp(floor(cells·(v − lo) / span), 0, cells − 1), for
   span = N − S or E − W ≥ 1 (a part is at least one unit wide, 11.1) and v in or near the tile. */
static inline unsigned band_cell(int64_t v, int64_t lo, int64_t span, int64_t cells)
{
    int64_t d = wsub(v, lo), c;
    if (d < 0) return 0; /* floor of a negative quotient is negative: clamped to 0 */
    c = wmul(d, cells) / span;
    return c >= cells ? (unsigned)(cells - 1) : (unsigned)c;
}

static void record3(const gm_layer *L, uint64_t off, const gm_point *q, int64_t W, int64_t S, int64_t E,
                    int64_t N, gm_answers *a)
{
    const uint8_t *t = L->tile.p;
    const uint64_t tlen = L->tile.len;
    const int banded = L->geometry == 4; /* 8.5.1: a band byte after each run's m */
    uint64_t pos = off, n, r, ri, parity = 0, nb, i, d;
    unsigned M, wfx = 0, wfy = 0, settled = 0, qrow = 0, qcolumn = 0;
    gm_slots sl;
    if (banded) { /* 8.5.1: the query's row and column in the leaf tile, once per record */
        qrow = band_cell(q->y, S, N - S, 8);
        qcolumn = band_cell(q->x, W, E - W, 4);
    }
    if (pos >= tlen) return;
    if (!get_varint(t, tlen, &pos, &n) || n < 1 || n > 64) return;
    sl.pos = pos;
    sl.next = 0;
    sl.index = 0;
    for (i = 0; i < n; i++)
        if (!get_varint(t, tlen, &pos, &d)) return;
    nb = (n + 7) / 8;
    if (tlen - pos < nb) return;
    for (i = 0; i < nb; i++) parity |= (uint64_t)t[pos + i] << (8 * i);
    parity &= low_bits((unsigned)n);
    pos += nb;
    if (!get_varint(t, tlen, &pos, &r) || r > tlen - pos) return;
    if (r > 0) {
        if (tlen - pos < 2) return;
        wfx = t[pos];
        wfy = t[pos + 1];
        pos += 2;
        if (wfx > 33 || wfy > 33) return;
    }
    M = n > 1 ? (unsigned)n : 0;
    for (ri = 0; ri < r; ri++) {
        uint64_t mc, left, mask, b, k, bit;
        unsigned head, wx, wy, p, low;
        const uint8_t *st;
        int64_t ax, ay;
        int odd = 0;
        unsigned band = 0;
        /* the run, checked whole before it is used (13.2) */
        if (!get_varint(t, tlen, &pos, &mc) || mc < 2) return;
        left = tlen - pos;
        if ((mc - 1) / 8 + (((mc - 1) & 7) != 0) > left) return; /* m - 1 <= 8 * left, without overflow */
        if (banded) { /* 8.5.1, 13.2: the band, then the stream after it */
            if (left < 1) return;
            band = t[pos++];
            left--;
        }
        head = M + wfx + wfy + 12;
        if ((head + 7) / 8 > left) return;
        st = t + pos;
        mask = M ? field(st, left, 0, M) : 1;
        if (mask == 0) return;
        wx = (unsigned)field(st, left, M + wfx + wfy, 6);
        wy = (unsigned)field(st, left, M + wfx + wfy + 6, 6);
        if (wx > 33 || wy > 33) return;
        p = wx + wy;
        b = head + (mc - 1) * p;
        if ((b + 7) / 8 > left) return;
        pos += (b + 7) / 8;
        /* 11.3: runs come by their lowest slot, so every slot below it is settled */
        low = (unsigned)ctz64(mask);
        if (low > settled) {
            if (!report_slots(L, &sl, parity & low_bits(low) & ~low_bits(settled), a)) return;
            settled = low;
        }
        /* 8.5.1: a run wholly south, north (and not crossing the east side) or west of the point
           has no edge that flips; it is not decoded and leaves parity as it is */
        if (banded && (qrow < (band & 7) || qrow > ((band >> 3) & 7) || qcolumn > (band >> 6))) continue;
        ax = wadd(W, unzigzag(field(st, left, M, wfx)));
        ay = wadd(S, unzigzag(field(st, left, M + wfx, wfy)));
        bit = head;
        if (p <= 56) {
            const uint64_t mx = low_bits(wx), my = low_bits(wy);
            for (k = 1; k < mc; k++) {
                int64_t bx, by;
                uint64_t v;
                if ((bit >> 3) + 8 <= left) v = ld64(st + (bit >> 3)) >> (bit & 7);
                else v = field(st, left, bit, p);
                bx = wadd(ax, unzigzag(v & mx));
                by = wadd(ay, unzigzag((v >> wx) & my));
                bit += p;
                if (flips(q, E, S, ax, ay, bx, by)) odd ^= 1;
                ax = bx;
                ay = by;
            }
        } else {
            for (k = 1; k < mc; k++) {
                int64_t bx = wadd(ax, unzigzag(field(st, left, bit, wx)));
                int64_t by = wadd(ay, unzigzag(field(st, left, bit + wx, wy)));
                bit += p;
                if (flips(q, E, S, ax, ay, bx, by)) odd ^= 1;
                ax = bx;
                ay = by;
            }
        }
        if (odd) parity ^= mask;
    }
    report_slots(L, &sl, parity & ~low_bits(settled), a);
}

/* ---------------------------------------------------------------------------------------------
 * The directory (11.1)
 * ------------------------------------------------------------------------------------------- */

/* The entry of top-level tile t of a packed directory (5.1.1); 0 when it cannot be read (13.2). */
static int packed_entry(const gm_layer *L, uint64_t t, uint32_t *entry)
{
    const uint8_t *g = L->grid.p;
    const uint8_t *kinds = g + 32;
    unsigned kind = (kinds[t >> 2] >> (2 * (t & 3))) & 3;
    uint64_t rank, block, before, first, avail, payload;
    unsigned w = L->packed_width;
    if (kind == 0) {
        *entry = 0;
        return 1;
    }
    block = (t >> 6) * 16; /* the first kinds byte of t's block of 64 tiles */
    before = t & 63;       /* tiles of the block before t */
    rank = rd32(g + 32 + L->packed_kb + 4 * (t >> 6));
    if (32 + block + 16 <= L->grid.len) {
        uint64_t w0 = ld64(kinds + block), w1 = ld64(kinds + block + 8);
        w0 = (w0 | (w0 >> 1)) & UINT64_C(0x5555555555555555);
        w1 = (w1 | (w1 >> 1)) & UINT64_C(0x5555555555555555);
        if (before < 32) rank += (uint64_t)popcount64(w0 & ((UINT64_C(1) << (2 * before)) - 1));
        else rank += (uint64_t)popcount64(w0) +
                     (uint64_t)popcount64(w1 & ((UINT64_C(1) << (2 * (before - 32))) - 1));
    } else {
        rank += count_kinds(kinds + block, before);
    }
    first = rank * w;
    avail = L->grid.len - (33 + L->packed_kb + L->packed_sb);
    if (w > 0 && (first + w + 7) / 8 > avail) return 0;
    payload = field(g + 33 + L->packed_kb + L->packed_sb, avail, first, w);
    if (payload > 0x3FFFFFFF) return 0;
    *entry = (uint32_t)(kind << 30) | (uint32_t)payload;
    return 1;
}

/* Whether a layer answers containment: polygons (geometry 0) or banded polygons (4, 8.5.1). */
static inline int polygons(const gm_layer *L) { return L->geometry == 0 || L->geometry == 4; }

/* Evaluate the point in a layer of polygons. */
static void lookup_layer(const gm_map *m, const gm_layer *L, const gm_point *q, gm_answers *a)
{
    int64_t dx, dy, W, S, E, N;
    uint64_t c, r, t, value;
    unsigned kind, depth = 0;
    const int64_t f = L->split;
    uint32_t entry;

    dx = q->x - L->origin_x; /* step 2 */
    dy = q->y - L->origin_y;
    if (dx < 0 || dy < 0) return;
    c = (uint64_t)dx / (uint64_t)L->tile_width;
    r = (uint64_t)dy / (uint64_t)L->tile_height;
    if (c >= L->columns || r >= L->rows) return;
    W = L->origin_x + (int64_t)c * L->tile_width;
    S = L->origin_y + (int64_t)r * L->tile_height;
    E = W + L->tile_width;
    N = S + L->tile_height;
    t = r * L->columns + c;
    if (m->major <= 2 || L->top_form == 0) entry = rd32(L->grid.p + 32 + 4 * t);
    else if (!packed_entry(L, t, &entry)) return;
    kind = entry >> 30;
    value = entry & 0x3FFFFFFF;
    if (m->major == 3 && kind >= 2 && value >= L->tile.len) return; /* 13.2 */

    while (kind == 3) { /* step 3 */
        int64_t w = E - W, h = N - S, i, j, s, nW, nS, nE, nN;
        depth++;
        if (depth > L->max_depth) return;
        if (w < f || h < f) return;
        i = ((q->x - W) * f) / w;
        j = ((q->y - S) * f) / h;
        s = j * f + i;
        if (m->major <= 2) {
            if (value >= L->subdirectory_count) return;
            entry = rd32(L->grid.p + 32 + 4 * (L->columns * L->rows) + 4 * (value * (uint64_t)(f * f) + (uint64_t)s));
            kind = entry >> 30;
            value = entry & 0x3FFFFFFF;
        } else {
            const uint8_t *tp = L->tile.p;
            const uint64_t tlen = L->tile.len, P = value;
            const uint64_t K = (uint64_t)(2 * f * f + 7) / 8;
            if (P + (uint64_t)s / 4 >= tlen) return;
            kind = (tp[P + (uint64_t)s / 4] >> (2 * (s % 4))) & 3;
            if (kind != 0) {
                unsigned width;
                uint64_t rank, first, payload;
                if (P + K >= tlen) return;
                width = tp[P + K];
                if (width > 32) return;
                rank = count_kinds(tp + P, (uint64_t)s);
                first = rank * width;
                if (width > 0 && (first + width + 7) / 8 > tlen - (P + K + 1)) return;
                payload = field(tp + P + K + 1, tlen - (P + K + 1), first, width);
                if (kind == 1) value = payload;
                else {
                    if (payload == 0 || payload > P) return;
                    value = P - payload;
                }
            }
        }
        /* the part's bounds, all four from the parent's W, S, w and h */
        nW = W + (i * w + f - 1) / f;
        nE = W + ((i + 1) * w + f - 1) / f;
        nS = S + (j * h + f - 1) / f;
        nN = S + ((j + 1) * h + f - 1) / f;
        W = nW; E = nE; S = nS; N = nN;
    }
    if (kind == 0) return; /* step 4 */
    if (kind == 1) {
        if (value < L->feature_count) report(a, value);
        return;
    }
    if (m->major == 3) record3(L, value, q, W, S, E, N, a);
    else record12(m, L, value, q, W, S, E, a);
}

int gm_lookup_all(const gm_map *m, int layer, double lat, double lon, uint32_t *out, int cap)
{
    gm_answers a;
    gm_point q;
    const gm_layer *L;
    if (layer < 0 || layer >= m->layer_count) return 0;
    L = &m->layers[layer];
    if (L->refused || !polygons(L)) return 0; /* 8.7: no containment answer */
    if (!query_point(lat, lon, m->units, &q)) return 0;
    a.out = out; a.cap = cap; a.count = 0; a.first_only = 0; a.last = -1;
    lookup_layer(m, L, &q, &a);
    return a.count;
}

int64_t gm_lookup(const gm_map *m, int layer, double lat, double lon)
{
    gm_answers a;
    gm_point q;
    uint32_t one = 0;
    const gm_layer *L;
    if (layer < 0 || layer >= m->layer_count) return -1;
    L = &m->layers[layer];
    if (L->refused || !polygons(L)) return -1;
    if (!query_point(lat, lon, m->units, &q)) return -1;
    a.out = &one; a.cap = 1; a.count = 0; a.first_only = 1; a.last = -1;
    lookup_layer(m, L, &q, &a);
    return a.count ? (int64_t)one : -1;
}

void gm_feature_id(const gm_map *m, int layer, uint32_t index, const uint8_t **s, uint32_t *len)
{
    const gm_layer *L;
    const uint8_t *rec;
    uint32_t off, n;
    *s = (const uint8_t *)"";
    *len = 0;
    if (layer < 0 || layer >= m->layer_count) return;
    L = &m->layers[layer];
    if (index >= L->feature_count) return;
    rec = L->feat.p + 8 + (uint64_t)index * L->feature_record_length;
    off = rd32(rec);
    n = rd32(rec + 4);
    if ((uint64_t)off + n > m->strs.len) return; /* 5.5: absent, the empty string */
    *s = m->strs.p + off;
    *len = n;
}

int gm_layer_named(const gm_map *m, const char *name)
{
    int i;
    size_t n = strlen(name);
    for (i = 0; i < m->layer_count; i++)
        if (m->layers[i].name_len == n && memcmp(m->layers[i].name, name, n) == 0) return i;
    return -1;
}

/* ---------------------------------------------------------------------------------------------
 * Opening (sections 2-5, checks of 13.1)
 * ------------------------------------------------------------------------------------------- */

#define TAG(a, b, c, d) ((uint32_t)(a) | ((uint32_t)(b) << 8) | ((uint32_t)(c) << 16) | ((uint32_t)(d) << 24))

static int fail(char *err, size_t errlen, const char *fmt, ...)
{
    va_list ap;
    if (err && errlen) {
        va_start(ap, fmt);
        vsnprintf(err, errlen, fmt, ap);
        va_end(ap);
    }
    return -1;
}

static void tag_text(uint32_t tag, char out[5])
{
    int i;
    for (i = 0; i < 4; i++) {
        unsigned ch = (tag >> (8 * i)) & 0xFF;
        out[i] = (ch >= 0x20 && ch < 0x7F) ? (char)ch : '?';
    }
    out[4] = 0;
}

static gm_span find_section(const gm_map *m, uint32_t tag)
{
    gm_span s = { NULL, 0 };
    uint32_t count = rd32(m->data + 16), hl = rd32(m->data + 12), i;
    for (i = 0; i < count; i++) {
        const uint8_t *e = m->data + hl + 32 * (uint64_t)i;
        if (rd32(e) == tag) {
            s.p = m->data + rd64(e + 8);
            s.len = rd64(e + 16);
            return s;
        }
    }
    return s;
}

/* A table section (FEAT, PROP, META, LAYR, ...): u32 count, u32 record_length (check 11). */
static int table_ok(gm_span s, uint32_t minimum, uint32_t *count, uint32_t *reclen)
{
    if (s.len < 8) return 0;
    *count = rd32(s.p);
    *reclen = rd32(s.p + 4);
    if (*reclen < minimum || *reclen > 4096) return 0;
    if ((uint64_t)*count * *reclen > s.len - 8) return 0;
    return 1;
}

/* Checks 10 to 13 for one layer's sections. Returns 0, or -1 with a message. */
static int open_layer(gm_map *m, gm_layer *L, const char *lname, char *err, size_t errlen)
{
    const uint8_t *g = L->grid.p;
    const int64_t U = m->units;
    uint64_t T, dirbytes;
    uint32_t c, rl;
    if (L->grid.len < 32) return fail(err, errlen, "malformed: %sGRID is shorter than 32 bytes", lname);
    L->origin_x = (int32_t)rd32(g);
    L->origin_y = (int32_t)rd32(g + 4);
    L->tile_width = rd32(g + 8);
    L->tile_height = rd32(g + 12);
    L->columns = rd32(g + 16);
    L->rows = rd32(g + 20);
    L->split = g[24];
    L->max_depth = g[25];
    if (L->columns < 1 || L->rows < 1) return fail(err, errlen, "malformed: %sgrid has no tiles", lname);
    if (L->tile_width < 1 || L->tile_height < 1) return fail(err, errlen, "malformed: %stile size 0", lname);
    if (L->split < 2 || L->split > 16) return fail(err, errlen, "malformed: %ssplit factor %u", lname, L->split);
    if (L->max_depth > 24) return fail(err, errlen, "malformed: %smax depth %u", lname, L->max_depth);
    if (m->major == 3) {
        L->geometry = g[26];
        L->top_form = g[27];
        L->node_count = rd32(g + 28);
        if (L->top_form > 1) return fail(err, errlen, "malformed: %stop form %u", lname, L->top_form);
    } else {
        L->geometry = 0;
        L->top_form = 0;
        L->subdirectory_count = rd32(g + 28);
    }
    /* the extent (5.1): tile sizes first, so that the products cannot overflow */
    if (L->tile_width > 20 * U || L->tile_height > 20 * U || L->origin_x < -180 * U || L->origin_y < -90 * U ||
        L->origin_x + (int64_t)L->columns * L->tile_width > 200 * U ||
        L->origin_y + (int64_t)L->rows * L->tile_height > 110 * U)
        return fail(err, errlen, "malformed: %sgrid extent outside the world", lname);
    /* the directory fits in the section; T < 2^63 here, but 4 T need not fit in 64 bits */
    T = L->columns * L->rows;
    if (m->major <= 2 || L->top_form == 0) {
        uint64_t sub = m->major <= 2 ? (uint64_t)L->subdirectory_count * (uint64_t)(L->split * L->split) : 0;
        if (T > (UINT64_MAX - 32) / 4 - sub) return fail(err, errlen, "malformed: %sdirectory too large", lname);
        dirbytes = 32 + 4 * (T + sub);
        if (dirbytes > L->grid.len) return fail(err, errlen, "malformed: %sdirectory does not fit in GRID", lname);
    } else {
        L->packed_kb = (2 * T + 7) / 8;
        L->packed_sb = 4 * ((T + 63) / 64);
        if (32 + L->packed_kb + L->packed_sb + 1 > L->grid.len)
            return fail(err, errlen, "malformed: %spacked directory does not fit in GRID", lname);
        L->packed_width = g[32 + L->packed_kb + L->packed_sb];
        if (L->packed_width > 32) return fail(err, errlen, "malformed: %spacked width %u", lname, L->packed_width);
    }
    if (!table_ok(L->feat, 40, &L->feature_count, &L->feature_record_length))
        return fail(err, errlen, "malformed: %sFEAT", lname);
    if (L->feature_count >= 0x3FFFFFFF) return fail(err, errlen, "malformed: %stoo many features", lname);
    if (!table_ok(L->prop, 20, &L->property_count, &L->property_record_length))
        return fail(err, errlen, "malformed: %sPROP", lname);
    if (L->labels.p && !table_ok(L->labels, 8, &c, &rl)) return fail(err, errlen, "malformed: %sLABL", lname);
    if (L->names.p && !table_ok(L->names, 12, &c, &rl)) return fail(err, errlen, "malformed: %sNAME", lname);
    /* check 13: 0 to 2 and 4 are read; compact points (3, 5.12) are refused, as their point
       table is not implemented here */
    if (m->major == 3 && (L->geometry == 3 || L->geometry > 4)) L->refused = 1;
    return 0;
}

static int open_checked(gm_map *m, const uint8_t *data, uint64_t avail, char *err, size_t errlen)
{
    static const uint8_t magic[8] = { 0x89, 'G', 'M', 'A', 'P', 0x0D, 0x0A, 0x1A };
    uint64_t hl, count, i, j, flen;
    uint32_t lcount = 0, lreclen = 0;
    gm_span layr;

    m->data = data;
    if (avail < 64) return fail(err, errlen, "truncated: %llu bytes", (unsigned long long)avail); /* 1 */
    if (memcmp(data, magic, 8) != 0) return fail(err, errlen, "not a gmap file");             /* 2 */
    m->major = rd16(data + 8);
    m->minor = rd16(data + 10);
    if (m->major > 3)
        return fail(err, errlen, "gmap format version %u.%u is newer than this reader (reads 1.x to 3.x)", m->major, m->minor);
    if (m->major == 0) return fail(err, errlen, "malformed: major version 0");
    flen = rd64(data + 24); /* 4 */
    if (flen > avail) return fail(err, errlen, "truncated: the header says %llu bytes, the file has %llu",
                                  (unsigned long long)flen, (unsigned long long)avail);
    if (flen > (uint64_t)SIZE_MAX / 2) return fail(err, errlen, "too large for this platform");
    m->file_length = flen;
    hl = rd32(data + 12); /* 5 */
    if (hl < 64 || hl > flen) return fail(err, errlen, "malformed: header length %llu", (unsigned long long)hl);
    m->units = rd32(data + 20); /* 6 */
    if (m->units < 1 || m->units > 10000000) return fail(err, errlen, "malformed: units per degree %u", m->units);
    count = rd32(data + 16); /* 7 */
    if (count > 64 || hl + 32 * count > flen) return fail(err, errlen, "malformed: section table");
    for (i = 0; i < count; i++) { /* 8 */
        const uint8_t *e = data + hl + 32 * i;
        uint64_t off = rd64(e + 8), len = rd64(e + 16);
        char tt[5];
        tag_text(rd32(e), tt);
        if (off > flen || len > flen - off) return fail(err, errlen, "malformed: section %s outside the file", tt);
        if (off % 8) return fail(err, errlen, "malformed: section %s not aligned to 8", tt);
        for (j = 0; j < i; j++)
            if (rd32(data + hl + 32 * j) == rd32(e)) return fail(err, errlen, "malformed: section %s twice", tt);
    }
    {
        static const uint32_t required[5] = { TAG('G', 'R', 'I', 'D'), TAG('T', 'I', 'L', 'E'), TAG('F', 'E', 'A', 'T'),
                                              TAG('P', 'R', 'O', 'P'), TAG('S', 'T', 'R', 'S') };
        for (i = 0; i < 5; i++) /* 9 */
            if (!find_section(m, required[i]).p) {
                char tt[5];
                tag_text(required[i], tt);
                return fail(err, errlen, "malformed: no %s section", tt);
            }
    }
    m->strs = find_section(m, TAG('S', 'T', 'R', 'S'));
    m->meta = find_section(m, TAG('M', 'E', 'T', 'A'));
    if (m->meta.p) {
        uint32_t c, rl;
        if (!table_ok(m->meta, 16, &c, &rl)) return fail(err, errlen, "malformed: META");
    }
    layr = find_section(m, TAG('L', 'A', 'Y', 'R'));
    if (layr.p) {
        m->has_layr = 1;
        if (!table_ok(layr, 32, &lcount, &lreclen)) return fail(err, errlen, "malformed: LAYR");
        if (lcount < 1 || lcount > GM_MAX_LAYERS) return fail(err, errlen, "malformed: %u layers", lcount);
        for (i = 0; i < lcount; i++) {
            const uint8_t *rec = layr.p + 8 + i * lreclen;
            gm_layer *L = &m->layers[i];
            uint32_t no = rd32(rec), nl = rd32(rec + 4);
            uint32_t tags[6];
            for (j = 0; j < 6; j++) tags[j] = rd32(rec + 8 + 4 * j);
            if ((uint64_t)no + nl > m->strs.len) return fail(err, errlen, "malformed: layer %llu's name is not in STRS", (unsigned long long)i + 1);
            if (i == 0 && (tags[0] != TAG('G', 'R', 'I', 'D') || tags[1] != TAG('T', 'I', 'L', 'E') ||
                           tags[2] != TAG('F', 'E', 'A', 'T') || tags[3] != TAG('P', 'R', 'O', 'P')))
                return fail(err, errlen, "malformed: the first layer must use GRID, TILE, FEAT and PROP");
            L->name = m->strs.p + no;
            L->name_len = nl;
            L->grid = find_section(m, tags[0]);
            L->tile = find_section(m, tags[1]);
            L->feat = find_section(m, tags[2]);
            L->prop = find_section(m, tags[3]);
            if (tags[4]) L->labels = find_section(m, tags[4]); /* a tag naming no section: none */
            if (tags[5]) L->names = find_section(m, tags[5]);
            for (j = 0; j < 4; j++)
                if (!find_section(m, tags[j]).p) {
                    char tt[5];
                    tag_text(tags[j], tt);
                    return fail(err, errlen, "malformed: layer %llu's section %s is missing", (unsigned long long)i + 1, tt);
                }
        }
        m->layer_count = (int)lcount;
    } else {
        gm_layer *L = &m->layers[0];
        L->name = (const uint8_t *)"";
        L->name_len = 0;
        L->grid = find_section(m, TAG('G', 'R', 'I', 'D'));
        L->tile = find_section(m, TAG('T', 'I', 'L', 'E'));
        L->feat = find_section(m, TAG('F', 'E', 'A', 'T'));
        L->prop = find_section(m, TAG('P', 'R', 'O', 'P'));
        L->labels = find_section(m, TAG('L', 'A', 'B', 'L'));
        L->names = find_section(m, TAG('N', 'A', 'M', 'E'));
        m->layer_count = 1;
    }
    for (i = 0; i < (uint64_t)m->layer_count; i++) {
        char lname[300];
        gm_layer *L = &m->layers[i];
        if (m->has_layr && m->layer_count > 1)
            snprintf(lname, sizeof lname, "layer '%.*s': ", (int)(L->name_len > 255 ? 255 : L->name_len), (const char *)L->name);
        else
            lname[0] = 0;
        if (open_layer(m, L, lname, err, errlen) != 0) return -1;
    }
    if (m->layers[0].refused)
        return fail(err, errlen, "unsupported geometry: the first layer holds geometry kind %u", m->layers[0].geometry);
    return 0;
}

int gm_open_buffer(gm_map *m, const uint8_t *data, size_t len, char *err, size_t errlen)
{
    memset(m, 0, sizeof *m);
    if (open_checked(m, data, (uint64_t)len, err, errlen) != 0) {
        memset(m, 0, sizeof *m);
        return -1;
    }
    return 0;
}

int gm_open_file(gm_map *m, const char *path, char *err, size_t errlen)
{
    int fd;
    struct stat st;
    void *p;
    static const uint8_t nothing[1] = { 0 };
    memset(m, 0, sizeof *m);
    fd = open(path, O_RDONLY);
    if (fd < 0) return fail(err, errlen, "cannot open %s: %s", path, strerror(errno));
    if (fstat(fd, &st) != 0) {
        close(fd);
        return fail(err, errlen, "cannot read %s: %s", path, strerror(errno));
    }
    if (st.st_size == 0) { /* mmap refuses 0 bytes */
        close(fd);
        return gm_open_buffer(m, nothing, 0, err, errlen);
    }
    if ((uint64_t)st.st_size > (uint64_t)SIZE_MAX / 2) {
        close(fd);
        return fail(err, errlen, "too large for this platform");
    }
    p = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
    close(fd);
    if (p == MAP_FAILED) return fail(err, errlen, "cannot map %s: %s", path, strerror(errno));
    if (gm_open_buffer(m, (const uint8_t *)p, (size_t)st.st_size, err, errlen) != 0) {
        munmap(p, (size_t)st.st_size);
        return -1;
    }
    m->mapping = p;
    m->mapping_len = (size_t)st.st_size;
    return 0;
}

void gm_close(gm_map *m)
{
    if (m->mapping) munmap(m->mapping, m->mapping_len);
    memset(m, 0, sizeof *m);
}
