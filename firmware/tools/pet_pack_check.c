/*
 * pet_pack_check: runs the C pack reader over files or over a stream of
 * inputs, so tests can compare it with the Go reader (tests/vectors).
 *
 *   pet_pack_check FILE...        one line per file: FILE VERDICT
 *   pet_pack_check --dump FILE    the verdict and, for an accepted pack,
 *                                 everything the lookups return
 *   pet_pack_check --rules        the rule identifiers, in enum order
 *   pet_pack_check --serve        reads inputs from stdin, each a 4-byte
 *                                 little-endian length and that many bytes,
 *                                 and answers each with its dump, then a line
 *                                 holding "end"; exits at end of input
 *
 * VERDICT is "accept" or the rule identifier. Exit status: 0 when every
 * file is accepted, 1 when one is rejected, 2 on a usage or I/O error.
 *
 * This is a host tool: it uses stdio and malloc. Each input gets a buffer of
 * exactly its length, so an AddressSanitizer build catches any read past it.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pet_pack.h"

/* Elapsed times every selection is asked at; tests/vectors uses the same. */
static const uint64_t select_times[] = {
    0u,
    1u,
    299u,
    300u,
    599u,
    600u,
    999u,
    1000u,
    1799u,
    59999u,
    60000u,
    959999u,
    960000u,
    4294967295u,
    4294967296u + 123u,
    18446744073709551615u,
};

static const char *verdict(pet_pack_status s)
{
    return s == PET_PACK_OK ? "accept" : pet_pack_status_name(s);
}

static void print_hex_id(FILE *out, const char *id)
{
    const unsigned char *p = (const unsigned char *)id;
    if (*p == 0u) {
        fputs("-", out);
        return;
    }
    for (; *p != 0u; p++) {
        fprintf(out, "%02x", (unsigned)*p);
    }
}

static void print_selection(FILE *out, const pet_pack_selection *s)
{
    fprintf(out, "role %u fallback %d animation %u frame %u image %u next %lu\n", (unsigned)s->role,
            s->used_fallback, (unsigned)s->animation, (unsigned)s->frame, (unsigned)s->image,
            (unsigned long)s->until_next_ms);
}

/* Writes the verdict of data and, when accepted, every lookup's answer. */
static pet_pack_status dump(FILE *out, const unsigned char *data, size_t length)
{
    pet_pack p;
    pet_pack_status s;
    uint32_t i;
    size_t k;

    /* Start from garbage so the zeroing on rejection is really tested. */
    memset(&p, 0xa5, sizeof p);
    s = pet_pack_open(&p, data, length);
    fprintf(out, "verdict %s\n", verdict(s));
    if (pet_pack_verify(data, length) != s) {
        fprintf(out, "error verify and open disagree\n");
    }
    if (s != PET_PACK_OK) {
        static const pet_pack zero;
        pet_pack_selection sel;
        if (memcmp(&p, &zero, sizeof p) != 0 || p.data != NULL) {
            fprintf(out, "error rejection left the pack non-zero\n");
        }
        if (pet_pack_select(&p, "x", 0u, &sel) != 0) {
            fprintf(out, "error a rejected pack answered a lookup\n");
        }
        return s;
    }
    fprintf(out, "counts images %u animations %u frames %u roles %u fallback %u\n",
            (unsigned)pet_pack_image_count(&p), (unsigned)pet_pack_animation_count(&p),
            (unsigned)pet_pack_frame_count(&p), (unsigned)pet_pack_role_count(&p),
            (unsigned)pet_pack_fallback_role(&p));
    for (i = 0; i < pet_pack_image_count(&p); i++) {
        pet_pack_image im;
        (void)pet_pack_image_at(&p, i, &im);
        fprintf(out, "image %lu ", (unsigned long)i);
        print_hex_id(out, im.id);
        fprintf(out, " %ux%u colour %lu %lu %08lx mask %lu %lu %08lx\n", (unsigned)im.width,
                (unsigned)im.height, (unsigned long)(im.colour - data),
                (unsigned long)im.colour_length,
                (unsigned long)pet_pack_crc32(im.colour, im.colour_length),
                (unsigned long)(im.mask - data), (unsigned long)im.mask_length,
                (unsigned long)pet_pack_crc32(im.mask, im.mask_length));
    }
    for (i = 0; i < pet_pack_animation_count(&p); i++) {
        pet_pack_animation a;
        (void)pet_pack_animation_at(&p, i, &a);
        fprintf(out, "animation %lu ", (unsigned long)i);
        print_hex_id(out, a.id);
        fprintf(out, " first %u count %u\n", (unsigned)a.first_frame, (unsigned)a.frame_count);
    }
    for (i = 0; i < pet_pack_frame_count(&p); i++) {
        pet_pack_frame f;
        (void)pet_pack_frame_at(&p, i, &f);
        fprintf(out, "frame %lu image %u duration %u\n", (unsigned long)i, (unsigned)f.image,
                (unsigned)f.duration_ms);
    }
    for (i = 0; i < pet_pack_role_count(&p); i++) {
        pet_pack_role r;
        (void)pet_pack_role_at(&p, i, &r);
        fprintf(out, "role %lu ", (unsigned long)i);
        print_hex_id(out, r.id);
        fprintf(out, " animation %u find %ld\n", (unsigned)r.animation,
                (long)pet_pack_find_role(&p, r.id));
    }
    /* Out-of-range lookups fail. */
    {
        pet_pack_image im;
        pet_pack_animation a;
        pet_pack_frame f;
        pet_pack_role r;
        if (pet_pack_image_at(&p, pet_pack_image_count(&p), &im) ||
            pet_pack_animation_at(&p, pet_pack_animation_count(&p), &a) ||
            pet_pack_frame_at(&p, pet_pack_frame_count(&p), &f) ||
            pet_pack_role_at(&p, pet_pack_role_count(&p), &r)) {
            fprintf(out, "error a lookup past a table answered\n");
        }
    }
    /* Every role index and one past the table (the fallback), then a role
     * name no pack holds, at every time. */
    for (i = 0; i <= pet_pack_role_count(&p); i++) {
        for (k = 0; k < sizeof select_times / sizeof select_times[0]; k++) {
            pet_pack_selection sel;
            (void)pet_pack_select_index(&p, i, select_times[k], &sel);
            fprintf(out, "select %lu at %llu ", (unsigned long)i, (unsigned long long)select_times[k]);
            print_selection(out, &sel);
        }
    }
    for (k = 0; k < sizeof select_times / sizeof select_times[0]; k++) {
        pet_pack_selection sel;
        (void)pet_pack_select(&p, "no such role", select_times[k], &sel);
        fprintf(out, "select unknown at %llu ", (unsigned long long)select_times[k]);
        print_selection(out, &sel);
    }
    return s;
}

