/*
 * libFuzzer target for the C pack reader, built with clang
 * -fsanitize=fuzzer,address,undefined (see firmware/fuzz.sh).
 *
 * For every input, and for the input with its length and check resealed so
 * that mutations reach the rules after the CRC, it checks: the verdict is a
 * status of the enum with a name; pet_pack_verify agrees with pet_pack_open;
 * a rejection leaves the pet_pack zeroed and answers no lookup; an accepted
 * pack answers every lookup with records and pointers inside the input and
 * selections inside their animations. Every payload byte of an accepted pack
 * is read, so AddressSanitizer sees any pointer that strays.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "pet_pack.h"

#define REQUIRE(cond)           \
    do {                        \
        if (!(cond)) {          \
            __builtin_trap();   \
        }                       \
    } while (0)

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static volatile uint32_t sink;

static int inside(const uint8_t *data, size_t n, const void *p, size_t len)
{
    const uint8_t *q = (const uint8_t *)p;
    return q >= data && q <= data + n && len <= (size_t)(data + n - q);
}

static void touch(const uint8_t *p, uint32_t n)
{
    uint32_t i;
    uint32_t sum = 0;
    for (i = 0; i < n; i++) {
        sum += p[i];
    }
    sink += sum;
}

static void exercise(const uint8_t *data, size_t size)
{
    static const uint64_t times[] = {0u, 1u, 999u, 1000u, 60000u, 959999u, 4294967295u,
                                     4294967296u, 18446744073709551615u};
    pet_pack p;
    pet_pack_status s;
    pet_pack_selection sel;
    pet_pack_image im;
    pet_pack_animation a;
    pet_pack_frame f;
    pet_pack_role r;
    uint32_t i;
    size_t k;

    memset(&p, 0xa5, sizeof p);
    s = pet_pack_open(&p, data, size);
    REQUIRE((unsigned)s < (unsigned)PET_PACK_STATUS_COUNT);
    REQUIRE(strcmp(pet_pack_status_name(s), "unknown") != 0);
    REQUIRE(pet_pack_verify(data, size) == s);
    if (s != PET_PACK_OK) {
        static const pet_pack zero;
        REQUIRE(memcmp(&p, &zero, sizeof p) == 0);
        REQUIRE(pet_pack_select(&p, "x", 0u, &sel) == 0);
        REQUIRE(pet_pack_image_at(&p, 0, &im) == 0 && im.colour == NULL);
        REQUIRE(pet_pack_find_role(&p, "") == -1);
        return;
    }
    /* An accepted pack has at least one of everything (runtime/pack doc). */
    REQUIRE(pet_pack_image_count(&p) >= 1u && pet_pack_image_count(&p) <= PET_PACK_MAX_IMAGES);
    REQUIRE(pet_pack_animation_count(&p) >= 1u && pet_pack_animation_count(&p) <= PET_PACK_MAX_ANIMATIONS);
    REQUIRE(pet_pack_frame_count(&p) >= 1u && pet_pack_frame_count(&p) <= PET_PACK_MAX_FRAMES);
    REQUIRE(pet_pack_role_count(&p) >= 1u && pet_pack_role_count(&p) <= PET_PACK_MAX_ROLES);
    REQUIRE(pet_pack_fallback_role(&p) < pet_pack_role_count(&p));
    for (i = 0; i < pet_pack_image_count(&p); i++) {
        REQUIRE(pet_pack_image_at(&p, i, &im) == 1);
        REQUIRE(inside(data, size, im.id, PET_PACK_IDENTIFIER_LENGTH));
        REQUIRE(strlen(im.id) < PET_PACK_IDENTIFIER_LENGTH);
        REQUIRE(im.width >= 1u && im.width <= 1024u && im.height >= 1u && im.height <= 1024u);
        REQUIRE(im.colour_length == (uint32_t)im.width * im.height * 2u);
        REQUIRE(im.mask_length == ((uint32_t)im.width + 7u) / 8u * im.height);
        REQUIRE(inside(data, size - 4u, im.colour, im.colour_length));
        REQUIRE(inside(data, size - 4u, im.mask, im.mask_length));
        REQUIRE(((size_t)(im.colour - data) & 3u) == 0u && ((size_t)(im.mask - data) & 3u) == 0u);
        touch(im.colour, im.colour_length);
        touch(im.mask, im.mask_length);
    }
    REQUIRE(pet_pack_image_at(&p, i, &im) == 0);
    for (i = 0; i < pet_pack_animation_count(&p); i++) {
        REQUIRE(pet_pack_animation_at(&p, i, &a) == 1);
        REQUIRE(inside(data, size, a.id, PET_PACK_IDENTIFIER_LENGTH));
        REQUIRE(a.frame_count >= 1u && a.frame_count <= 16u);
        REQUIRE((uint32_t)a.first_frame + a.frame_count <= pet_pack_frame_count(&p));
    }
    REQUIRE(pet_pack_animation_at(&p, i, &a) == 0);
    for (i = 0; i < pet_pack_frame_count(&p); i++) {
        REQUIRE(pet_pack_frame_at(&p, i, &f) == 1);
        REQUIRE(f.image < pet_pack_image_count(&p));
        REQUIRE(f.duration_ms >= 1u && f.duration_ms <= 60000u);
    }
    REQUIRE(pet_pack_frame_at(&p, i, &f) == 0);
    for (i = 0; i < pet_pack_role_count(&p); i++) {
        int32_t found;
        REQUIRE(pet_pack_role_at(&p, i, &r) == 1);
        REQUIRE(inside(data, size, r.id, PET_PACK_IDENTIFIER_LENGTH));
        REQUIRE(r.animation < pet_pack_animation_count(&p));
        found = pet_pack_find_role(&p, r.id);
        REQUIRE(found >= 0 && (uint32_t)found <= i);
    }
    REQUIRE(pet_pack_role_at(&p, i, &r) == 0);
    for (i = 0; i <= pet_pack_role_count(&p); i++) {
        for (k = 0; k < sizeof times / sizeof times[0]; k++) {
            REQUIRE(pet_pack_select_index(&p, i, times[k], &sel) == 1);
            REQUIRE(sel.used_fallback == (i >= pet_pack_role_count(&p)));
            REQUIRE(pet_pack_role_at(&p, sel.role, &r) == 1 && r.animation == sel.animation);
            REQUIRE(pet_pack_animation_at(&p, sel.animation, &a) == 1);
            REQUIRE(sel.frame >= a.first_frame && sel.frame < a.first_frame + a.frame_count);
            REQUIRE(pet_pack_frame_at(&p, sel.frame, &f) == 1 && f.image == sel.image);
            REQUIRE(sel.until_next_ms >= 1u && sel.until_next_ms <= f.duration_ms);
        }
    }
    REQUIRE(pet_pack_select(&p, NULL, 5u, &sel) == 1 && sel.used_fallback);
    REQUIRE(pet_pack_frame_image(&p, "", 7u, &im) == 1);
}

static void put32(uint8_t *b, size_t off, uint32_t v)
{
    b[off] = (uint8_t)v;
    b[off + 1] = (uint8_t)(v >> 8);
    b[off + 2] = (uint8_t)(v >> 16);
    b[off + 3] = (uint8_t)(v >> 24);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    exercise(data, size);
    /* The same bytes with the declared length and the check made right. */
    if (size >= PET_PACK_MIN_LENGTH && size <= PET_PACK_MAX_LENGTH) {
        uint8_t *b = (uint8_t *)malloc(size);
        if (b != NULL) {
            memcpy(b, data, size);
            put32(b, 8, (uint32_t)size);
            put32(b, size - 4, pet_pack_crc32(b, size - 4));
            exercise(b, size);
            free(b);
        }
    }
    return 0;
}
