/*
 * query.c: answers points from standard input with the C interface of gmap (gmap.h).
 *
 *   query [--buffer] [--property KEY] MAP < points
 *
 * Each input line is "latitude,longitude" (or "latitude longitude"); lines starting with '#' and
 * empty lines are skipped. Each answer line holds the ids of every feature containing the point,
 * smallest area first, separated by spaces (as `gmap query MAP - --all` prints them), and with
 * --property the value of KEY for the first feature after a tab. --buffer reads the file into
 * memory and opens it with gmap_open_buffer instead of gmap_open_path.
 *
 * Exit status: 0, or 2 for bad usage, an unreadable map or an API inconsistency.
 */
#include "gmap.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { MAX_FEATURES = 64 };

/* Reads a whole file into memory the caller frees. */
static unsigned char *read_file(const char *path, size_t *length) {
    FILE *file = fopen(path, "rb");
    if (!file) return NULL;
    long size = fseek(file, 0, SEEK_END) == 0 ? ftell(file) : -1;
    unsigned char *bytes = size > 0 && fseek(file, 0, SEEK_SET) == 0 ? malloc((size_t)size) : NULL;
    if (bytes && fread(bytes, 1, (size_t)size, file) != (size_t)size) {
        free(bytes);
        bytes = NULL;
    }
    fclose(file);
    *length = bytes ? (size_t)size : 0;
    return bytes;
}

/* Prints one point's answer; returns 0, or 2 when lookup and lookup_all disagree. */
static int answer(const gmap_map *map, double latitude, double longitude, const char *property) {
    uint32_t features[MAX_FEATURES];
    size_t count = 0;
    int32_t status = gmap_lookup_all(map, latitude, longitude, features, MAX_FEATURES, &count);
    uint32_t first = 0;
    int32_t single = gmap_lookup(map, latitude, longitude, &first);
    if (status != single || (status == GMAP_OK && first != features[0])) {
        fprintf(stderr, "query: gmap_lookup and gmap_lookup_all disagree at (%g, %g)\n", latitude, longitude);
        return 2;
    }
    if (status == GMAP_ERROR_ARGUMENT) {
        fprintf(stderr, "query: (%g, %g): %s\n", latitude, longitude, gmap_status_message(status));
    }
    for (size_t i = 0; i < count && i < MAX_FEATURES; i++) {
        const char *id;
        size_t length;
        if (gmap_feature_id(map, features[i], &id, &length) != GMAP_OK) return 2;
        printf("%s%.*s", i ? " " : "", (int)length, id);
    }
    if (property && count > 0) {
        char value[256];
        int32_t found = gmap_feature_property_copy(map, features[0], property, value, sizeof value, NULL);
        printf("\t%s", found == GMAP_OK || found == GMAP_ERROR_BUFFER_TOO_SMALL ? value : "");
    }
    printf("\n");
    return 0;
}

int main(int argc, char **argv) {
    int use_buffer = 0;
    const char *property = NULL, *path = NULL;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--buffer") == 0) use_buffer = 1;
        else if (strcmp(argv[i], "--property") == 0 && i + 1 < argc) property = argv[++i];
        else if (!path) path = argv[i];
        else path = NULL, i = argc;
    }
    if (!path) {
        fprintf(stderr, "usage: query [--buffer] [--property KEY] MAP < points\n");
        return 2;
    }

    gmap_map *map = NULL;
    unsigned char *bytes = NULL;
    int32_t status;
    if (use_buffer) {
        size_t length = 0;
        bytes = read_file(path, &length);
        if (!bytes) {
            fprintf(stderr, "query: cannot read %s: %s\n", path, strerror(errno));
            return 2;
        }
        status = gmap_open_buffer(bytes, length, &map);
    } else {
        status = gmap_open_path(path, &map);
    }
    if (status != GMAP_OK) {
        fprintf(stderr, "query: %s: %s\n", path, gmap_status_message(status));
        free(bytes);
        return 2;
    }

    int result = 0;
    char line[256];
    while (result == 0 && fgets(line, sizeof line, stdin)) {
        if (line[0] == '#' || line[0] == '\n') continue;
        char *end;
        double latitude = strtod(line, &end);
        while (*end == ',' || *end == ' ') end++;
        double longitude = strtod(end, NULL);
        result = answer(map, latitude, longitude, property);
    }
    gmap_close(map);
    free(bytes);
    return result;
}
