/*
 * platform.h: what the Embedded Swift host program (main.swift) needs from its platform, and no
 * more: a file read into memory, lines from standard input, bytes to standard output, a decimal
 * parsed to a double, and a stack to measure. platform-libc.c implements it with the C library.
 */
#ifndef GMAP_HOST_PLATFORM_H
#define GMAP_HOST_PLATFORM_H

#include <stddef.h>

/* The whole file at `path` in memory that stays allocated until exit, or NULL. */
const unsigned char *host_read_file(const char *path, size_t *length);

/* The next line of standard input without its newline into buffer[capacity] (NUL-terminated);
   its length, or -1 at the end of input. */
long host_read_line(char *buffer, size_t capacity);

/* Writes bytes to standard output (buffered; flushed at exit). */
void host_write(const void *bytes, size_t length);

/* Writes a message to standard error. */
void host_error(const char *message);

/* Parses a decimal number at text[*position] (after any spaces and one comma), advancing
   *position past it; returns 0 when there is no number. */
int host_parse_double(const char *text, size_t *position, double *value);

/* Runs body(context) on a fresh stack of `size` bytes filled with a pattern, and returns how many
   bytes of it were written (the deepest the stack grew), or 0 when that is not supported. */
size_t host_measure_stack(size_t size, void (*body)(void *context), void *context);

#endif
