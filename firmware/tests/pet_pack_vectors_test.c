/*
 * Runs the C pack reader over the shared vectors (tests/vectors) and checks
 * every verdict against the manifest VECTORS.txt: `<file> <accept|rule>
 * <description>`, file relative to the manifest's directory.
 *
 *   pet_pack_vectors_test [DIR...]     default DIR: tests/vectors
 *
 * Besides the verdict it checks that a rejection leaves the pet_pack zeroed
 * and that every pointer an accepted pack hands out lies inside it. It ends
 * with "N passed, N failed" and exits non-zero on any failure.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pet_pack.h"
#include "test_util.h"

static int passed;
static int failed;

static int inside(const unsigned char *data, size_t n, const void *p, size_t len)
{
    const unsigned char *q = (const unsigned char *)p;
    return q >= data && q <= data + n && len <= (size_t)(data + n - q);
}

/* Checks one vector; returns 1 when it behaves as the manifest says. */
static int check_vector(const char *path, const char *want)
{
    size_t n = 0;
    unsigned char *data = test_read_file(path, &n);
    pet_pack p;
    pet_pack_status s;
    const char *got;
    int ok = 1;
    if (data == NULL) {
        printf("FAIL %s: cannot read\n", path);
        return 0;
    }
    memset(&p, 0x5a, sizeof p);
    s = pet_pack_open(&p, data, n);
    got = s == PET_PACK_OK ? "accept" : pet_pack_status_name(s);
    if (strcmp(got, want) != 0) {
        printf("FAIL %s: C reader says %s, manifest says %s\n", path, got, want);
        ok = 0;
    }
    if (pet_pack_verify(data, n) != s) {
        printf("FAIL %s: pet_pack_verify and pet_pack_open disagree\n", path);
        ok = 0;
    }
    if (s != PET_PACK_OK) {
        static const pet_pack zero;
        if (memcmp(&p, &zero, sizeof p) != 0) {
            printf("FAIL %s: the rejection left the pack non-zero\n", path);
            ok = 0;
        }
    } else {
        uint32_t i;
        for (i = 0; i < pet_pack_image_count(&p); i++) {
            pet_pack_image im;
            if (!pet_pack_image_at(&p, i, &im) || !inside(data, n, im.colour, im.colour_length) ||
                !inside(data, n, im.mask, im.mask_length) || !inside(data, n, im.id, 32)) {
                printf("FAIL %s: image %lu points outside the pack\n", path, (unsigned long)i);
                ok = 0;
            }
        }
    }
    free(data);
    return ok;
}

static void run_dir(const char *dir)
{
    char path[4096];
    char line[4096];
    FILE *f;
    int lines = 0;
    if (snprintf(path, sizeof path, "%s/VECTORS.txt", dir) >= (int)sizeof path) {
        printf("FAIL %s: path too long\n", dir);
        failed++;
        return;
    }
    f = fopen(path, "r");
    if (f == NULL) {
        printf("FAIL %s: cannot open\n", path);
        failed++;
        return;
    }
    while (fgets(line, sizeof line, f) != NULL) {
        char file[1024];
        char want[128];
        char vector[4096];
        if (line[0] == '#' || line[0] == '\n') {
            continue;
        }
        if (sscanf(line, "%1023s %127s", file, want) != 2) {
            printf("FAIL %s: bad line: %s", path, line);
            failed++;
            continue;
        }
        lines++;
        if (snprintf(vector, sizeof vector, "%s/%s", dir, file) >= (int)sizeof vector) {
            printf("FAIL %s: path too long\n", file);
            failed++;
            continue;
        }
        if (check_vector(vector, want)) {
            passed++;
        } else {
            failed++;
        }
    }
    fclose(f);
    if (lines == 0) {
        printf("FAIL %s: no vectors\n", path);
        failed++;
    }
}

int main(int argc, char **argv)
{
    int i;
    if (argc < 2) {
        run_dir("tests/vectors");
    }
    for (i = 1; i < argc; i++) {
        run_dir(argv[i]);
    }
    printf("%d passed, %d failed\n", passed, failed);
    return failed == 0 ? 0 : 1;
}
