/*
 * pet_pack: the C99 reader of PETP v1, the embedded pet asset pack (pack
 * contract sections 3 to 11).
 *
 * The reader validates a whole pack in place before it answers any lookup,
 * applying the acceptance rules in the order and under the identifiers of the
 * Go reader (runtime/pack): a rejection names the first rule broken, leaves
 * the caller's pet_pack zeroed and hands out no pointer. After acceptance the
 * lookups read the tables straight from the pack bytes, so the reader keeps
 * no copy of anything and uses no heap, no static mutable state and nothing
 * beyond the C standard library. Every offset and length is bounded before it
 * is used and all arithmetic stays inside 32 bits, so the reader is the same
 * on 32-bit and 64-bit targets.
 *
 * The pack bytes must stay alive and unchanged while a pet_pack refers to
 * them. They may sit at any address; a pack that `petasset pack cc` emitted
 * (the pet_pack_cc_library target) is 4-byte aligned, and then every payload
 * pointer is too.
 */
#ifndef PET_PACK_H_
#define PET_PACK_H_

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Layout facts of PETP v1 (the same constants as internal/assetpackformat/layout.go). */
#define PET_PACK_VERSION 1u /* the only format version this reader accepts */
#define PET_PACK_HEADER_LENGTH 28u
#define PET_PACK_CHECK_LENGTH 4u
#define PET_PACK_MIN_LENGTH 32u
#define PET_PACK_MAX_LENGTH (16u * 1024u * 1024u)
#define PET_PACK_IDENTIFIER_LENGTH 32u
#define PET_PACK_MAX_IMAGES 32u
#define PET_PACK_MAX_ANIMATIONS 32u
#define PET_PACK_MAX_FRAMES 128u
#define PET_PACK_MAX_ROLES 64u
#define PET_PACK_MAX_FRAMES_PER_ANIMATION 16u
#define PET_PACK_MIN_DURATION_MS 1u
#define PET_PACK_MAX_DURATION_MS 60000u
#define PET_PACK_MIN_DIMENSION 1u
#define PET_PACK_MAX_DIMENSION 1024u

/*
 * The verdict of pet_pack_open. PET_PACK_OK is acceptance; every other value
 * is one acceptance rule, in the order the reader applies them, and
 * pet_pack_status_name returns the Go reader's identifier for it.
 */
typedef enum pet_pack_status {
    PET_PACK_OK = 0,
    PET_PACK_TRUNCATED_HEADER,             /* "truncated_header" */
    PET_PACK_BAD_MAGIC,                    /* "bad_magic" */
    PET_PACK_UNSUPPORTED_VERSION,          /* "unsupported_version" */
    PET_PACK_BAD_HEADER_LENGTH,            /* "bad_header_length" */
    PET_PACK_PACK_LENGTH_MISMATCH,         /* "pack_length_mismatch" */
    PET_PACK_PACK_LENGTH_UNALIGNED,        /* "pack_length_unaligned" */
    PET_PACK_PACK_LENGTH_OUT_OF_RANGE,     /* "pack_length_out_of_range" */
    PET_PACK_CHECK_MISMATCH,               /* "check_mismatch" */
    PET_PACK_UNSUPPORTED_ENCODING,         /* "unsupported_encoding" */
    PET_PACK_COUNT_OUT_OF_RANGE,           /* "count_out_of_range" */
    PET_PACK_PAYLOAD_OFFSET_MISMATCH,      /* "payload_offset_mismatch" */
    PET_PACK_PAYLOAD_OFFSET_OUT_OF_RANGE,  /* "payload_offset_out_of_range" */
    PET_PACK_FALLBACK_OUT_OF_RANGE,        /* "fallback_out_of_range" */
    PET_PACK_ANIMATION_RUN_OUT_OF_RANGE,   /* "animation_run_out_of_range" */
    PET_PACK_FRAME_IMAGE_OUT_OF_RANGE,     /* "frame_image_out_of_range" */
    PET_PACK_FRAME_DURATION_OUT_OF_RANGE,  /* "frame_duration_out_of_range" */
    PET_PACK_ROLE_ANIMATION_OUT_OF_RANGE,  /* "role_animation_out_of_range" */
    PET_PACK_ROLE_PADDING_NONZERO,         /* "role_padding_nonzero" */
    PET_PACK_IDENTIFIER_UNTERMINATED,      /* "identifier_unterminated" */
    PET_PACK_IDENTIFIER_PADDING_NONZERO,   /* "identifier_padding_nonzero" */
    PET_PACK_ENTRY_DIMENSION_OUT_OF_RANGE, /* "entry_dimension_out_of_range" */
    PET_PACK_ENTRY_LENGTH_MISMATCH,        /* "entry_length_mismatch" */
    PET_PACK_PAYLOAD_MISALIGNED,           /* "payload_misaligned" */
    PET_PACK_PAYLOAD_OUT_OF_REGION,        /* "payload_out_of_region" */
    PET_PACK_PAYLOAD_LAYOUT_MISMATCH,      /* "payload_layout_mismatch" */
    PET_PACK_PAYLOAD_PADDING_NONZERO,      /* "payload_padding_nonzero" */
    PET_PACK_STATUS_COUNT                  /* number of values, not a status */
} pet_pack_status;

/*
 * An accepted pack. Treat the fields as private: read it through the
 * functions below. A zeroed pet_pack (what a rejection leaves) holds no
 * records, so every lookup on it fails.
 */
typedef struct pet_pack {
    const uint8_t *data;
    uint32_t length;
    uint16_t image_count;
    uint16_t animation_count;
    uint16_t frame_count;
    uint16_t role_count;
    uint16_t fallback_role;
    uint32_t images_offset;
    uint32_t animations_offset;
    uint32_t frames_offset;
    uint32_t roles_offset;
    uint32_t entries_offset;
} pet_pack;

