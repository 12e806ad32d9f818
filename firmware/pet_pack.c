/*
 * pet_pack: the C99 reader of PETP v1. See pet_pack.h for the contract and
 * runtime/pack/doc.go for the rule table this file follows line by line.
 *
 * Every multi-byte field is read a byte at a time, so the reader needs no
 * alignment and never depends on the host's byte order. Every count is
 * bounded before it scales an offset, every offset is bounded before bytes
 * are read at it, and every sum is formed only once its terms are known to
 * be small (a validated pack is at most 16 MiB, an image payload at most
 * 2 MiB), so nothing wraps in 32-bit arithmetic.
 */
#include "pet_pack.h"

#include <string.h>

/* Record lengths (pack contract sections 4 to 6). */
#define IMAGE_RECORD 32u
#define ANIMATION_RECORD 36u
#define FRAME_RECORD 4u
#define ROLE_RECORD 36u
#define ENTRY_RECORD 20u

/* Header field offsets (section 4). */
#define OFF_VERSION 4u
#define OFF_HEADER_LENGTH 6u
#define OFF_PACK_LENGTH 8u
#define OFF_PIXEL_ENCODING 12u
#define OFF_TRANSPARENCY 13u
#define OFF_IMAGE_COUNT 14u
#define OFF_ANIMATION_COUNT 16u
#define OFF_FRAME_COUNT 18u
#define OFF_ROLE_COUNT 20u
#define OFF_FALLBACK 22u
#define OFF_PAYLOAD 24u

/* Little-endian fields, assembled from bytes, so neither alignment nor the
 * host's byte order matters (compilers turn rd32 into one load where the
 * target allows it, which the CRC's inner loop relies on for speed). */
static uint32_t rd16(const uint8_t *d, uint32_t off)
{
    return (uint32_t)d[off] | ((uint32_t)d[off + 1u] << 8);
}

static uint32_t rd32(const uint8_t *d, uint32_t off)
{
    return (uint32_t)d[off] | ((uint32_t)d[off + 1u] << 8) | ((uint32_t)d[off + 2u] << 16) |
           ((uint32_t)d[off + 3u] << 24);
}

/*
 * CRC-32 (IEEE 802.3, reflected polynomial 0xEDB88320), chosen at build time:
 *
 *  - default: a braided CRC (zlib's construction over 32-bit values) in five
 *    independent lanes, so five table lookups are in flight at once instead
 *    of one chain; 5 KiB of constant tables.
 *  - PET_PACK_CRC_SMALL=1: one 256-entry table (1 KiB) and a byte a step,
 *    for parts where flash matters more than boot time.
 *  - PET_PACK_CRC_HOOK=name: no tables; the platform supplies
 *    uint32_t name(uint32_t crc, const void *data, size_t length) with the
 *    contract of pet_pack_crc32_update (zlib's crc32() convention), for
 *    example over a ROM routine or a hardware CRC unit.
 *
 * All three give the same values; firmware/test.sh runs the shared vectors
 * through each.
 */
#ifdef PET_PACK_CRC_SLICE_BY_8
#error "PET_PACK_CRC_SLICE_BY_8 is gone: the default CRC is now faster than slicing-by-8 and smaller (5 KiB); drop the define, or set PET_PACK_CRC_SMALL=1 for the 1 KiB table"
#endif
#ifndef PET_PACK_CRC_SMALL
#define PET_PACK_CRC_SMALL 0
#endif

#ifdef PET_PACK_CRC_HOOK
#if PET_PACK_CRC_SMALL
#error "PET_PACK_CRC_HOOK and PET_PACK_CRC_SMALL exclude each other: the hook replaces the tables"
#endif

uint32_t PET_PACK_CRC_HOOK(uint32_t crc, const void *data, size_t length);

uint32_t pet_pack_crc32_update(uint32_t crc, const void *data, size_t length)
{
    return PET_PACK_CRC_HOOK(crc, data, length);
}

