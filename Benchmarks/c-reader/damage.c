/*
 * damage.c: damages a map many times and looks points up in each damaged copy, to show that
 * gmap_ref.c fails cleanly (refuses to open, or answers) and never reads outside the map.
 *
 *   cc -std=c99 -g -O1 -fsanitize=address,undefined -fno-sanitize-recover=all \
 *      -o damage damage.c gmap_ref.c -lm
 *   ./damage MAP [ITERATIONS] [SEED]
 *
 * For each section it attacks (every section of the map in turn), it first moves that section
 * to the end of the file (readers find sections by tag, section 4), so that the copy ends where
 * the section ends: any read past the section is then a read past the buffer, which
 * AddressSanitizer reports. Each iteration then overwrites 1 to 16 random bytes of the section
 * (or of the header and table, one iteration in 8), and one in 4 also cuts the section short
 * (its length in the table and the file length with it), then opens the copy and runs lookups
 * (every answer and the smallest) on random points and on points spread over the grid.
 */
#define _POSIX_C_SOURCE 200809L

#include "gmap_ref.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static uint64_t rng_state = 88172645463325252ULL;
static uint64_t rnd(void)
{
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return rng_state;
}
static double rnd01(void) { return (double)(rnd() >> 11) / 9007199254740992.0; }

static uint32_t get32(const uint8_t *p) { return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24; }
static uint64_t get64(const uint8_t *p) { return (uint64_t)get32(p) | (uint64_t)get32(p + 4) << 32; }
static void put64(uint8_t *p, uint64_t v)
{
    int i;
    for (i = 0; i < 8; i++) p[i] = (uint8_t)(v >> (8 * i));
}

/* A copy of the file with section `k` of the table moved to the end (8-aligned). */
static uint8_t *move_to_end(const uint8_t *f, size_t n, uint32_t k, size_t *out_len, uint64_t *sec_off)
{
    uint32_t hl = get32(f + 12);
    uint8_t *e = (uint8_t *)f + hl + 32 * (size_t)k;
    uint64_t off = get64(e + 8), len = get64(e + 16);
    size_t end = (n + 7) & ~(size_t)7, total = end + (size_t)len;
    uint8_t *c = malloc(total ? total : 1);
    memcpy(c, f, n);
    memset(c + n, 0, end - n);
    memcpy(c + end, f + off, (size_t)len);
    put64(c + hl + 32 * (size_t)k + 8, end);
    put64(c + 24, total);
    *out_len = total;
    *sec_off = end;
    return c;
}

int main(int argc, char **argv)
{
    FILE *fp;
    uint8_t *file;
    long fsize;
    uint32_t sections, k, hl;
    long iterations = argc > 2 ? atol(argv[2]) : 2000, opened = 0, refused = 0, lookups = 0, found = 0, it;
    static uint32_t out[256];
    if (argc < 2) {
        fprintf(stderr, "usage: damage MAP [ITERATIONS] [SEED]\n");
        return 2;
    }
    if (argc > 3) rng_state ^= strtoull(argv[3], NULL, 10) * 0x9E3779B97F4A7C15ULL;
    fp = fopen(argv[1], "rb");
    if (!fp) { perror(argv[1]); return 2; }
    fseek(fp, 0, SEEK_END);
    fsize = ftell(fp);
    fseek(fp, 0, SEEK_SET);
    file = malloc((size_t)fsize);
    if (fread(file, 1, (size_t)fsize, fp) != (size_t)fsize) { perror(argv[1]); return 2; }
    fclose(fp);
    hl = get32(file + 12);
    sections = get32(file + 16);
    for (k = 0; k < sections; k++) {
        size_t n;
        uint64_t soff, slen = get64(file + hl + 32 * (size_t)k + 16);
        uint8_t *moved = move_to_end(file, (size_t)fsize, k, &n, &soff);
        char tag[5];
        memcpy(tag, file + hl + 32 * (size_t)k, 4);
        tag[4] = 0;
        for (it = 0; it < iterations; it++) {
            size_t len = n;
            uint8_t *c;
            gm_map m;
            char err[256];
            int nb = 1 + (int)(rnd() % 16), b;
            c = malloc(len);
            memcpy(c, moved, len);
            for (b = 0; b < nb; b++) {
                if (it % 8 == 7) c[rnd() % (hl + 32 * (uint64_t)sections)] = (uint8_t)rnd();
                else if (slen) c[soff + rnd() % slen] = (uint8_t)rnd();
            }
            if (it % 4 == 3 && slen) { /* cut the section short */
                uint64_t cut = rnd() % slen;
                uint8_t *d;
                put64(c + hl + 32 * (size_t)k + 16, cut);
                put64(c + 24, soff + cut);
                len = (size_t)(soff + cut);
                d = malloc(len);
                memcpy(d, c, len);
                free(c);
                c = d;
            }
            if (gm_open_buffer(&m, c, len, err, sizeof err) == 0) {
                int l, p;
                opened++;
                for (l = 0; l < m.layer_count; l++) {
                    const gm_layer *L = &m.layers[l];
                    for (p = 0; p < 300; p++) {
                        double lat, lon;
                        int64_t one;
                        int cnt;
                        if (p % 2) {
                            lat = rnd01() * 180 - 90;
                            lon = rnd01() * 360 - 180;
                        } else { /* inside the grid's extent */
                            double w = (double)L->columns * (double)L->tile_width, h = (double)L->rows * (double)L->tile_height;
                            lon = ((double)L->origin_x + rnd01() * w) / m.units;
                            lat = ((double)L->origin_y + rnd01() * h) / m.units;
                            if (lon > 180) lon = 180;
                            if (lat > 90) lat = 90;
                        }
                        cnt = gm_lookup_all(&m, l, lat, lon, out, 256);
                        one = gm_lookup(&m, l, lat, lon);
                        lookups += 2;
                        found += cnt > 0;
                        if (cnt > 0) {
                            const uint8_t *s;
                            uint32_t sl;
                            gm_feature_id(&m, l, out[0], &s, &sl);
                        }
                        (void)one;
                    }
                }
            } else {
                refused++;
            }
            free(c);
        }
        printf("%s: %ld damaged copies\n", tag, iterations);
        free(moved);
    }
    printf("opened %ld, refused %ld, %ld lookups, %ld with answers; no crash, no read outside the map\n", opened,
           refused, lookups, found);
    free(file);
    return 0;
}