/* One image: its identifier and its payloads, which point into the pack. */
typedef struct pet_pack_image {
    const char *id;        /* zero-terminated, inside the pack */
    uint16_t width;        /* 1 to 1024 */
    uint16_t height;       /* 1 to 1024 */
    const uint8_t *colour; /* RGB565, high byte first, row-major */
    uint32_t colour_length;
    const uint8_t *mask;   /* 1 bit a pixel, MSB leftmost, rows byte-aligned */
    uint32_t mask_length;
} pet_pack_image;

/* One animation: a run of frame_count frames starting at first_frame. */
typedef struct pet_pack_animation {
    const char *id;
    uint16_t first_frame;
    uint16_t frame_count; /* 1 to 16 */
} pet_pack_animation;

/* One frame of the shared frame pool. */
typedef struct pet_pack_frame {
    uint16_t image;       /* index into the image table */
    uint16_t duration_ms; /* 1 to 60000 */
} pet_pack_frame;

/* One role: the animation a presentation role plays. */
typedef struct pet_pack_role {
    const char *id;
    uint16_t animation;
} pet_pack_role;

/* What to show for a role at an elapsed time (runtime/presentation.Select). */
typedef struct pet_pack_selection {
    uint16_t role;          /* the role shown: the one asked for or the fallback */
    int used_fallback;      /* 1 when the role asked for is not in the pack */
    uint16_t animation;
    uint16_t frame;         /* index into the frame pool */
    uint16_t image;
    uint32_t until_next_ms; /* time left on this frame, 1 to its duration */
} pet_pack_selection;

/*
 * pet_pack_open validates the `length` bytes at `data` and, when every
 * acceptance rule holds, fills *pack and returns PET_PACK_OK. Otherwise it
 * returns the first rule broken and leaves *pack zeroed. A NULL data is an
 * empty pack (PET_PACK_TRUNCATED_HEADER). pack must not be NULL.
 */
pet_pack_status pet_pack_open(pet_pack *pack, const void *data, size_t length);

/* pet_pack_verify applies the same rules without filling anything. */
pet_pack_status pet_pack_verify(const void *data, size_t length);

/*
 * pet_pack_status_name returns the rule identifier the Go reader uses
 * ("payload_out_of_region"), "ok" for PET_PACK_OK, and "unknown" for a value
 * outside the enum. The string is static.
 */
const char *pet_pack_status_name(pet_pack_status status);

/*
 * pet_pack_crc32 is CRC-32 as IEEE 802.3 defines it (zlib's crc32, Go's
 * crc32.ChecksumIEEE). pet_pack_crc32_update continues a running value:
 * crc32(a || b) == pet_pack_crc32_update(pet_pack_crc32(a), b, len(b)), and
 * pet_pack_crc32(d, n) == pet_pack_crc32_update(0, d, n).
 *
 * How it is computed is a build option of pet_pack.c (the same values
 * either way): by default braided tables (5 KiB); -DPET_PACK_CRC_SMALL=1
 * one 1 KiB table; -DPET_PACK_CRC_HOOK=name calls the platform's
 * uint32_t name(uint32_t crc, const void *data, size_t length), which must
 * keep the contract above (zlib's crc32() convention). See README.md.
 */
uint32_t pet_pack_crc32(const void *data, size_t length);
uint32_t pet_pack_crc32_update(uint32_t crc, const void *data, size_t length);

/* Record counts and the fallback role of an accepted pack (0 for a zeroed one). */
uint16_t pet_pack_image_count(const pet_pack *pack);
uint16_t pet_pack_animation_count(const pet_pack *pack);
uint16_t pet_pack_frame_count(const pet_pack *pack);
uint16_t pet_pack_role_count(const pet_pack *pack);
uint16_t pet_pack_fallback_role(const pet_pack *pack);

/*
 * Record lookups by index. Each returns 1 and fills *out when index is inside
 * its table, or returns 0 and zeroes *out.
 */
int pet_pack_image_at(const pet_pack *pack, uint32_t index, pet_pack_image *out);
int pet_pack_animation_at(const pet_pack *pack, uint32_t index, pet_pack_animation *out);
int pet_pack_frame_at(const pet_pack *pack, uint32_t index, pet_pack_frame *out);
int pet_pack_role_at(const pet_pack *pack, uint32_t index, pet_pack_role *out);

/*
 * pet_pack_find_role looks a role up by its zero-terminated identifier and
 * returns its index, or -1 when the pack has no such role (or id is NULL).
 * The first role of that name wins.
 */
int32_t pet_pack_find_role(const pet_pack *pack, const char *id);

/*
 * pet_pack_select picks the frame to show for a role at elapsed_ms since its
 * animation started: frames cycle by their durations, and a role the pack
 * does not hold plays the fallback role. pet_pack_select_index does the same
 * for a role index (one outside the role table plays the fallback). Each
 * returns 1 and fills *out, or 0 with *out zeroed for a zeroed pack.
 */
int pet_pack_select(const pet_pack *pack, const char *role_id, uint64_t elapsed_ms,
                    pet_pack_selection *out);
int pet_pack_select_index(const pet_pack *pack, uint32_t role, uint64_t elapsed_ms,
                          pet_pack_selection *out);

/*
 * pet_pack_frame_image is the image of the frame to show for a role at an
 * elapsed time: pet_pack_select followed by pet_pack_image_at.
 */
int pet_pack_frame_image(const pet_pack *pack, const char *role_id, uint64_t elapsed_ms,
                         pet_pack_image *out);

#ifdef __cplusplus
}
#endif

#endif /* PET_PACK_H_ */
