/*
 * The reader's CRC in whichever variant pet_pack.c was built as (default
 * braided tables, PET_PACK_CRC_SMALL, or PET_PACK_CRC_HOOK) against a
 * bit-at-a-time CRC-32 written from the polynomial: every length from 0 to
 * 1200 bytes at every start offset 0 to 7 (so each lane, the fold after
 * the last block and every tail length are covered at every alignment),
 * continuation across every split of a 300-byte run, and a 256 KiB buffer
 * in one call and in uneven pieces.
 *
 *   pet_pack_crc_test [DIR]            DIR: tests/vectors (default)
 *
 * Built with -DPET_PACK_TEST_HOOK (and tests/crc_hook.c) it also proves
 * the reader routes through the hook: the hook sees every byte, and a hook
 * that answers wrong makes pet_pack_verify reject the canonical pack with
 * check_mismatch. Ends with "N passed, N failed".
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pet_pack.h"
#ifdef PET_PACK_TEST_HOOK
#include "crc_hook.h"
#include "test_util.h"
#endif

static int passed;
static int failed;

#define CHECK(cond)                                                                  \
    do {                                                                             \
        if (cond) {                                                                  \
            passed++;                                                                \
        } else {                                                                     \
            failed++;                                                                \
            printf("FAIL %s:%d: %s\n", __FILE__, __LINE__, #cond);                   \
        }                                                                            \
    } while (0)

/* CRC-32 a bit a step, from the polynomial alone: shares nothing with the
 * reader's tables. */
static uint32_t reference(uint32_t crc, const unsigned char *p, size_t n)
{
    crc = ~crc;
    while (n-- > 0u) {
        int k;
        crc ^= *p++;
        for (k = 0; k < 8; k++) {
            crc = (crc & 1u) ? (crc >> 1) ^ 0xedb88320u : crc >> 1;
        }
    }
    return ~crc;
}

/* A fixed pseudo-random fill (xorshift32), the same on every host. */
static void fill(unsigned char *p, size_t n)
{
    uint32_t x = 0x9e3779b9u;
    size_t i;
    for (i = 0; i < n; i++) {
        x ^= x << 13;
        x ^= x >> 17;
        x ^= x << 5;
        p[i] = (unsigned char)(x >> 24);
    }
}

enum { SHORT = 1200, LARGE = 256 * 1024 };

static void test_lengths(const unsigned char *buf)
{
    size_t off, n;
    int bad = 0;
    for (off = 0; off < 8u; off++) {
        for (n = 0; n <= SHORT; n++) {
            if (pet_pack_crc32(buf + off, n) != reference(0u, buf + off, n)) {
                if (bad++ < 5) {
                    printf("FAIL crc of %lu bytes at offset %lu\n", (unsigned long)n, (unsigned long)off);
                }
            }
        }
    }
    CHECK(bad == 0);
}

static void test_splits(const unsigned char *buf)
{
    const size_t n = 300;
    uint32_t want = reference(0u, buf, n);
    size_t cut;
    int bad = 0;
    for (cut = 0; cut <= n; cut++) {
        if (pet_pack_crc32_update(pet_pack_crc32(buf, cut), buf + cut, n - cut) != want) {
            if (bad++ < 5) {
                printf("FAIL crc of 300 bytes split at %lu\n", (unsigned long)cut);
            }
        }
    }
    CHECK(bad == 0);
}

static void test_large(const unsigned char *buf)
{
    uint32_t want = reference(0u, buf, LARGE);
    uint32_t c = 0u;
    size_t at = 0, step = 1;
    CHECK(pet_pack_crc32(buf, LARGE) == want);
    /* Pieces of 1, 2, 3, ... bytes: most start unaligned and end mid-block. */
    while (at < LARGE) {
        size_t take = LARGE - at < step ? LARGE - at : step;
        c = pet_pack_crc32_update(c, buf + at, take);
        at += take;
        step += 37u;
    }
    CHECK(c == want);
    CHECK(pet_pack_crc32((const unsigned char *)"123456789", 9) == 0xCBF43926u);
}

#ifdef PET_PACK_TEST_HOOK
static void test_hook(const char *dir, const unsigned char *buf)
{
    char path[4096];
    size_t n = 0, before;
    unsigned char *pack;
    before = pet_pack_test_hook_bytes;
    (void)pet_pack_crc32(buf, 1000);
    CHECK(pet_pack_test_hook_bytes - before == 1000u);

    snprintf(path, sizeof path, "%s/packs/canonical.pack", dir);
    pack = test_read_file(path, &n);
    CHECK(pack != NULL);
    if (pack == NULL) {
        return;
    }
    before = pet_pack_test_hook_bytes;
    CHECK(pet_pack_verify(pack, n) == PET_PACK_OK);
    /* The whole pack but its trailing check value goes through the hook. */
    CHECK(pet_pack_test_hook_bytes - before == n - 4u);
    pet_pack_test_hook_corrupt = 1;
    CHECK(pet_pack_verify(pack, n) == PET_PACK_CHECK_MISMATCH);
    pet_pack_test_hook_corrupt = 0;
    CHECK(pet_pack_verify(pack, n) == PET_PACK_OK);
    free(pack);
}
#endif

int main(int argc, char **argv)
{
    const char *dir = argc > 1 ? argv[1] : "tests/vectors";
    unsigned char *buf = (unsigned char *)malloc(LARGE + 8u);
    if (buf == NULL) {
        printf("FAIL out of memory\n");
        return 1;
    }
    fill(buf, LARGE + 8u);
    test_lengths(buf);
    test_splits(buf);
    test_large(buf);
#ifdef PET_PACK_TEST_HOOK
    test_hook(dir, buf);
#else
    (void)dir;
#endif
    free(buf);
    printf("%d passed, %d failed\n", passed, failed);
    return failed == 0 ? 0 : 1;
}