#else /* !PET_PACK_CRC_HOOK */

#include "pet_pack_crc.h"

#if !PET_PACK_CRC_SMALL
#if PET_PACK_CRC_BRAIDS != 5
#error "pet_pack_crc.h was generated for another lane count than the five lanes below"
#endif

/* One lane's step: the value w (register XOR data word) moved past its own
 * word and the four words of the other lanes. */
static uint32_t braid_step(uint32_t w)
{
    return crc_braid[0][w & 0xffu] ^ crc_braid[1][(w >> 8) & 0xffu] ^
           crc_braid[2][(w >> 16) & 0xffu] ^ crc_braid[3][w >> 24];
}

/* The register after the four bytes of w (register XOR data word), a byte
 * a step: used once per call to fold the lanes together. */
static uint32_t word_step(uint32_t w)
{
    w = crc_table[w & 0xffu] ^ (w >> 8);
    w = crc_table[w & 0xffu] ^ (w >> 8);
    w = crc_table[w & 0xffu] ^ (w >> 8);
    return crc_table[w & 0xffu] ^ (w >> 8);
}
#endif

uint32_t pet_pack_crc32_update(uint32_t crc, const void *data, size_t length)
{
    const uint8_t *p = (const uint8_t *)data;
    crc = ~crc;
#if !PET_PACK_CRC_SMALL
    {
        /* Lane i takes words i, i + 5, i + 10, ... of each 20-byte block;
         * lane 0 starts from the running register, the others from zero
         * (the CRC is linear). After the last block the lanes are folded
         * into one register word by word, in stream order. */
        size_t blocks = length / 20u;
        if (blocks > 0u) {
            uint32_t c0 = crc, c1 = 0u, c2 = 0u, c3 = 0u, c4 = 0u;
            length -= blocks * 20u;
            for (; blocks > 1u; blocks--, p += 20) {
                uint32_t w0 = c0 ^ rd32(p, 0u), w1 = c1 ^ rd32(p, 4u), w2 = c2 ^ rd32(p, 8u);
                uint32_t w3 = c3 ^ rd32(p, 12u), w4 = c4 ^ rd32(p, 16u);
                c0 = braid_step(w0);
                c1 = braid_step(w1);
                c2 = braid_step(w2);
                c3 = braid_step(w3);
                c4 = braid_step(w4);
            }
            crc = word_step(c0 ^ rd32(p, 0u));
            crc = word_step(crc ^ c1 ^ rd32(p, 4u));
            crc = word_step(crc ^ c2 ^ rd32(p, 8u));
            crc = word_step(crc ^ c3 ^ rd32(p, 12u));
            crc = word_step(crc ^ c4 ^ rd32(p, 16u));
            p += 20;
        }
    }
#endif
    for (; length > 0u; p++, length--) {
        crc = crc_table[(crc ^ *p) & 0xffu] ^ (crc >> 8);
    }
    return ~crc;
}

#endif /* PET_PACK_CRC_HOOK */

uint32_t pet_pack_crc32(const void *data, size_t length)
{
    return pet_pack_crc32_update(0u, data, length);
}

