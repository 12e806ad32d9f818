#include "compose.h"

#include <stddef.h>
#include <string.h>

void demo_fill(uint8_t *fb, uint16_t rgb565)
{
    uint32_t i;
    for (i = 0; i < DEMO_WIDTH * DEMO_HEIGHT; i++) {
        fb[2u * i] = (uint8_t)(rgb565 >> 8);
        fb[2u * i + 1u] = (uint8_t)rgb565;
    }
}

static int opaque(const pet_pack_image *im, uint32_t px, uint32_t py)
{
    uint32_t row = ((uint32_t)im->width + 7u) / 8u;
    return (im->mask[py * row + px / 8u] & (0x80u >> (px % 8u))) != 0u;
}

void demo_blit(uint8_t *fb, const pet_pack_image *im, uint32_t sx, uint32_t sy, int32_t x, int32_t y)
{
    uint32_t py;
    for (py = 0; py < im->height; py++) {
        uint32_t px;
        for (px = 0; px < im->width; px++) {
            const uint8_t *c = im->colour + 2u * (py * im->width + px);
            uint32_t dy;
            if (!opaque(im, px, py)) {
                continue;
            }
            for (dy = 0; dy < sy; dy++) {
                int64_t fy = (int64_t)y + (int64_t)(py * sy + dy);
                uint32_t dx;
                if (fy < 0 || fy >= (int64_t)DEMO_HEIGHT) {
                    continue;
                }
                for (dx = 0; dx < sx; dx++) {
                    int64_t fx = (int64_t)x + (int64_t)(px * sx + dx);
                    uint8_t *out;
                    if (fx < 0 || fx >= (int64_t)DEMO_WIDTH) {
                        continue;
                    }
                    out = fb + 2u * ((uint32_t)fy * DEMO_WIDTH + (uint32_t)fx);
                    out[0] = c[0];
                    out[1] = c[1];
                }
            }
        }
    }
}

uint32_t demo_fit_scale(const pet_pack_image *im)
{
    uint32_t big = im->width > im->height ? im->width : im->height;
    uint32_t s = big == 0u ? 1u : DEMO_PET_AREA / big;
    return s == 0u ? 1u : s;
}

void demo_draw_fallback(uint8_t *fb)
{
    uint32_t y;
    uint32_t x0 = (DEMO_WIDTH - DEMO_PET_AREA) / 2u;
    uint32_t y0 = (DEMO_HEIGHT - DEMO_PET_AREA) / 2u;
    demo_fill(fb, DEMO_BACKGROUND_RGB565);
    for (y = y0; y < y0 + DEMO_PET_AREA; y++) {
        uint32_t x;
        for (x = x0; x < x0 + DEMO_PET_AREA; x++) {
            fb[2u * (y * DEMO_WIDTH + x)] = (uint8_t)(DEMO_FALLBACK_RGB565 >> 8);
            fb[2u * (y * DEMO_WIDTH + x) + 1u] = (uint8_t)DEMO_FALLBACK_RGB565;
        }
    }
}

int demo_compose(uint8_t *fb, const pet_pack *pack, const char *role, uint64_t elapsed_ms,
                 pet_pack_selection *sel)
{
    pet_pack_image im;
    uint32_t s;
    int32_t x;
    int32_t y;
    memset(sel, 0, sizeof *sel);
    if (pack == NULL || !pet_pack_select(pack, role, elapsed_ms, sel) ||
        !pet_pack_image_at(pack, sel->image, &im)) {
        demo_draw_fallback(fb);
        return 0;
    }
    s = demo_fit_scale(&im);
    x = ((int32_t)DEMO_WIDTH - (int32_t)(im.width * s)) / 2;
    y = ((int32_t)DEMO_HEIGHT - (int32_t)(im.height * s)) / 2;
    demo_fill(fb, DEMO_BACKGROUND_RGB565);
    demo_blit(fb, &im, s, s, x, y);
    return 1;
}

int demo_role_crc32(uint8_t *fb, const pet_pack *pack, uint32_t role, const char **id, uint32_t *crc)
{
    pet_pack_role r;
    pet_pack_selection sel;
    *id = NULL;
    *crc = 0;
    if (!pet_pack_role_at(pack, role, &r)) {
        return 0;
    }
    *id = r.id;
    if (!demo_compose(fb, pack, r.id, 0u, &sel) || sel.used_fallback) {
        return 0;
    }
    *crc = pet_pack_crc32(fb, DEMO_FRAMEBUFFER_BYTES);
    return 1;
}

void demo_draw_probe(uint8_t *fb)
{
    /* Red 0xF800, green 0x07E0, blue 0x001F, white 0xFFFF, high byte first
     * as in a pack's colour payload; a mask row of four opaque pixels. */
    static const uint8_t colour[8] = {0xF8, 0x00, 0x07, 0xE0, 0x00, 0x1F, 0xFF, 0xFF};
    static const uint8_t mask[1] = {0xF0};
    pet_pack_image bars;
    memset(&bars, 0, sizeof bars);
    bars.id = "byte_order_probe";
    bars.width = 4;
    bars.height = 1;
    bars.colour = colour;
    bars.colour_length = sizeof colour;
    bars.mask = mask;
    bars.mask_length = sizeof mask;
    demo_fill(fb, 0x0000u);
    demo_blit(fb, &bars, DEMO_WIDTH / 4u, DEMO_HEIGHT, 0, 0);
}
