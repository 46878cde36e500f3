/*
 * gmap.h: the C interface of the gmap reader (offline reverse geocoding from a .gmap file).
 *
 * The functions are implemented in Swift (Sources/CGMap, exported with @_cdecl) on top of the
 * GMap reader. Link the dynamic library of the package's `CGMap` product (swift build -c release
 * --product CGMap gives .build/release/libCGMap.so), or, for a device without the Swift runtime,
 * the object that Scripts/embedded/build.sh compiles in Embedded Swift.
 *
 * Ownership and memory
 * - gmap_open_path maps the file read-only; gmap_open_buffer borrows the caller's bytes, which
 *   must stay alive and unchanged until gmap_close. Opening allocates one small object (the
 *   handle); gmap_close frees it (and unmaps the file).
 * - Lookups and feature access allocate nothing and never call malloc (gmap_where does: it
 *   builds sentences).
 * - Text is UTF-8. gmap_feature_id, gmap_feature_property and gmap_feature_property_at return
 *   pointers INTO THE MAP (the mapping or the caller's buffer) with a length, NOT NUL-terminated;
 *   they stay valid until gmap_close. The _copy functions write a NUL-terminated copy into a
 *   buffer the caller owns.
 * - A gmap_map is immutable: any number of threads may use one map at once; gmap_close must not
 *   race with any other call on the same map.
 *
 * Features are numbered 0 ..< gmap_feature_count(map), smallest area first.
 */
#ifndef GMAP_H
#define GMAP_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* An open map. Opaque. */
typedef struct gmap_map gmap_map;

/* What a function returns: 0 success, 1 "nothing there", negative an error. */
enum {
    GMAP_OK = 0,
    /* No feature contains the point, or the feature has no property with that key. */
    GMAP_NOT_FOUND = 1,
    /* A NULL pointer where one is needed, a feature index out of range, or coordinates that are
       not valid (NaN, latitude outside [-90, 90], longitude outside [-180, 180]). */
    GMAP_ERROR_ARGUMENT = -1,
    /* The file could not be opened, sized or mapped; errno says why. */
    GMAP_ERROR_CANNOT_OPEN = -2,
    /* The bytes do not start with the gmap magic. */
    GMAP_ERROR_NOT_A_GMAP = -3,
    /* The file is shorter than its header says. */
    GMAP_ERROR_TRUNCATED = -4,
    /* The file was written by a newer major version of the format. */
    GMAP_ERROR_UNSUPPORTED_VERSION = -5,
    /* The header, the section table or a section's fixed part is inconsistent. */
    GMAP_ERROR_MALFORMED = -6,
    /* The map is larger than this platform can address (2 GiB or more on a 32-bit target). */
    GMAP_ERROR_TOO_LARGE = -7,
    /* gmap_open_path in a build without a C library (Embedded Swift on bare metal). */
    GMAP_ERROR_UNAVAILABLE = -8,
    /* A _copy function's (or gmap_where's) buffer is too small; it holds a NUL-terminated prefix. */
    GMAP_ERROR_BUFFER_TOO_SMALL = -9,
    /* gmap_where on a map without a road layer (a map not built with gmap build --osm). */
    GMAP_ERROR_NO_ROAD_LAYER = -10
};

/* A sentence for a status code, a static NUL-terminated string (never NULL). */
const char *gmap_status_message(int32_t status);

/* Opens the map file at `path` (memory-mapped read-only) and stores the handle in *map.
   Returns GMAP_OK or an error; *map is NULL after an error. */
int32_t gmap_open_path(const char *path, gmap_map **map);

/* Opens a map held in the caller's memory, without copying it. The `length` bytes at `bytes`
   must stay alive and unchanged until gmap_close. Returns GMAP_OK or an error. */
int32_t gmap_open_buffer(const void *bytes, size_t length, gmap_map **map);

/* Closes a map and frees its handle. NULL is allowed. Pointers into the map become invalid. */
void gmap_close(gmap_map *map);

/* The number of features; 0 for NULL. */
uint32_t gmap_feature_count(const gmap_map *map);

