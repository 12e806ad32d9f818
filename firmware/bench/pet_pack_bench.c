/*
 * Validation throughput of the C pack reader beside zlib's crc32() over the
 * same bytes, on a pack at the 16 MiB limit (firmware/bench/bench.sh builds
 * one with the vector generator).
 *
 *   pet_pack_bench PACK [SECONDS]       default 2 seconds a measurement
 *
 * Validation reads every byte once for the CRC and then only the header,
 * tables and padding, so the ratio to zlib's crc32() says how close the
 * reader's whole acceptance pass comes to the cost of checksumming alone.
 * Times are CPU time (clock()), best of three runs per measurement.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <zlib.h>

#include "pet_pack.h"

static volatile unsigned long sink;

static unsigned char *read_all(const char *path, size_t *n)
{
    FILE *f = fopen(path, "rb");
    unsigned char *buf;
    long len;
    if (f == NULL || fseek(f, 0, SEEK_END) != 0 || (len = ftell(f)) < 0 || fseek(f, 0, SEEK_SET) != 0) {
        if (f != NULL) {
            fclose(f);
        }
        return NULL;
    }
    buf = (unsigned char *)malloc(len == 0 ? 1u : (size_t)len);
    if (buf == NULL || fread(buf, 1, (size_t)len, f) != (size_t)len) {
        free(buf);
        fclose(f);
        return NULL;
    }
    fclose(f);
    *n = (size_t)len;
    return buf;
}

enum { VERIFY, OUR_CRC, ZLIB_CRC };

static void run_once(int what, const unsigned char *data, size_t n)
{
    switch (what) {
    case VERIFY:
        sink += (unsigned long)pet_pack_verify(data, n);
        break;
    case OUR_CRC:
        sink += pet_pack_crc32(data, n);
        break;
    default: {
        /* zlib takes a uInt length: feed it in pieces below 4 GiB. */
        uLong c = crc32(0L, Z_NULL, 0);
        c = crc32(c, data, (uInt)n);
        sink += c;
        break;
    }
    }
}

/* Bytes per second of what, the best of three runs of about seconds each. */
static double measure(int what, const unsigned char *data, size_t n, double seconds)
{
    double best = 0.0;
    int run;
    for (run = 0; run < 3; run++) {
        clock_t start = clock();
        clock_t limit = start + (clock_t)(seconds * CLOCKS_PER_SEC);
        unsigned long iterations = 0;
        double elapsed;
        do {
            run_once(what, data, n);
            iterations++;
        } while (clock() < limit);
        elapsed = (double)(clock() - start) / CLOCKS_PER_SEC;
        if (elapsed > 0.0 && (double)n * (double)iterations / elapsed > best) {
            best = (double)n * (double)iterations / elapsed;
        }
    }
    return best;
}

int main(int argc, char **argv)
{
    size_t n = 0;
    unsigned char *data;
    double seconds = argc > 2 ? atof(argv[2]) : 2.0;
    double verify, ours, zlib;
    pet_pack_status s;
    const double mib = 1024.0 * 1024.0;
    if (argc < 2) {
        fprintf(stderr, "usage: pet_pack_bench PACK [SECONDS]\n");
        return 2;
    }
    data = read_all(argv[1], &n);
    if (data == NULL) {
        fprintf(stderr, "pet_pack_bench: cannot read %s\n", argv[1]);
        return 2;
    }
    s = pet_pack_verify(data, n);
    if (s != PET_PACK_OK) {
        fprintf(stderr, "pet_pack_bench: %s: %s\n", argv[1], pet_pack_status_name(s));
        return 1;
    }
    if (pet_pack_crc32(data, n) != crc32(0L, data, (uInt)n)) {
        fprintf(stderr, "pet_pack_bench: pet_pack_crc32 and zlib crc32 disagree\n");
        return 1;
    }
    verify = measure(VERIFY, data, n, seconds / 3.0);
    ours = measure(OUR_CRC, data, n, seconds / 3.0);
    zlib = measure(ZLIB_CRC, data, n, seconds / 3.0);
    printf("pack: %s, %lu bytes (%.2f MiB), accepted\n", argv[1], (unsigned long)n, (double)n / mib);
    printf("pet_pack_verify (whole acceptance pass): %8.1f MiB/s\n", verify / mib);
    printf("pet_pack_crc32 (the reader's CRC alone):  %8.1f MiB/s\n", ours / mib);
    printf("zlib %s crc32():                      %8.1f MiB/s\n", zlibVersion(), zlib / mib);
    printf("ratio pet_pack_verify / zlib crc32: %.3f\n", verify / zlib);
    free(data);
    return 0;
}
