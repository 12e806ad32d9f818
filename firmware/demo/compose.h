/*
 * compose: what a TFT frontend does with the pack reader, on a 240x240
 * RGB565 framebuffer in the ST7789's byte order (high byte first, the order
 * the pack stores pixels in, so a sprite row is copied without touching a
 * pixel). No heap, no stdio: the same code runs on the device.
 */
#ifndef PET_DEMO_COMPOSE_H_
#define PET_DEMO_COMPOSE_H_

#include <stdint.h>

#include "pet_pack.h"

#define DEMO_WIDTH 240u
#define DEMO_HEIGHT 240u
#define DEMO_FRAMEBUFFER_BYTES (DEMO_WIDTH * DEMO_HEIGHT * 2u)

/* The background the mask composes over: a dark neutral grey. */
#define DEMO_BACKGROUND_RGB565 0x2104u
/* The built-in fallback (manifest contract section 9; runtime/assetset
 * BuiltinFallback): a calm blue-teal, #5B8FA8 reduced to RGB565, no text. */
#define DEMO_FALLBACK_RGB565 0x5C75u
/* The area the pet takes: the canonical 64x64 sprites scaled by 3. */
#define DEMO_PET_AREA 192u

/* Fills the framebuffer with one RGB565 colour, high byte first. */
void demo_fill(uint8_t *fb, uint16_t rgb565);

/*
 * Draws an image's opaque pixels (mask bit set) scaled by sx and sy with
 * its top-left corner at (x, y), clipped to the framebuffer. Colour bytes
 * are copied as they are stored: high byte first, as the panel takes them.
 */
void demo_blit(uint8_t *fb, const pet_pack_image *im, uint32_t sx, uint32_t sy, int32_t x, int32_t y);

/* The scale at which an image fits DEMO_PET_AREA (at least 1). */
uint32_t demo_fit_scale(const pet_pack_image *im);

/* The built-in fallback: background, and the fallback colour over the pet's
 * area. Drawn with no pack, a rejected pack, or a lookup that fails. */
void demo_draw_fallback(uint8_t *fb);

/*
 * Composes the frame to show for role at elapsed_ms: background, then the
 * selected frame's image centred and scaled to fit the pet's area. With no
 * pack (pack NULL or rejected, i.e. zeroed) it draws the fallback. Returns
 * 1 when it drew a pack frame and fills *sel, 0 when it drew the fallback.
 */
int demo_compose(uint8_t *fb, const pet_pack *pack, const char *role, uint64_t elapsed_ms,
                 pet_pack_selection *sel);

/*
 * Composes role index role's first frame (elapsed 0 ms) and sets *crc to
 * the pet_pack_crc32 of the whole framebuffer and *id to the role's
 * identifier: what `pet_demo --role-crcs` and the board image print, one
 * line per role. Returns 1 on success; 0 when the index is past the role
 * table or the role does not resolve to a frame of its own (*id is set
 * when the role exists).
 */
int demo_role_crc32(uint8_t *fb, const pet_pack *pack, uint32_t role, const char **id, uint32_t *crc);

/*
 * The byte-order probe: four full-height bars of pure red, green, blue and
 * white, drawn through demo_blit from a 4x1 image laid out exactly as a
 * pack's colour payload and mask. On a panel set to the wrong byte order
 * the first three come out blue, dark red and green; white stays white.
 */
void demo_draw_probe(uint8_t *fb);

#endif /* PET_DEMO_COMPOSE_H_ */