/* The smallest-area feature containing the point: GMAP_OK and *feature set, GMAP_NOT_FOUND, or
   GMAP_ERROR_ARGUMENT. Latitude first, in degrees. Allocates nothing. */
int32_t gmap_lookup(const gmap_map *map, double latitude, double longitude, uint32_t *feature);

/* Every feature containing the point, smallest area first: writes at most `capacity` indices to
   `features` (which may be NULL when capacity is 0) and sets *count to how many features contain
   the point, which may be more than `capacity`. Returns GMAP_OK when at least one does,
   GMAP_NOT_FOUND when none does, or GMAP_ERROR_ARGUMENT. Allocates nothing. */
int32_t gmap_lookup_all(const gmap_map *map, double latitude, double longitude,
                        uint32_t *features, size_t capacity, size_t *count);

/* The feature's id, in place in the map: *bytes and *length (not NUL-terminated). */
int32_t gmap_feature_id(const gmap_map *map, uint32_t feature, const char **bytes, size_t *length);

/* The feature's id copied into buffer[capacity] with a terminating NUL. *length (may be NULL)
   gets the id's length without the NUL; GMAP_ERROR_BUFFER_TOO_SMALL when length >= capacity. */
int32_t gmap_feature_id_copy(const gmap_map *map, uint32_t feature, char *buffer, size_t capacity, size_t *length);

/* The number of properties the feature keeps (0 for a bad map or index). */
uint32_t gmap_feature_property_count(const gmap_map *map, uint32_t feature);

/* The property at `position` (0 ..< gmap_feature_property_count), key and value in place in the
   map (not NUL-terminated). Any of the out pointers may be NULL. */
int32_t gmap_feature_property_at(const gmap_map *map, uint32_t feature, uint32_t position,
                                 const char **key, size_t *key_length,
                                 const char **value, size_t *value_length);

/* The value of the property whose key is the NUL-terminated `key` (compared byte for byte), in
   place in the map (not NUL-terminated): GMAP_OK, GMAP_NOT_FOUND or GMAP_ERROR_ARGUMENT. */
int32_t gmap_feature_property(const gmap_map *map, uint32_t feature, const char *key,
                              const char **value, size_t *value_length);

/* The value of the property `key` copied into buffer[capacity] with a terminating NUL, as
   gmap_feature_id_copy does. */
int32_t gmap_feature_property_copy(const gmap_map *map, uint32_t feature, const char *key,
                                   char *buffer, size_t capacity, size_t *length);

/* Location sense for one fix, as `gmap where MAP LAT LON --heading DEG` says it, on a map built
   with `gmap build --osm`: the callouts ("You are facing north along Mannerheimintie.",
   "Intersection with Kaivokatu is 120 m north.", "Stockmann is 25 m east."), one sentence per
   line (separated by '\n', no final newline), copied into buffer[capacity] with a terminating
   NUL as gmap_feature_id_copy does (*length, which may be NULL, gets the text's length; a NULL
   buffer with capacity 0 asks only for the length). `heading` is where the user faces, degrees
   clockwise from north, taken modulo 360; NaN for none (then there is no intersection ahead).
   Stateless: each call is a first fix, with no road kept from earlier calls and no throttle.
   Returns GMAP_OK; GMAP_NOT_FOUND when nothing is known within 200 m (the text is then
   "Nothing known nearby."); GMAP_ERROR_NO_ROAD_LAYER; GMAP_ERROR_BUFFER_TOO_SMALL; or
   GMAP_ERROR_ARGUMENT (NULL map, NULL buffer with a capacity, invalid coordinates). Unlike the
   lookups, it allocates (the sentences are built on the heap and freed before it returns), and
   in an Embedded Swift build it needs the stdlib's Unicode data tables (street names are compared
   as Swift strings): about 61 KB of armv7em .text with gmap_open_buffer and gmap_close. */
int32_t gmap_where(const gmap_map *map, double latitude, double longitude, double heading,
                   char *buffer, size_t capacity, size_t *length);

#ifdef __cplusplus
}
#endif

#endif /* GMAP_H */
