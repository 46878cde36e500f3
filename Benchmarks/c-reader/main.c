/*
 * main.c: the command line of the C reference reader.
 *
 *   gmap_ref MAP [--all] [--layer NAME] < POINTS
 *       one line per input line, as `gmap query MAP - [--all] [--layer NAME]` prints it: the
 *       smallest containing feature's id (every containing feature's, space-separated, with
 *       --all), or an empty line; on a map of several layers "layer=answer" pairs separated by
 *       spaces (with --all a layer's answers joined by commas).
 *   gmap_ref MAP --bench POINTS [--runs R] [--layer NAME] [--all]
 *       times lookups (the smallest containing feature; every one with --all) over the points,
 *       per point set ("# name: N points" lines, as `gmap bench --save-points` writes), and
 *       prints one line per set: name, points, found, runs, median and best ns per lookup.
 *   gmap_ref MAP --check
 *       opens the map and exits 0, or prints why it cannot be opened and exits 2.
 *   gmap_ref MAP --info
 *       one line per layer: name, geometry, units per degree, origin x and y, tile width and
 *       height (in units), columns and rows, tab-separated.
 */
#define _POSIX_C_SOURCE 200809L

#include "gmap_ref.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define MAX_ANSWERS 4096

static uint32_t answers[MAX_ANSWERS];

/* Write the bytes of s as UTF-8, each maximal invalid subpart replaced by U+FFFD (5.5). */
static void put_utf8(const uint8_t *s, uint32_t n, FILE *out)
{
    uint32_t i = 0;
    while (i < n) {
        uint8_t c = s[i];
        uint32_t need, j;
        uint8_t lo = 0x80, hi = 0xBF;
        if (c < 0x80) { putc(c, out); i++; continue; }
        if (c >= 0xC2 && c <= 0xDF) need = 1;
        else if (c >= 0xE0 && c <= 0xEF) {
            need = 2;
            if (c == 0xE0) lo = 0xA0;
            if (c == 0xED) hi = 0x9F;
        } else if (c >= 0xF0 && c <= 0xF4) {
            need = 3;
            if (c == 0xF0) lo = 0x90;
            if (c == 0xF4) hi = 0x8F;
        } else { fputs("\xEF\xBF\xBD", out); i++; continue; }
        for (j = 1; j <= need; j++) {
            uint8_t b = i + j < n ? s[i + j] : 0;
            if (i + j >= n || b < (j == 1 ? lo : 0x80) || b > (j == 1 ? hi : 0xBF)) break;
        }
        if (j <= need) { fputs("\xEF\xBF\xBD", out); i += j; continue; }
        fwrite(s + i, 1, need + 1, out);
        i += need + 1;
    }
}

/* Parse "lat lon", "lat,lon" or "lat, lon" (surrounding blanks allowed). */
static int parse_point(const char *line, double *lat, double *lon)
{
    char *end;
    const char *p = line;
    *lat = strtod(p, &end);
    if (end == p) return 0;
    p = end;
    while (*p == ' ' || *p == '\t') p++;
    if (*p == ',') {
        p++;
        while (*p == ' ' || *p == '\t') p++;
    } else if (p == end) {
        return 0;
    }
    *lon = strtod(p, &end);
    if (end == p) return 0;
    p = end;
    while (*p == ' ' || *p == '\t' || *p == '\r' || *p == '\n') p++;
    return *p == 0;
}

static int is_blank(const char *s)
{
    while (*s == ' ' || *s == '\t' || *s == '\r' || *s == '\n') s++;
    return *s == 0;
}

static void print_layer_answers(const gm_map *m, int layer, double lat, double lon, int all, FILE *out,
                                const char *sep)
{
    const uint8_t *s;
    uint32_t n;
    if (all) {
        int k = gm_lookup_all(m, layer, lat, lon, answers, MAX_ANSWERS), i;
        if (k > MAX_ANSWERS) k = MAX_ANSWERS;
        for (i = 0; i < k; i++) {
            if (i) fputs(sep, out);
            gm_feature_id(m, layer, answers[i], &s, &n);
            put_utf8(s, n, out);
        }
    } else {
        int64_t f = gm_lookup(m, layer, lat, lon);
        if (f >= 0) {
            gm_feature_id(m, layer, (uint32_t)f, &s, &n);
            put_utf8(s, n, out);
        }
    }
}

static int query(const gm_map *m, int layer, int all)
{
    char *line = NULL;
    size_t cap = 0;
    long lineno = 0, bad = 0;
    int status = 0;
    while (getline(&line, &cap, stdin) >= 0) {
        double lat, lon;
        lineno++;
        if (is_blank(line)) { putchar('\n'); continue; }
        if (!parse_point(line, &lat, &lon) || !(lat >= -90 && lat <= 90) || !(lon >= -180 && lon <= 180)) {
            fprintf(stderr, "gmap_ref: line %ld: cannot read a valid point\n", lineno);
            putchar('\n');
            bad++;
            status = 2;
            continue;
        }
        if (layer >= 0 || m->layer_count == 1) {
            print_layer_answers(m, layer >= 0 ? layer : 0, lat, lon, all, stdout, " ");
        } else {
            int l;
            for (l = 0; l < m->layer_count; l++) {
                if (l) putchar(' ');
                put_utf8(m->layers[l].name, m->layers[l].name_len, stdout);
                putchar('=');
                print_layer_answers(m, l, lat, lon, all, stdout, ",");
            }
        }
        putchar('\n');
    }
    free(line);
    if (bad) fprintf(stderr, "gmap_ref: %ld of %ld lines could not be read\n", bad, lineno);
    return status;
}

