/*
 * gmap_ref.h: a reference reader for the .gmap format in C99, written from Spec/FORMAT.md alone.
 *
 * It memory-maps a map (or reads a caller's buffer), checks it as Spec/FORMAT.md section 13.1
 * says, and answers containment lookups in layers of polygons of format 1.x, 2.x and 3.x files
 * (sections 10 and 11), banded polygons of 3.5 (8.5.1) included, with the bounds checks of
 * section 13.2. A lookup allocates nothing.
 */
#ifndef GMAP_REF_H
#define GMAP_REF_H

#include <stddef.h>
#include <stdint.h>

#define GM_MAX_LAYERS 10

typedef struct {
    const uint8_t *p; /* first byte of the section, or NULL when absent */
    uint64_t len;     /* its length in bytes */
} gm_span;

typedef struct {
    const uint8_t *name; /* the layer's name in STRS (not NUL-terminated), empty without LAYR */
    uint32_t name_len;
    int refused;         /* 1: geometry kind this reader does not read (13.1 check 13): 3, 5 ... 255 */
    uint8_t geometry;    /* 0 polygons, 1 lines, 2 points (3.1), 3 compact points (3.4, refused),
                            4 banded polygons (3.5); always 0 before version 3 */
    gm_span grid, tile, feat, prop;
    gm_span labels, names; /* LABL and NAME (5.9, 5.10), checked on open but not used here */
    uint32_t feature_count, feature_record_length;
    uint32_t property_count, property_record_length;
    int64_t origin_x, origin_y, tile_width, tile_height;
    uint64_t columns, rows;
    uint32_t split, max_depth;
    uint32_t subdirectory_count; /* versions 1 and 2 */
    uint8_t top_form;            /* version 3: 0 u32 entries, 1 packed (5.1.1) */
    uint32_t node_count;         /* version 3, informational */
    /* the packed top-level directory (top_form 1) */
    uint64_t packed_kb, packed_sb;
    uint8_t packed_width;
} gm_layer;

typedef struct {
    void *mapping;      /* the mmap, or NULL for a caller's buffer */
    size_t mapping_len;
    const uint8_t *data;
    uint64_t file_length;
    uint16_t major, minor;
    uint32_t units;      /* U, units per degree */
    gm_span strs, meta;
    int has_layr;
    int layer_count;
    gm_layer layers[GM_MAX_LAYERS];
} gm_map;

/* Open a map file (mmap) or a buffer of `len` bytes that stays valid while the map is used.
   Return 0 on success, or -1 with a message in err. */
int gm_open_file(gm_map *map, const char *path, char *err, size_t errlen);
int gm_open_buffer(gm_map *map, const uint8_t *data, size_t len, char *err, size_t errlen);
void gm_close(gm_map *map);

/* The index of the layer called `name`, or -1. */
int gm_layer_named(const gm_map *map, const char *name);

/* lookupAll (10.5): every feature of `layer` containing the point, smallest index first.
   Stores at most `cap` indexes in out and returns how many features it found (which can be more
   than cap). A point that is not valid (10.1), or a layer that is refused or not of polygons,
   gives 0. */
int gm_lookup_all(const gm_map *map, int layer, double lat, double lon, uint32_t *out, int cap);

/* lookup (10.5): the smallest containing feature, or -1. */
int64_t gm_lookup(const gm_map *map, int layer, double lat, double lon);

/* A feature's id (5.3, 5.5): sets *s and *len to its bytes in STRS (an empty string when the
   index or the range is out of bounds). */
void gm_feature_id(const gm_map *map, int layer, uint32_t index, const uint8_t **s, uint32_t *len);

#endif
