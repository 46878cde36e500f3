/*
 * resident.c: how much of a map is in memory after opening it and after lookups.
 *
 *   resident MAP LATITUDE LONGITUDE [LATITUDE LONGITUDE]...
 *
 * Opens MAP with gmap_open_path (a read-only mapping) and prints, from /proc/self/smaps:
 *  1. the mapping's size and resident set (Rss) after opening, then after each lookup in turn.
 *     Rss counts the pages mapped into this process; Linux maps up to 64 KiB around each page
 *     fault ("fault-around"), so it is larger than what the reader itself touched;
 *  2. the pages that opening and each lookup (with its id) read, counted exactly: the file is
 *     copied into memory whose pages are all protected, opened with gmap_open_buffer, and each
 *     first touch of a page is caught (SIGSEGV), counted and the page unprotected.
 * Linux only.
 */
#define _GNU_SOURCE
#include "gmap.h"

#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

/* The mapping of `path` in /proc/self/smaps: its Size and Rss in KiB. */
struct mapping { long size, rss; };

static struct mapping find_mapping(const char *path) {
    struct mapping found = {0, 0};
    FILE *smaps = fopen("/proc/self/smaps", "r");
    if (!smaps) return found;
    char line[PATH_MAX + 256];
    int inside = 0;
    while (fgets(line, sizeof line, smaps)) {
        unsigned long start, end;
        long kib;
        if (sscanf(line, "%lx-%lx ", &start, &end) == 2) {
            char *name = strchr(line, '/');
            if (name) name[strcspn(name, "\n")] = 0;
            inside = name && strcmp(name, path) == 0;
        } else if (inside && sscanf(line, "Size: %ld kB", &kib) == 1) {
            found.size += kib;
        } else if (inside && sscanf(line, "Rss: %ld kB", &kib) == 1) {
            found.rss += kib;
        }
    }
    fclose(smaps);
    return found;
}

/* The protected copy of the map, and how many of its pages were touched since the last reset. */
static unsigned char *guarded;
static size_t guarded_length, page_size, touched;

static void on_fault(int signal, siginfo_t *info, void *context) {
    (void)context;
    unsigned char *address = info->si_addr;
    if (address < guarded || address >= guarded + guarded_length) { /* a real crash */
        struct sigaction fallback = {.sa_handler = SIG_DFL};
        sigaction(signal, &fallback, NULL);
        return;
    }
    unsigned char *page = guarded + (size_t)(address - guarded) / page_size * page_size;
    mprotect(page, page_size, PROT_READ);
    touched++;
}

/* Protects every page of the copy again and resets the count. */
static void guard(void) {
    mprotect(guarded, guarded_length, PROT_NONE);
    touched = 0;
}

/* Copies the file at `path` into page-aligned memory; 0 on failure. */
static int copy_guarded(const char *path) {
    FILE *file = fopen(path, "rb");
    if (!file) return 0;
    fseek(file, 0, SEEK_END);
    long length = ftell(file);
    fseek(file, 0, SEEK_SET);
    page_size = (size_t)sysconf(_SC_PAGESIZE);
    guarded_length = (size_t)length;
    guarded = mmap(NULL, guarded_length, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    int ok = guarded != MAP_FAILED && fread(guarded, 1, guarded_length, file) == guarded_length;
    fclose(file);
    struct sigaction action = {.sa_sigaction = on_fault, .sa_flags = SA_SIGINFO};
    return ok && sigaction(SIGSEGV, &action, NULL) == 0;
}

/* Looks a point up and reads its id's bytes; the id in place, or "-". */
static const char *lookup(const gmap_map *map, double latitude, double longitude, size_t *length) {
    uint32_t feature;
    const char *id = "-";
    *length = 1;
    if (gmap_lookup(map, latitude, longitude, &feature) == GMAP_OK) gmap_feature_id(map, feature, &id, length);
    volatile char sink = 0; /* read the id's bytes too, as a caller would */
    for (size_t i = 0; i < *length; i++) sink ^= id[i];
    (void)sink;
    return id;
}

int main(int argc, char **argv) {
    if (argc < 4 || argc % 2 != 0) {
        fprintf(stderr, "usage: resident MAP LATITUDE LONGITUDE [LATITUDE LONGITUDE]...\n");
        return 2;
    }
    char path[PATH_MAX];
    if (!realpath(argv[1], path)) { perror(argv[1]); return 2; }
    gmap_map *map;
    int32_t status = gmap_open_path(path, &map);
    if (status != GMAP_OK) {
        fprintf(stderr, "resident: %s: %s\n", path, gmap_status_message(status));
        return 2;
    }
    struct mapping mapping = find_mapping(path);
    printf("after open: mapping %ld KiB, resident %ld KiB\n", mapping.size, mapping.rss);
    size_t length;
    for (int i = 2; i + 1 < argc; i += 2) {
        const char *id = lookup(map, strtod(argv[i], NULL), strtod(argv[i + 1], NULL), &length);
        printf("after lookup (%s, %s) -> %.*s: resident %ld KiB\n", argv[i], argv[i + 1], (int)length, id, find_mapping(path).rss);
    }

    gmap_close(map);

    if (!copy_guarded(path)) { perror(path); return 2; }
    guard();
    if (gmap_open_buffer(guarded, guarded_length, &map) != GMAP_OK) return 2;
    printf("pages read by opening: %zu of %zu (%zu KiB)\n", touched, (guarded_length + page_size - 1) / page_size, touched * page_size / 1024);
    for (int i = 2; i + 1 < argc; i += 2) {
        guard();
        const char *id = lookup(map, strtod(argv[i], NULL), strtod(argv[i + 1], NULL), &length);
        size_t pages = touched;
        mprotect(guarded, guarded_length, PROT_READ);
        printf("pages read by the lookup (%s, %s) -> %.*s, its id and the id's bytes: %zu (%zu KiB)\n",
               argv[i], argv[i + 1], (int)length, id, pages, pages * page_size / 1024);
    }
    gmap_close(map);
    return 0;
}
