/*
 * Unit tests of the C pack reader: the CRC, the rule names, one case for
 * each acceptance rule of contract section 10 on a pack built here (so a
 * broken check is caught even if a shared vector goes stale), the lookups
 * on the canonical pack, the zeroing on rejection, and frame selection
 * against a 64-bit reference on the packs with the longest cycles.
 *
 *   pet_pack_test [VECTORS_DIR]      default: tests/vectors
 *
 * Ends with "N passed, N failed" and exits non-zero on any failure.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pet_pack.h"
#include "test_util.h"

static int passed;
static int failed;
static const char *vectors_dir = "tests/vectors";

#define CHECK(cond)                                                                  \
    do {                                                                             \
        if (cond) {                                                                  \
            passed++;                                                                \
        } else {                                                                     \
            failed++;                                                                \
            printf("FAIL %s:%d: %s\n", __FILE__, __LINE__, #cond);                   \
        }                                                                            \
    } while (0)

static unsigned char *load(const char *name, size_t *n)
{
    char path[4096];
    unsigned char *data;
    snprintf(path, sizeof path, "%s/packs/%s", vectors_dir, name);
    data = test_read_file(path, n);
    if (data == NULL) {
        printf("FAIL cannot read %s\n", path);
        failed++;
    }
    return data;
}

static void test_crc(void)
{
    const char *check = "123456789";
    CHECK(pet_pack_crc32(check, 9) == 0xCBF43926u);
    CHECK(pet_pack_crc32(check, 0) == 0u);
    CHECK(pet_pack_crc32_update(pet_pack_crc32(check, 4), check + 4, 5) == 0xCBF43926u);
    CHECK(pet_pack_crc32_update(0u, check, 9) == 0xCBF43926u);
    /* The IEEE check of 32 zero bytes, from zlib. */
    {
        static const unsigned char zeros[32];
        CHECK(pet_pack_crc32(zeros, sizeof zeros) == 0x190A55ADu);
    }
}

static void test_names(void)
{
    static const char *const want[] = {
        "truncated_header",
        "bad_magic",
        "unsupported_version",
        "bad_header_length",
        "pack_length_mismatch",
        "pack_length_unaligned",
        "pack_length_out_of_range",
        "check_mismatch",
        "unsupported_encoding",
        "count_out_of_range",
        "payload_offset_mismatch",
        "payload_offset_out_of_range",
        "fallback_out_of_range",
        "animation_run_out_of_range",
        "frame_image_out_of_range",
        "frame_duration_out_of_range",
        "role_animation_out_of_range",
        "role_padding_nonzero",
        "identifier_unterminated",
        "identifier_padding_nonzero",
        "entry_dimension_out_of_range",
        "entry_length_mismatch",
        "payload_misaligned",
        "payload_out_of_region",
        "payload_layout_mismatch",
        "payload_padding_nonzero",
    };
    size_t i;
    CHECK(sizeof want / sizeof want[0] + 1u == (size_t)PET_PACK_STATUS_COUNT);
    CHECK(strcmp(pet_pack_status_name(PET_PACK_OK), "ok") == 0);
    for (i = 0; i < sizeof want / sizeof want[0]; i++) {
        CHECK(strcmp(pet_pack_status_name((pet_pack_status)(i + 1u)), want[i]) == 0);
    }
    CHECK(strcmp(pet_pack_status_name(PET_PACK_PAYLOAD_OUT_OF_REGION), "payload_out_of_region") == 0);
    CHECK(strcmp(pet_pack_status_name(PET_PACK_STATUS_COUNT), "unknown") == 0);
    CHECK(strcmp(pet_pack_status_name((pet_pack_status)-1), "unknown") == 0);
}

