/* platform.h with the C library, for the host (Linux with glibc). */
#define _GNU_SOURCE
#include "platform.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <ucontext.h>

int gmap_host_main(int argc, char **argv); /* main.swift */

int main(int argc, char **argv) {
    int status = gmap_host_main(argc, argv);
    fflush(stdout);
    return status;
}

const unsigned char *host_read_file(const char *path, size_t *length) {
    FILE *file = fopen(path, "rb");
    if (!file) return NULL;
    unsigned char *bytes = NULL;
    size_t size = 0, capacity = 0, got;
    do {
        if (size == capacity) {
            capacity = capacity ? capacity * 2 : 1 << 20;
            unsigned char *grown = realloc(bytes, capacity);
            if (!grown) { free(bytes); fclose(file); return NULL; }
            bytes = grown;
        }
        got = fread(bytes + size, 1, capacity - size, file);
        size += got;
    } while (got > 0);
    fclose(file);
    *length = size;
    return bytes;
}

long host_read_line(char *buffer, size_t capacity) {
    if (!fgets(buffer, (int)capacity, stdin)) return -1;
    size_t length = strlen(buffer);
    while (length > 0 && (buffer[length - 1] == '\n' || buffer[length - 1] == '\r')) buffer[--length] = 0;
    return (long)length;
}

void host_write(const void *bytes, size_t length) { fwrite(bytes, 1, length, stdout); }

void host_error(const char *message) { fputs(message, stderr); }

int host_parse_double(const char *text, size_t *position, double *value) {
    const char *start = text + *position;
    while (*start == ' ' || *start == '\t') start++;
    if (*start == ',') start++;
    char *end;
    *value = strtod(start, &end);
    if (end == start) return 0;
    *position = (size_t)(end - text);
    return 1;
}

static ucontext_t caller, measured;
static void (*measured_body)(void *);
static void *measured_context;

static void trampoline(void) { measured_body(measured_context); }

size_t host_measure_stack(size_t size, void (*body)(void *context), void *context) {
    unsigned char *stack = malloc(size);
    if (!stack) return 0;
    memset(stack, 0xA5, size);
    measured_body = body;
    measured_context = context;
    getcontext(&measured);
    measured.uc_stack.ss_sp = stack;
    measured.uc_stack.ss_size = size;
    measured.uc_link = &caller;
    makecontext(&measured, trampoline, 0);
    swapcontext(&caller, &measured);
    size_t untouched = 0; /* the stack grows down: count the pattern from the low end */
    while (untouched < size && stack[untouched] == 0xA5) untouched++;
    free(stack);
    return size - untouched;
}