static const char *const status_names[PET_PACK_STATUS_COUNT] = {
    "ok",
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

const char *pet_pack_status_name(pet_pack_status status)
{
    /* Compared as unsigned so a negative value from a cast is caught too. */
    if ((unsigned)status >= (unsigned)PET_PACK_STATUS_COUNT) {
        return "unknown";
    }
    return status_names[status];
}

static uint32_t align4(uint32_t n)
{
    return (n + 3u) & ~(uint32_t)3u;
}

/* Where the tables start for bounded counts (runtime/pack Layout). */
typedef struct layout {
    uint32_t images;
    uint32_t animations;
    uint32_t frames;
    uint32_t roles;
    uint32_t entries;
    uint32_t payload;
} layout;

static layout layout_of(uint32_t images, uint32_t animations, uint32_t frames, uint32_t roles)
{
    layout t;
    t.images = PET_PACK_HEADER_LENGTH;
    t.animations = t.images + images * IMAGE_RECORD;
    t.frames = t.animations + animations * ANIMATION_RECORD;
    t.roles = t.frames + frames * FRAME_RECORD;
    t.entries = t.roles + roles * ROLE_RECORD;
    t.payload = t.entries + images * ENTRY_RECORD;
    return t;
}

/* An entry record's fields. */
typedef struct entry {
    uint32_t width;
    uint32_t height;
    uint32_t colour_offset;
    uint32_t colour_length;
    uint32_t mask_offset;
    uint32_t mask_length;
} entry;

static entry entry_at(const uint8_t *d, const layout *t, uint32_t i)
{
    entry e;
    uint32_t r = t->entries + i * ENTRY_RECORD;
    e.width = rd16(d, r);
    e.height = rd16(d, r + 2u);
    e.colour_offset = rd32(d, r + 4u);
    e.colour_length = rd32(d, r + 8u);
    e.mask_offset = rd32(d, r + 12u);
    e.mask_length = rd32(d, r + 16u);
    return e;
}

/* The offset of the identifier field k of the image, animation and role
 * tables taken in that order, the order the identifier rules report in. */
static uint32_t identifier_offset(const layout *t, uint32_t images, uint32_t animations,
                                  uint32_t k)
{
    if (k < images) {
        return t->images + k * IMAGE_RECORD;
    }
    k -= images;
    if (k < animations) {
        return t->animations + k * ANIMATION_RECORD;
    }
    k -= animations;
    return t->roles + k * ROLE_RECORD;
}

/* 1 when every byte of d[from, to) is zero. */
static int all_zero(const uint8_t *d, uint32_t from, uint32_t to)
{
    uint32_t j;
    for (j = from; j < to; j++) {
        if (d[j] != 0u) {
            return 0;
        }
    }
    return 1;
}

/* The tables' rules, from animation_run_out_of_range to
 * identifier_padding_nonzero. The tables lie inside the pack by now. */
static pet_pack_status check_tables(const uint8_t *d, const layout *t, uint32_t images,
                                    uint32_t animations, uint32_t frames, uint32_t roles)
{
    uint32_t i;
    uint32_t ids = images + animations + roles;

    for (i = 0; i < animations; i++) {
        uint32_t r = t->animations + i * ANIMATION_RECORD;
        uint32_t first = rd16(d, r + 32u);
        uint32_t count = rd16(d, r + 34u);
        /* first + count is at most 2 * 65535: no wrap. */
        if (count == 0u || count > PET_PACK_MAX_FRAMES_PER_ANIMATION || first + count > frames) {
            return PET_PACK_ANIMATION_RUN_OUT_OF_RANGE;
        }
    }
    for (i = 0; i < frames; i++) {
        if (rd16(d, t->frames + i * FRAME_RECORD) >= images) {
            return PET_PACK_FRAME_IMAGE_OUT_OF_RANGE;
        }
    }
    for (i = 0; i < frames; i++) {
        uint32_t ms = rd16(d, t->frames + i * FRAME_RECORD + 2u);
        if (ms < PET_PACK_MIN_DURATION_MS || ms > PET_PACK_MAX_DURATION_MS) {
            return PET_PACK_FRAME_DURATION_OUT_OF_RANGE;
        }
    }
    for (i = 0; i < roles; i++) {
        if (rd16(d, t->roles + i * ROLE_RECORD + 32u) >= animations) {
            return PET_PACK_ROLE_ANIMATION_OUT_OF_RANGE;
        }
    }
    for (i = 0; i < roles; i++) {
        if (rd16(d, t->roles + i * ROLE_RECORD + 34u) != 0u) {
            return PET_PACK_ROLE_PADDING_NONZERO;
        }
    }
    for (i = 0; i < ids; i++) {
        uint32_t off = identifier_offset(t, images, animations, i);
        if (memchr(d + off, 0, PET_PACK_IDENTIFIER_LENGTH) == NULL) {
            return PET_PACK_IDENTIFIER_UNTERMINATED;
        }
    }
    for (i = 0; i < ids; i++) {
        uint32_t off = identifier_offset(t, images, animations, i);
        const uint8_t *end = (const uint8_t *)memchr(d + off, 0, PET_PACK_IDENTIFIER_LENGTH);
        uint32_t terminator = (uint32_t)(end - (d + off));
        if (!all_zero(d, off + terminator + 1u, off + PET_PACK_IDENTIFIER_LENGTH)) {
            return PET_PACK_IDENTIFIER_PADDING_NONZERO;
        }
    }
    return PET_PACK_OK;
}

/* The entries' and payloads' rules, from entry_dimension_out_of_range to
 * payload_padding_nonzero. n is the validated pack length. */
static pet_pack_status check_entries(const uint8_t *d, uint32_t n, const layout *t,
                                     uint32_t images)
{
    uint32_t i;
    uint32_t lo = t->payload;
    uint32_t hi = n - PET_PACK_CHECK_LENGTH; /* the check's offset */
    uint32_t cursor;

    for (i = 0; i < images; i++) {
        entry e = entry_at(d, t, i);
        if (e.width < PET_PACK_MIN_DIMENSION || e.width > PET_PACK_MAX_DIMENSION ||
            e.height < PET_PACK_MIN_DIMENSION || e.height > PET_PACK_MAX_DIMENSION) {
            return PET_PACK_ENTRY_DIMENSION_OUT_OF_RANGE;
        }
    }
    for (i = 0; i < images; i++) {
        entry e = entry_at(d, t, i);
        /* At most 1024 * 1024 * 2 and 128 * 1024: far inside 32 bits. */
        if (e.colour_length != e.width * e.height * 2u ||
            e.mask_length != (e.width + 7u) / 8u * e.height) {
            return PET_PACK_ENTRY_LENGTH_MISMATCH;
        }
    }
    for (i = 0; i < images; i++) {
        entry e = entry_at(d, t, i);
        if ((e.colour_offset & 3u) != 0u || (e.mask_offset & 3u) != 0u) {
            return PET_PACK_PAYLOAD_MISALIGNED;
        }
    }
    for (i = 0; i < images; i++) {
        entry e = entry_at(d, t, i);
        /* offset + length <= hi, written so that nothing can wrap: an
         * offset near 2^32 must not come round into the region. */
        if (e.colour_offset < lo || e.colour_length > hi || e.colour_offset > hi - e.colour_length ||
            e.mask_offset < lo || e.mask_length > hi || e.mask_offset > hi - e.mask_length) {
            return PET_PACK_PAYLOAD_OUT_OF_REGION;
        }
    }
    /* Every payload now lies inside [lo, hi), hi < 16 MiB, so the cursor
     * and its aligned successors stay far inside 32 bits. */
    cursor = lo;
    for (i = 0; i < images; i++) {
        entry e = entry_at(d, t, i);
        uint32_t colour = align4(cursor);
        uint32_t mask = align4(colour + e.colour_length);
        if (e.colour_offset != colour || e.mask_offset != mask) {
            return PET_PACK_PAYLOAD_LAYOUT_MISMATCH;
        }
        cursor = mask + e.mask_length;
    }
    if (align4(cursor) + PET_PACK_CHECK_LENGTH != n) {
        return PET_PACK_PAYLOAD_LAYOUT_MISMATCH;
    }
    cursor = lo;
    for (i = 0; i < images; i++) {
        entry e = entry_at(d, t, i);
        if (!all_zero(d, cursor, e.colour_offset) ||
            !all_zero(d, e.colour_offset + e.colour_length, e.mask_offset)) {
            return PET_PACK_PAYLOAD_PADDING_NONZERO;
        }
        cursor = e.mask_offset + e.mask_length;
    }
    if (!all_zero(d, cursor, hi)) {
        return PET_PACK_PAYLOAD_PADDING_NONZERO;
    }
    return PET_PACK_OK;
}

/* Applies every acceptance rule, in the Go reader's order, and on success
 * stores the layout and counts in *t and *counts. */
static pet_pack_status check(const uint8_t *d, size_t length, layout *t, uint32_t counts[4])
{
    uint32_t n;
    uint32_t images;
    uint32_t animations;
    uint32_t frames;
    uint32_t roles;
    pet_pack_status s;

    if (d == NULL || length < PET_PACK_HEADER_LENGTH) {
        return PET_PACK_TRUNCATED_HEADER;
    }
    if (d[0] != 'P' || d[1] != 'E' || d[2] != 'T' || d[3] != 'P') {
        return PET_PACK_BAD_MAGIC;
    }
    if (rd16(d, OFF_VERSION) != PET_PACK_VERSION) {
        return PET_PACK_UNSUPPORTED_VERSION;
    }
    if (rd16(d, OFF_HEADER_LENGTH) != PET_PACK_HEADER_LENGTH) {
        return PET_PACK_BAD_HEADER_LENGTH;
    }
    n = rd32(d, OFF_PACK_LENGTH);
    /* Equal in both directions, so neither a size_t wider than 32 bits
     * (a supplied length past 4 GiB) nor a narrower one can alias. */
    if ((size_t)n != length || (uint32_t)length != n) {
        return PET_PACK_PACK_LENGTH_MISMATCH;
    }
    if ((n & 3u) != 0u) {
        return PET_PACK_PACK_LENGTH_UNALIGNED;
    }
    if (n < PET_PACK_MIN_LENGTH || n > PET_PACK_MAX_LENGTH) {
        return PET_PACK_PACK_LENGTH_OUT_OF_RANGE;
    }
    if (pet_pack_crc32(d, n - PET_PACK_CHECK_LENGTH) != rd32(d, n - PET_PACK_CHECK_LENGTH)) {
        return PET_PACK_CHECK_MISMATCH;
    }
    if (d[OFF_PIXEL_ENCODING] != 1u || d[OFF_TRANSPARENCY] != 1u) {
        return PET_PACK_UNSUPPORTED_ENCODING;
    }
    images = rd16(d, OFF_IMAGE_COUNT);
    animations = rd16(d, OFF_ANIMATION_COUNT);
    frames = rd16(d, OFF_FRAME_COUNT);
    roles = rd16(d, OFF_ROLE_COUNT);
    if (images > PET_PACK_MAX_IMAGES || animations > PET_PACK_MAX_ANIMATIONS ||
        frames > PET_PACK_MAX_FRAMES || roles > PET_PACK_MAX_ROLES) {
        return PET_PACK_COUNT_OUT_OF_RANGE;
    }
    *t = layout_of(images, animations, frames, roles);
    if (rd32(d, OFF_PAYLOAD) != t->payload) {
        return PET_PACK_PAYLOAD_OFFSET_MISMATCH;
    }
    if (t->payload > n - PET_PACK_CHECK_LENGTH) {
        return PET_PACK_PAYLOAD_OFFSET_OUT_OF_RANGE;
    }
    if (rd16(d, OFF_FALLBACK) >= roles) {
        return PET_PACK_FALLBACK_OUT_OF_RANGE;
    }
    s = check_tables(d, t, images, animations, frames, roles);
    if (s != PET_PACK_OK) {
        return s;
    }
    s = check_entries(d, n, t, images);
    if (s != PET_PACK_OK) {
        return s;
    }
    counts[0] = images;
    counts[1] = animations;
    counts[2] = frames;
    counts[3] = roles;
    return PET_PACK_OK;
}

pet_pack_status pet_pack_verify(const void *data, size_t length)
{
    layout t;
    uint32_t counts[4];
    return check((const uint8_t *)data, length, &t, counts);
}

pet_pack_status pet_pack_open(pet_pack *pack, const void *data, size_t length)
{
    const uint8_t *d = (const uint8_t *)data;
    layout t;
    uint32_t counts[4];
    pet_pack_status s;

    memset(pack, 0, sizeof *pack);
    s = check(d, length, &t, counts);
    if (s != PET_PACK_OK) {
        return s;
    }
    pack->data = d;
    pack->length = (uint32_t)length;
    pack->image_count = (uint16_t)counts[0];
    pack->animation_count = (uint16_t)counts[1];
    pack->frame_count = (uint16_t)counts[2];
    pack->role_count = (uint16_t)counts[3];
    pack->fallback_role = (uint16_t)rd16(d, OFF_FALLBACK);
    pack->images_offset = t.images;
    pack->animations_offset = t.animations;
    pack->frames_offset = t.frames;
    pack->roles_offset = t.roles;
    pack->entries_offset = t.entries;
    return PET_PACK_OK;
}

uint16_t pet_pack_image_count(const pet_pack *pack)
{
    return pack->image_count;
}

uint16_t pet_pack_animation_count(const pet_pack *pack)
{
    return pack->animation_count;
}

uint16_t pet_pack_frame_count(const pet_pack *pack)
{
    return pack->frame_count;
}

uint16_t pet_pack_role_count(const pet_pack *pack)
{
    return pack->role_count;
}

uint16_t pet_pack_fallback_role(const pet_pack *pack)
{
    return pack->fallback_role;
}

int pet_pack_image_at(const pet_pack *pack, uint32_t index, pet_pack_image *out)
{
    const uint8_t *d = pack->data;
    uint32_t r;
    memset(out, 0, sizeof *out);
    if (index >= pack->image_count) {
        return 0;
    }
    r = pack->entries_offset + index * ENTRY_RECORD;
    out->id = (const char *)(d + pack->images_offset + index * IMAGE_RECORD);
    out->width = (uint16_t)rd16(d, r);
    out->height = (uint16_t)rd16(d, r + 2u);
    out->colour = d + rd32(d, r + 4u);
    out->colour_length = rd32(d, r + 8u);
    out->mask = d + rd32(d, r + 12u);
    out->mask_length = rd32(d, r + 16u);
    return 1;
}

int pet_pack_animation_at(const pet_pack *pack, uint32_t index, pet_pack_animation *out)
{
    uint32_t r;
    memset(out, 0, sizeof *out);
    if (index >= pack->animation_count) {
        return 0;
    }
    r = pack->animations_offset + index * ANIMATION_RECORD;
    out->id = (const char *)(pack->data + r);
    out->first_frame = (uint16_t)rd16(pack->data, r + 32u);
    out->frame_count = (uint16_t)rd16(pack->data, r + 34u);
    return 1;
}

int pet_pack_frame_at(const pet_pack *pack, uint32_t index, pet_pack_frame *out)
{
    uint32_t r;
    memset(out, 0, sizeof *out);
    if (index >= pack->frame_count) {
        return 0;
    }
    r = pack->frames_offset + index * FRAME_RECORD;
    out->image = (uint16_t)rd16(pack->data, r);
    out->duration_ms = (uint16_t)rd16(pack->data, r + 2u);
    return 1;
}

int pet_pack_role_at(const pet_pack *pack, uint32_t index, pet_pack_role *out)
{
    uint32_t r;
    memset(out, 0, sizeof *out);
    if (index >= pack->role_count) {
        return 0;
    }
    r = pack->roles_offset + index * ROLE_RECORD;
    out->id = (const char *)(pack->data + r);
    out->animation = (uint16_t)rd16(pack->data, r + 32u);
    return 1;
}

int32_t pet_pack_find_role(const pet_pack *pack, const char *id)
{
    uint32_t i;
    if (id == NULL) {
        return -1;
    }
    for (i = 0; i < pack->role_count; i++) {
        /* The field holds a terminator (identifier_unterminated), so the
         * walk stops inside it, and it reads id no further than the first
         * byte that differs or id's own terminator. */
        const uint8_t *field = pack->data + pack->roles_offset + i * ROLE_RECORD;
        uint32_t j = 0;
        while ((uint8_t)id[j] == field[j] && field[j] != 0u) {
            j++;
        }
        if ((uint8_t)id[j] == field[j]) {
            return (int32_t)i;
        }
    }
    return -1;
}

/*
 * elapsed mod cycle in 32-bit arithmetic, for targets without a 64-bit
 * divide. A cycle is at most 16 frames of 60000 ms, 960000 < 2^20, so a
 * remainder shifted left by 12 bits stays below 2^32; the 64-bit value is
 * folded in 12-bit digits, most significant first.
 */
static uint32_t mod_cycle(uint64_t elapsed, uint32_t cycle)
{
    uint32_t r = 0;
    int shift;
    for (shift = 60; shift >= 0; shift -= 12) {
        uint32_t digit = (uint32_t)(elapsed >> shift) & 0xfffu;
        r = ((r << 12) | digit) % cycle;
    }
    return r;
}

int pet_pack_select_index(const pet_pack *pack, uint32_t role, uint64_t elapsed_ms,
                          pet_pack_selection *out)
{
    pet_pack_role r;
    pet_pack_animation a;
    pet_pack_frame f;
    uint32_t cycle = 0;
    uint32_t t;
    uint32_t i;

    memset(out, 0, sizeof *out);
    if (pack->role_count == 0u) {
        return 0;
    }
    if (role >= pack->role_count) {
        role = pack->fallback_role;
        out->used_fallback = 1;
    }
    /* An accepted pack resolves every role to an animation, a run of 1 to
     * 16 frames inside the pool and an image. */
    (void)pet_pack_role_at(pack, role, &r);
    (void)pet_pack_animation_at(pack, r.animation, &a);
    for (i = 0; i < a.frame_count; i++) {
        (void)pet_pack_frame_at(pack, (uint32_t)a.first_frame + i, &f);
        cycle += f.duration_ms;
    }
    t = mod_cycle(elapsed_ms, cycle);
    out->role = (uint16_t)role;
    out->animation = r.animation;
    for (i = 0; i < a.frame_count; i++) {
        (void)pet_pack_frame_at(pack, (uint32_t)a.first_frame + i, &f);
        if (t < f.duration_ms) {
            break;
        }
        t -= f.duration_ms;
    }
    /* t < cycle, so the walk stops on a frame (i < frame_count). */
    out->frame = (uint16_t)(a.first_frame + i);
    out->image = f.image;
    out->until_next_ms = f.duration_ms - t;
    return 1;
}

int pet_pack_select(const pet_pack *pack, const char *role_id, uint64_t elapsed_ms,
                    pet_pack_selection *out)
{
    int32_t role = pet_pack_find_role(pack, role_id);
    /* Not found (-1) becomes an index past the table: the fallback. */
    uint32_t index = role < 0 ? (uint32_t)pack->role_count : (uint32_t)role;
    return pet_pack_select_index(pack, index, elapsed_ms, out);
}

int pet_pack_frame_image(const pet_pack *pack, const char *role_id, uint64_t elapsed_ms,
                         pet_pack_image *out)
{
    pet_pack_selection s;
    if (!pet_pack_select(pack, role_id, elapsed_ms, &s)) {
        memset(out, 0, sizeof *out);
        return 0;
    }
    return pet_pack_image_at(pack, s.image, out);
}