/* ---- One case per acceptance rule (contract section 10) ----
 *
 * tiny_pack builds, without any vector file, the smallest pack with
 * padding in its payload region: one 3x1 image (6 colour bytes, then 2 of
 * padding; 1 mask byte, then 3), one animation of one frame, one role.
 * Its offsets:
 *
 *   0 header, 28 image id, 60 animation id, 92 first frame, 94 frame count,
 *   96 frame image, 98 duration, 100 role id, 132 role animation,
 *   134 role padding, 136 entry (width, height, colour offset 140, colour
 *   length 144, mask offset 148, mask length 152), 156 colour, 164 mask,
 *   168 check; 172 bytes.
 */
#define TINY_LENGTH 172u

static void put16(unsigned char *d, size_t off, unsigned v)
{
    d[off] = (unsigned char)(v & 0xffu);
    d[off + 1] = (unsigned char)((v >> 8) & 0xffu);
}

static void put32(unsigned char *d, size_t off, unsigned long v)
{
    put16(d, off, (unsigned)(v & 0xffffu));
    put16(d, off + 2, (unsigned)((v >> 16) & 0xffffu));
}

/* seal stores the CRC-32 of d[0, n-4) in the last four bytes, so that an
 * edit reaches the rules after the check. */
static void seal(unsigned char *d, size_t n)
{
    put32(d, n - 4u, (unsigned long)pet_pack_crc32(d, n - 4u));
}

static void tiny_pack(unsigned char *d)
{
    memset(d, 0, TINY_LENGTH);
    memcpy(d, "PETP", 4);
    put16(d, 4, 1);              /* version */
    put16(d, 6, 28);             /* header length */
    put32(d, 8, TINY_LENGTH);    /* pack length */
    d[12] = 1;                   /* RGB565 */
    d[13] = 1;                   /* one-bit mask */
    put16(d, 14, 1);             /* images */
    put16(d, 16, 1);             /* animations */
    put16(d, 18, 1);             /* frames */
    put16(d, 20, 1);             /* roles */
    put16(d, 22, 0);             /* fallback role */
    put32(d, 24, 156);           /* payload offset */
    memcpy(d + 28, "sprite", 6);
    memcpy(d + 60, "anim", 4);
    put16(d, 92, 0);
    put16(d, 94, 1);
    put16(d, 96, 0);
    put16(d, 98, 250);
    memcpy(d + 100, "role", 4);
    put16(d, 132, 0);
    put16(d, 136, 3);            /* width */
    put16(d, 138, 1);            /* height */
    put32(d, 140, 156);
    put32(d, 144, 6);
    put32(d, 148, 164);
    put32(d, 152, 1);
    d[156] = 0xf8;               /* one red pixel, two transparent */
    d[164] = 0x80;
    seal(d, TINY_LENGTH);
}

/* An edit at a byte offset: a 16- or 32-bit field or one byte. */
typedef struct pack_edit {
    const char *name;
    unsigned off;
    int width; /* 1, 2 or 4 bytes */
    unsigned long value;
    int sealed; /* 0: leave the old check in place */
    pet_pack_status want;
} pack_edit;