/* Reads a whole file into an exactly sized buffer (a 1-byte one when empty). */
static unsigned char *read_file(const char *path, size_t *length)
{
    FILE *f = fopen(path, "rb");
    unsigned char *buf = NULL;
    size_t cap = 0;
    size_t n = 0;
    if (f == NULL) {
        fprintf(stderr, "pet_pack_check: %s: %s\n", path, strerror(errno));
        return NULL;
    }
    for (;;) {
        size_t got;
        if (n == cap) {
            size_t ncap = cap == 0 ? 65536u : cap * 2u;
            unsigned char *nbuf = (unsigned char *)realloc(buf, ncap);
            if (nbuf == NULL) {
                fprintf(stderr, "pet_pack_check: %s: out of memory\n", path);
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
    if (ferror(f)) {
        fprintf(stderr, "pet_pack_check: %s: read error\n", path);
        free(buf);
        fclose(f);
        return NULL;
    }
    fclose(f);
    {
        unsigned char *exact = (unsigned char *)malloc(n == 0 ? 1u : n);
        if (exact == NULL) {
            free(buf);
            return NULL;
        }
        memcpy(exact, buf, n);
        free(buf);
        *length = n;
        return exact;
    }
}

static int read_full(unsigned char *buf, size_t n)
{
    return fread(buf, 1, n, stdin) == n;
}

static int serve(void)
{
    for (;;) {
        unsigned char len[4];
        unsigned long n;
        unsigned char *buf;
        size_t got = fread(len, 1, 4, stdin);
        if (got == 0 && feof(stdin)) {
            return 0;
        }
        if (got != 4) {
            fprintf(stderr, "pet_pack_check: short length prefix\n");
            return 2;
        }
        n = (unsigned long)len[0] | ((unsigned long)len[1] << 8) | ((unsigned long)len[2] << 16) |
            ((unsigned long)len[3] << 24);
        buf = (unsigned char *)malloc(n == 0 ? 1u : (size_t)n);
        if (buf == NULL) {
            fprintf(stderr, "pet_pack_check: out of memory for %lu bytes\n", n);
            return 2;
        }
        if (!read_full(buf, (size_t)n)) {
            fprintf(stderr, "pet_pack_check: input ends inside a %lu-byte message\n", n);
            free(buf);
            return 2;
        }
        (void)dump(stdout, buf, (size_t)n);
        free(buf);
        fputs("end\n", stdout);
        fflush(stdout);
    }
}

int main(int argc, char **argv)
{
    int i;
    int rc = 0;
    if (argc == 2 && strcmp(argv[1], "--serve") == 0) {
        return serve();
    }
    if (argc == 2 && strcmp(argv[1], "--rules") == 0) {
        int s;
        for (s = 1; s < (int)PET_PACK_STATUS_COUNT; s++) {
            printf("%s\n", pet_pack_status_name((pet_pack_status)s));
        }
        return 0;
    }
    if (argc == 3 && strcmp(argv[1], "--dump") == 0) {
        size_t n = 0;
        unsigned char *buf = read_file(argv[2], &n);
        pet_pack_status s;
        if (buf == NULL) {
            return 2;
        }
        s = dump(stdout, buf, n);
        free(buf);
        return s == PET_PACK_OK ? 0 : 1;
    }
    if (argc < 2 || argv[1][0] == '-') {
        fprintf(stderr, "usage: pet_pack_check FILE... | --dump FILE | --rules | --serve\n");
        return 2;
    }
    for (i = 1; i < argc; i++) {
        size_t n = 0;
        unsigned char *buf = read_file(argv[i], &n);
        pet_pack_status s;
        if (buf == NULL) {
            return 2;
        }
        s = pet_pack_verify(buf, n);
        free(buf);
        printf("%s %s\n", argv[i], verdict(s));
        if (s != PET_PACK_OK) {
            rc = 1;
        }
    }
    return rc;
}
