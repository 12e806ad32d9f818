/* Small helpers shared by the host tests of the C pack reader. Host only:
 * they use stdio and malloc, which the reader itself does not. */
#ifndef PET_PACK_TEST_UTIL_H_
#define PET_PACK_TEST_UTIL_H_

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Reads a whole file into an exactly sized heap buffer (one byte for an
 * empty file, so the pointer is never NULL). Returns NULL on failure. */
static unsigned char *test_read_file(const char *path, size_t *length)
{
    FILE *f = fopen(path, "rb");
    unsigned char *buf = NULL;
    size_t cap = 0;
    size_t n = 0;
    if (f == NULL) {
        return NULL;
    }
    for (;;) {
        size_t got;
        if (n == cap) {
            size_t ncap = cap == 0 ? 65536u : cap * 2u;
            unsigned char *nbuf = (unsigned char *)realloc(buf, ncap);
            if (nbuf == NULL) {
                free(buf);
                fclose(f);
                return NULL;
            }
            buf = nbuf;
            cap = ncap;
        }
        got = fread(buf + n, 1, cap - n, f);
        n += got;
        if (got == 0) {
            break;
        }
    }
    fclose(f);
    {
        unsigned char *exact = (unsigned char *)malloc(n == 0 ? 1u : n);
        if (exact != NULL) {
            memcpy(exact, buf, n);
            *length = n;
        }
        free(buf);
        return exact;
    }
}

#endif /* PET_PACK_TEST_UTIL_H_ */