static void test_each_rule(void)
{
    static const pack_edit edits[] = {
        /* Inside the limits and the tables: accepted, so the cases below
         * fail for their one field. */
        {"duration 1 ms", 98, 2, 1, 1, PET_PACK_OK},
        {"duration 60000 ms", 98, 2, 60000, 1, PET_PACK_OK},
        {"magic", 3, 1, 'Q', 1, PET_PACK_BAD_MAGIC},
        {"version 0", 4, 2, 0, 1, PET_PACK_UNSUPPORTED_VERSION},
        {"version 2", 4, 2, 2, 1, PET_PACK_UNSUPPORTED_VERSION},
        {"header length 27", 6, 2, 27, 1, PET_PACK_BAD_HEADER_LENGTH},
        {"header length 29", 6, 2, 29, 1, PET_PACK_BAD_HEADER_LENGTH},
        {"declared 4 bytes more", 8, 4, TINY_LENGTH + 4u, 1, PET_PACK_PACK_LENGTH_MISMATCH},
        {"declared 4 bytes less", 8, 4, TINY_LENGTH - 4u, 1, PET_PACK_PACK_LENGTH_MISMATCH},
        {"a colour byte changed, check not updated", 157, 1, 0x01, 0, PET_PACK_CHECK_MISMATCH},
        {"pixel encoding 2", 12, 1, 2, 1, PET_PACK_UNSUPPORTED_ENCODING},
        {"transparency 0", 13, 1, 0, 1, PET_PACK_UNSUPPORTED_ENCODING},
        {"33 images", 14, 2, 33, 1, PET_PACK_COUNT_OUT_OF_RANGE},
        {"33 animations", 16, 2, 33, 1, PET_PACK_COUNT_OUT_OF_RANGE},
        {"129 frames", 18, 2, 129, 1, PET_PACK_COUNT_OUT_OF_RANGE},
        {"65 roles", 20, 2, 65, 1, PET_PACK_COUNT_OUT_OF_RANGE},
        {"payload offset 4 past the tables", 24, 4, 160, 1, PET_PACK_PAYLOAD_OFFSET_MISMATCH},
        {"fallback role 1 of 1", 22, 2, 1, 1, PET_PACK_FALLBACK_OUT_OF_RANGE},
        {"animation of 0 frames", 94, 2, 0, 1, PET_PACK_ANIMATION_RUN_OUT_OF_RANGE},
        {"animation of 2 frames of 1", 94, 2, 2, 1, PET_PACK_ANIMATION_RUN_OUT_OF_RANGE},
        {"animation from frame 1 of 1", 92, 2, 1, 1, PET_PACK_ANIMATION_RUN_OUT_OF_RANGE},
        {"animation of 17 frames", 94, 2, 17, 1, PET_PACK_ANIMATION_RUN_OUT_OF_RANGE},
        {"frame image 1 of 1", 96, 2, 1, 1, PET_PACK_FRAME_IMAGE_OUT_OF_RANGE},
        {"duration 0 ms", 98, 2, 0, 1, PET_PACK_FRAME_DURATION_OUT_OF_RANGE},
        {"duration 60001 ms", 98, 2, 60001, 1, PET_PACK_FRAME_DURATION_OUT_OF_RANGE},
        {"role animation 1 of 1", 132, 2, 1, 1, PET_PACK_ROLE_ANIMATION_OUT_OF_RANGE},
        {"role padding", 134, 1, 1, 1, PET_PACK_ROLE_PADDING_NONZERO},
        {"role padding, second byte", 135, 1, 1, 1, PET_PACK_ROLE_PADDING_NONZERO},
        {"byte after the image id's terminator", 35, 1, 'x', 1, PET_PACK_IDENTIFIER_PADDING_NONZERO},
        {"last byte of the animation id", 91, 1, 'x', 1, PET_PACK_IDENTIFIER_PADDING_NONZERO},
        {"last byte of the role id", 131, 1, 'x', 1, PET_PACK_IDENTIFIER_PADDING_NONZERO},
        {"width 0", 136, 2, 0, 1, PET_PACK_ENTRY_DIMENSION_OUT_OF_RANGE},
        {"width 1025", 136, 2, 1025, 1, PET_PACK_ENTRY_DIMENSION_OUT_OF_RANGE},
        {"height 0", 138, 2, 0, 1, PET_PACK_ENTRY_DIMENSION_OUT_OF_RANGE},
        {"height 1025", 138, 2, 1025, 1, PET_PACK_ENTRY_DIMENSION_OUT_OF_RANGE},
        {"width 2: colour length no longer 6", 136, 2, 2, 1, PET_PACK_ENTRY_LENGTH_MISMATCH},
        {"colour length 8", 144, 4, 8, 1, PET_PACK_ENTRY_LENGTH_MISMATCH},
        {"mask length 2", 152, 4, 2, 1, PET_PACK_ENTRY_LENGTH_MISMATCH},
        {"colour offset 158", 140, 4, 158, 1, PET_PACK_PAYLOAD_MISALIGNED},
        {"mask offset 165", 148, 4, 165, 1, PET_PACK_PAYLOAD_MISALIGNED},
        {"colour offset before the region", 140, 4, 152, 1, PET_PACK_PAYLOAD_OUT_OF_REGION},
        {"mask offset on the check", 148, 4, 168, 1, PET_PACK_PAYLOAD_OUT_OF_REGION},
        {"mask offset near 2^32", 148, 4, 0xfffffffcul, 1, PET_PACK_PAYLOAD_OUT_OF_REGION},
        {"colour offset one word late", 140, 4, 160, 1, PET_PACK_PAYLOAD_LAYOUT_MISMATCH},
        {"padding after the colour", 163, 1, 1, 1, PET_PACK_PAYLOAD_PADDING_NONZERO},
        {"padding after the mask", 167, 1, 1, 1, PET_PACK_PAYLOAD_PADDING_NONZERO},
    };
    unsigned char d[TINY_LENGTH];
    size_t i;
    pet_pack p;

    tiny_pack(d);
    CHECK(pet_pack_open(&p, d, TINY_LENGTH) == PET_PACK_OK);
    CHECK(pet_pack_image_count(&p) == 1u && pet_pack_role_count(&p) == 1u);
    for (i = 0; i < sizeof edits / sizeof edits[0]; i++) {
        const pack_edit *e = &edits[i];
        pet_pack_status got;
        tiny_pack(d);
        if (e->width == 1) {
            d[e->off] = (unsigned char)e->value;
        } else if (e->width == 2) {
            put16(d, e->off, (unsigned)e->value);
        } else {
            put32(d, e->off, e->value);
        }
        if (e->sealed) {
            seal(d, TINY_LENGTH);
        }
        got = pet_pack_verify(d, TINY_LENGTH);
        if (got != e->want) {
            failed++;
            printf("FAIL rule case \"%s\": %s, want %s\n", e->name, pet_pack_status_name(got),
                   pet_pack_status_name(e->want));
        } else {
            passed++;
        }
    }

    /* The rules an edit of one field cannot reach. */
    tiny_pack(d);
    CHECK(pet_pack_verify(d, 27) == PET_PACK_TRUNCATED_HEADER);
    CHECK(pet_pack_verify(d, 28) == PET_PACK_PACK_LENGTH_MISMATCH);
    /* Every identifier byte set: no terminator. */
    memset(d + 28, 'a', 32);
    seal(d, TINY_LENGTH);
    CHECK(pet_pack_verify(d, TINY_LENGTH) == PET_PACK_IDENTIFIER_UNTERMINATED);
    tiny_pack(d);
    memset(d + 100, 'r', 32);
    seal(d, TINY_LENGTH);
    CHECK(pet_pack_verify(d, TINY_LENGTH) == PET_PACK_IDENTIFIER_UNTERMINATED);
    /* A 31-byte identifier and its terminator fill the field: accepted. */
    tiny_pack(d);
    memset(d + 60, 'n', 31);
    seal(d, TINY_LENGTH);
    CHECK(pet_pack_verify(d, TINY_LENGTH) == PET_PACK_OK);
    {
        /* A declared and supplied length that is not a multiple of four. */
        unsigned char u[TINY_LENGTH + 2u];
        tiny_pack(u);
        put32(u, 8, TINY_LENGTH + 2u);
        u[TINY_LENGTH] = 0;
        u[TINY_LENGTH + 1u] = 0;
        CHECK(pet_pack_verify(u, TINY_LENGTH + 2u) == PET_PACK_PACK_LENGTH_UNALIGNED);
    }
    {
        /* Header-only packs: 28 bytes is under the 32-byte minimum; with
         * its check, empty tables and no role the fallback is out of range;
         * one image puts the tables past the pack. */
        unsigned char h[32];
        tiny_pack(d);
        memcpy(h, d, 28);
        put32(h, 8, 28);
        CHECK(pet_pack_verify(h, 28) == PET_PACK_PACK_LENGTH_OUT_OF_RANGE);
        put32(h, 8, 32);
        put16(h, 14, 0);
        put16(h, 16, 0);
        put16(h, 18, 0);
        put16(h, 20, 0);
        put32(h, 24, 28);
        seal(h, 32);
        CHECK(pet_pack_verify(h, 32) == PET_PACK_FALLBACK_OUT_OF_RANGE);
        put16(h, 14, 1);
        put32(h, 24, 28u + 32u + 20u);
        seal(h, 32);
        CHECK(pet_pack_verify(h, 32) == PET_PACK_PAYLOAD_OFFSET_OUT_OF_RANGE);
    }
    {
        /* 16 MiB is the largest pack; 16 MiB + 4 is refused by its length
         * before anything else is read. */
        size_t big = PET_PACK_MAX_LENGTH + 4u;
        unsigned char *b = (unsigned char *)calloc(big, 1);
        CHECK(b != NULL);
        if (b != NULL) {
            tiny_pack(d);
            memcpy(b, d, TINY_LENGTH - 4u);
            put32(b, 8, (unsigned long)big);
            CHECK(pet_pack_verify(b, big) == PET_PACK_PACK_LENGTH_OUT_OF_RANGE);
            put32(b, 8, PET_PACK_MAX_LENGTH);
            seal(b, PET_PACK_MAX_LENGTH);
            /* Past the length rules and the tables: the payloads end long
             * before the check. */
            CHECK(pet_pack_verify(b, PET_PACK_MAX_LENGTH) == PET_PACK_PAYLOAD_LAYOUT_MISMATCH);
            free(b);
        }
    }
}