/* ------------------------------------------------------------------------------------------ */

typedef struct {
    char name[64];
    size_t first, count;
} point_set;

static double now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static int bench(const gm_map *m, int layer, int all, const char *path, int runs)
{
    FILE *f = fopen(path, "r");
    char *line = NULL;
    size_t cap = 0, n = 0, ncap = 0, si;
    double *pts = NULL;
    point_set sets[64];
    size_t nsets = 0;
    if (!f) { perror(path); return 2; }
    while (getline(&line, &cap, f) >= 0) {
        double lat, lon;
        if (line[0] == '#') {
            char name[64];
            if (sscanf(line, "# %63[^:]:", name) == 1 && nsets < 64) {
                strcpy(sets[nsets].name, name);
                sets[nsets].first = n;
                sets[nsets].count = 0;
                nsets++;
            }
            continue;
        }
        if (is_blank(line)) continue;
        if (!parse_point(line, &lat, &lon)) {
            if (n == 0) continue; /* a header line */
            fprintf(stderr, "gmap_ref: %s: cannot read '%s'\n", path, line);
            return 2;
        }
        if (n == ncap) {
            ncap = ncap ? 2 * ncap : 1 << 16;
            pts = realloc(pts, 2 * ncap * sizeof *pts);
            if (!pts) { fputs("gmap_ref: out of memory\n", stderr); return 2; }
        }
        pts[2 * n] = lat;
        pts[2 * n + 1] = lon;
        n++;
        if (nsets == 0) {
            strcpy(sets[0].name, "points");
            sets[0].first = 0;
            nsets = 1;
        }
        sets[nsets - 1].count++;
    }
    fclose(f);
    free(line);
    for (si = 0; si < nsets; si++) {
        const double *p = pts + 2 * sets[si].first;
        size_t cnt = sets[si].count, i;
        double *times = malloc((size_t)runs * sizeof *times);
        long found = 0;
        int r;
        if (cnt == 0) { free(times); continue; }
        for (r = -1; r < runs; r++) { /* run -1 warms up */
            double t0 = now_ns();
            long fnd = 0;
            if (all) {
                for (i = 0; i < cnt; i++) fnd += gm_lookup_all(m, layer, p[2 * i], p[2 * i + 1], answers, MAX_ANSWERS) > 0;
            } else {
                for (i = 0; i < cnt; i++) fnd += gm_lookup(m, layer, p[2 * i], p[2 * i + 1]) >= 0;
            }
            if (r >= 0) times[r] = (now_ns() - t0) / (double)cnt;
            found = fnd;
        }
        qsort(times, (size_t)runs, sizeof *times, cmp_double);
        printf("%s\t%zu\t%ld\t%d\t%.2f\t%.2f\n", sets[si].name, cnt, found, runs, times[runs / 2], times[0]);
        free(times);
    }
    free(pts);
    return 0;
}

int main(int argc, char **argv)
{
    gm_map m;
    char err[512];
    const char *path = NULL, *layer_name = NULL, *bench_file = NULL;
    int all = 0, runs = 11, check = 0, info = 0, layer = -1, i, status;
    for (i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--all")) all = 1;
        else if (!strcmp(argv[i], "--check")) check = 1;
        else if (!strcmp(argv[i], "--info")) info = 1;
        else if (!strcmp(argv[i], "--layer") && i + 1 < argc) layer_name = argv[++i];
        else if (!strcmp(argv[i], "--bench") && i + 1 < argc) bench_file = argv[++i];
        else if (!strcmp(argv[i], "--runs") && i + 1 < argc) runs = atoi(argv[++i]);
        else if (!strcmp(argv[i], "-")) continue;
        else if (argv[i][0] == '-' || path) {
            fprintf(stderr, "usage: gmap_ref MAP [--all] [--layer NAME] < points\n"
                            "       gmap_ref MAP --bench POINTS [--runs R] [--layer NAME] [--all]\n"
                            "       gmap_ref MAP --check | --info\n");
            return 2;
        } else path = argv[i];
    }
    if (!path || runs < 1) {
        fprintf(stderr, "usage: gmap_ref MAP [--all] [--layer NAME] < points\n");
        return 2;
    }
    if (gm_open_file(&m, path, err, sizeof err) != 0) {
        fprintf(stderr, "gmap_ref: %s: %s\n", path, err);
        return 2;
    }
    if (layer_name) {
        layer = gm_layer_named(&m, layer_name);
        if (layer < 0) {
            fprintf(stderr, "gmap_ref: %s has no layer '%s'\n", path, layer_name);
            gm_close(&m);
            return 2;
        }
    }
    if (check) status = 0;
    else if (info) {
        for (i = 0; i < m.layer_count; i++) {
            const gm_layer *L = &m.layers[i];
            put_utf8(L->name, L->name_len, stdout);
            printf("\t%u\t%u\t%lld\t%lld\t%lld\t%lld\t%llu\t%llu\n", L->geometry, m.units, (long long)L->origin_x,
                   (long long)L->origin_y, (long long)L->tile_width, (long long)L->tile_height,
                   (unsigned long long)L->columns, (unsigned long long)L->rows);
        }
        status = 0;
    }
    else if (bench_file) status = bench(&m, layer >= 0 ? layer : 0, all, bench_file, runs);
    else status = query(&m, layer, all);
    gm_close(&m);
    return status;
}