static int is_zero(const pet_pack *p)
{
    static const pet_pack zero;
    return memcmp(p, &zero, sizeof *p) == 0;
}

static void check_selection(const pet_pack *p, const char *role, uint64_t ms, unsigned want_role,
                            int want_fallback, unsigned want_frame, unsigned want_image,
                            unsigned long want_next)
{
    pet_pack_selection s;
    CHECK(pet_pack_select(p, role, ms, &s) == 1);
    CHECK(s.role == want_role);
    CHECK(s.used_fallback == want_fallback);
    CHECK(s.frame == want_frame);
    CHECK(s.image == want_image);
    CHECK(s.until_next_ms == want_next);
}

static void test_canonical(void)
{
    size_t n = 0;
    unsigned char *data = load("canonical.pack", &n);
    pet_pack p;
    pet_pack_image im;
    pet_pack_animation a;
    pet_pack_frame f;
    pet_pack_role r;
    pet_pack_selection s;
    if (data == NULL) {
        return;
    }
    CHECK(n == 44232u);
    CHECK(pet_pack_open(&p, data, n) == PET_PACK_OK);
    CHECK(pet_pack_image_count(&p) == 5u);
    CHECK(pet_pack_animation_count(&p) == 5u);
    CHECK(pet_pack_frame_count(&p) == 6u);
    CHECK(pet_pack_role_count(&p) == 6u);
    CHECK(pet_pack_fallback_role(&p) == 5u);

    /* Images and payload pointers (contract section 13's layout). */
    CHECK(pet_pack_image_at(&p, 0, &im) == 1);
    CHECK(strcmp(im.id, "sprite_fallback") == 0);
    CHECK(im.width == 64u && im.height == 64u);
    CHECK(im.colour == data + 708 && im.colour_length == 8192u);
    CHECK(im.mask == data + 708 + 8192 && im.mask_length == 512u);
    CHECK(pet_pack_image_at(&p, 4, &im) == 1);
    CHECK(strcmp(im.id, "sprite_happy") == 0);
    CHECK(im.mask + im.mask_length == data + n - 4);
    CHECK(pet_pack_image_at(&p, 5, &im) == 0 && im.colour == NULL && im.id == NULL);

    CHECK(pet_pack_animation_at(&p, 4, &a) == 1);
    CHECK(strcmp(a.id, "anim_happy") == 0 && a.first_frame == 4u && a.frame_count == 2u);
    CHECK(pet_pack_animation_at(&p, 5, &a) == 0);
    CHECK(pet_pack_frame_at(&p, 5, &f) == 1 && f.image == 1u && f.duration_ms == 300u);
    CHECK(pet_pack_frame_at(&p, 6, &f) == 0);
    CHECK(pet_pack_role_at(&p, 4, &r) == 1 && strcmp(r.id, "expression_happy") == 0 && r.animation == 4u);
    CHECK(pet_pack_role_at(&p, 6, &r) == 0 && r.id == NULL);

    /* Role lookup by identifier. */
    CHECK(pet_pack_find_role(&p, "activity_idle") == 0);
    CHECK(pet_pack_find_role(&p, "fallback_default") == 5);
    CHECK(pet_pack_find_role(&p, "expression_happy") == 4);
    CHECK(pet_pack_find_role(&p, "expression_happ") == -1);
    CHECK(pet_pack_find_role(&p, "expression_happyy") == -1);
    CHECK(pet_pack_find_role(&p, "") == -1);
    CHECK(pet_pack_find_role(&p, NULL) == -1);
    CHECK(pet_pack_find_role(&p, "sprite_idle") == -1);

    /* Frame selection: happy cycles sprite_happy 300 ms, sprite_idle 300 ms. */
    check_selection(&p, "expression_happy", 0u, 4, 0, 4, 4, 300);
    check_selection(&p, "expression_happy", 299u, 4, 0, 4, 4, 1);
    check_selection(&p, "expression_happy", 300u, 4, 0, 5, 1, 300);
    check_selection(&p, "expression_happy", 599u, 4, 0, 5, 1, 1);
    check_selection(&p, "expression_happy", 600u, 4, 0, 4, 4, 300);
    /* 2^64 - 1 = 15 mod 600. */
    check_selection(&p, "expression_happy", 18446744073709551615u, 4, 0, 4, 4, 285);
    /* 2^32 + 123 = 19 mod 600, and 2^32 + 423 = 319. */
    check_selection(&p, "expression_happy", 4294967296u + 123u, 4, 0, 4, 4, 281);
    check_selection(&p, "expression_happy", 4294967296u + 423u, 4, 0, 5, 1, 281);
    check_selection(&p, "activity_idle", 1000u, 0, 0, 1, 1, 800);
    /* An unmapped role plays the fallback role, fallback_default. */
    check_selection(&p, "no_such_role", 1500u, 5, 1, 0, 0, 500);
    check_selection(&p, NULL, 0u, 5, 1, 0, 0, 1000);
    CHECK(pet_pack_select_index(&p, 6, 0u, &s) == 1 && s.role == 5u && s.used_fallback == 1);
    CHECK(pet_pack_select_index(&p, 0xffffffffu, 0u, &s) == 1 && s.role == 5u && s.used_fallback == 1);
    CHECK(pet_pack_select_index(&p, 5, 0u, &s) == 1 && s.role == 5u && s.used_fallback == 0);
    CHECK(pet_pack_frame_image(&p, "expression_happy", 450u, &im) == 1);
    CHECK(strcmp(im.id, "sprite_idle") == 0 && im.width == 64u);

    /* The reader needs no alignment: the same pack one byte off. */
    {
        unsigned char *shifted = (unsigned char *)malloc(n + 1);
        if (shifted != NULL) {
            memcpy(shifted + 1, data, n);
            CHECK(pet_pack_open(&p, shifted + 1, n) == PET_PACK_OK);
            CHECK(pet_pack_image_at(&p, 1, &im) == 1 && im.colour == shifted + 1 + 708 + 8704);
            free(shifted);
        }
    }

    /* A rejection zeroes the caller's pack and every lookup fails. */
    data[5000] ^= 0x20;
    memset(&p, 0xa5, sizeof p);
    CHECK(pet_pack_open(&p, data, n) == PET_PACK_CHECK_MISMATCH);
    CHECK(is_zero(&p));
    CHECK(pet_pack_role_count(&p) == 0u && pet_pack_image_count(&p) == 0u);
    CHECK(pet_pack_image_at(&p, 0, &im) == 0 && im.colour == NULL);
    CHECK(pet_pack_role_at(&p, 0, &r) == 0);
    CHECK(pet_pack_find_role(&p, "activity_idle") == -1);
    CHECK(pet_pack_select(&p, "activity_idle", 0u, &s) == 0 && s.image == 0u);
    CHECK(pet_pack_frame_image(&p, "activity_idle", 0u, &im) == 0 && im.colour == NULL);
    data[5000] ^= 0x20;
    CHECK(pet_pack_open(&p, data, n) == PET_PACK_OK);
    CHECK(pet_pack_open(&p, data, n - 4) == PET_PACK_PACK_LENGTH_MISMATCH && is_zero(&p));

    memset(&p, 0xa5, sizeof p);
    CHECK(pet_pack_open(&p, NULL, 100) == PET_PACK_TRUNCATED_HEADER && is_zero(&p));
    CHECK(pet_pack_open(&p, data, 0) == PET_PACK_TRUNCATED_HEADER && is_zero(&p));
    CHECK(pet_pack_verify(data, 27) == PET_PACK_TRUNCATED_HEADER);
    CHECK(pet_pack_verify(data, n) == PET_PACK_OK);
    free(data);
}

/* The frame a 64-bit reference picks: elapsed mod cycle, then the walk. */
static void reference(const pet_pack *p, uint32_t role, uint64_t ms, uint16_t *frame, uint32_t *next)
{
    pet_pack_role r;
    pet_pack_animation a;
    pet_pack_frame f;
    uint64_t cycle = 0;
    uint64_t t;
    uint32_t i;
    if (role >= pet_pack_role_count(p)) {
        role = pet_pack_fallback_role(p);
    }
    pet_pack_role_at(p, role, &r);
    pet_pack_animation_at(p, r.animation, &a);
    for (i = 0; i < a.frame_count; i++) {
        pet_pack_frame_at(p, a.first_frame + i, &f);
        cycle += f.duration_ms;
    }
    t = ms % cycle;
    for (i = 0; i < a.frame_count; i++) {
        pet_pack_frame_at(p, a.first_frame + i, &f);
        if (t < f.duration_ms) {
            break;
        }
        t -= f.duration_ms;
    }
    *frame = (uint16_t)(a.first_frame + i);
    *next = (uint32_t)(f.duration_ms - t);
}

static void test_selection_against_reference(const char *name)
{
    size_t n = 0;
    unsigned char *data = load(name, &n);
    pet_pack p;
    uint64_t x = 0x9e3779b97f4a7c15u;
    uint32_t role;
    int k;
    int mismatches = 0;
    if (data == NULL) {
        return;
    }
    CHECK(pet_pack_open(&p, data, n) == PET_PACK_OK);
    for (role = 0; role <= pet_pack_role_count(&p); role++) {
        for (k = 0; k < 2000; k++) {
            pet_pack_selection s;
            uint16_t frame;
            uint32_t next;
            uint64_t ms;
            x = x * 6364136223846793005u + 1442695040888963407u;
            /* Every magnitude: small times, 32-bit wrap, the whole range. */
            ms = k % 3 == 0 ? x >> 44 : k % 3 == 1 ? (x >> 20) + 4294000000u : x;
            (void)pet_pack_select_index(&p, role, ms, &s);
            reference(&p, role, ms, &frame, &next);
            if (s.frame != frame || s.until_next_ms != next) {
                mismatches++;
            }
        }
    }
    CHECK(mismatches == 0);
    free(data);
}

int main(int argc, char **argv)
{
    if (argc > 1) {
        vectors_dir = argv[1];
    }
    test_crc();
    test_names();
    test_each_rule();
    test_canonical();
    test_selection_against_reference("limit_cycle_960000ms.pack");
    test_selection_against_reference("limits_all.pack");
    test_selection_against_reference("limit_frames_128.pack");
    printf("%d passed, %d failed\n", passed, failed);
    return failed == 0 ? 0 : 1;
}
