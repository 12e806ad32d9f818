/*
 * The board's firmware: validates the pack linked into flash, in place,
 * composes the first frame of every role into a framebuffer the size of
 * the demo's panel and prints "role <id> crc32 <8 hex digits>" for each,
 * the CRC-32 of the composed framebuffer. The host demo prints the same
 * lines for the same pack (pet_demo --role-crcs); the QEMU test compares
 * them byte for byte. A rejected pack prints "rejected <rule>" and looks
 * nothing up.
 */
#include <string.h>

#include "board.h"
#include "compose.h"
#include "pet_pack.h"
#include "semihost.h"

static uint8_t framebuffer[DEMO_FRAMEBUFFER_BYTES];

void board_append(char *line, size_t n, size_t *used, const char *s)
{
    while (*s != '\0' && *used + 1u < n) {
        line[(*used)++] = *s++;
    }
    line[*used] = '\0';
}

void board_append_hex32(char *line, size_t n, size_t *used, uint32_t v)
{
    static const char digits[] = "0123456789abcdef";
    char hex[9];
    int i;
    for (i = 7; i >= 0; i--) {
        hex[i] = digits[v & 0xfu];
        v >>= 4;
    }
    hex[8] = '\0';
    board_append(line, n, used, hex);
}

void board_append_uint(char *line, size_t n, size_t *used, uint32_t v)
{
    char dec[11];
    size_t i = sizeof dec - 1u;
    dec[i] = '\0';
    do {
        dec[--i] = (char)('0' + (int)(v % 10u));
        v /= 10u;
    } while (v != 0u);
    board_append(line, n, used, &dec[i]);
}

uint32_t board_main(void)
{
    size_t length = 0;
    const uint8_t *bytes = board_pack(&length);
    pet_pack pack;
    pet_pack_status status;
    uint32_t result = BOARD_EXIT_OK;
    uint16_t i;
    char line[PET_PACK_IDENTIFIER_LENGTH + 48u];
    size_t used;

    if (bytes == NULL) {
        /* No pack linked (the size baseline): draw the built-in fallback. */
        demo_draw_fallback(framebuffer);
        used = 0;
        board_append(line, sizeof line, &used, "no pack: fallback crc32 ");
        board_append_hex32(line, sizeof line, &used, pet_pack_crc32(framebuffer, sizeof framebuffer));
        board_append(line, sizeof line, &used, "\n");
        semihost_write0(line);
        return BOARD_EXIT_REJECTED;
    }
    status = pet_pack_open(&pack, bytes, length);
    if (status != PET_PACK_OK) {
        used = 0;
        board_append(line, sizeof line, &used, "rejected ");
        board_append(line, sizeof line, &used, pet_pack_status_name(status));
        board_append(line, sizeof line, &used, "\n");
        semihost_write0(line);
        return BOARD_EXIT_REJECTED;
    }
    for (i = 0; i < pet_pack_role_count(&pack); i++) {
        const char *id = NULL;
        uint32_t crc = 0;
        used = 0;
        if (!demo_role_crc32(framebuffer, &pack, i, &id, &crc)) {
            board_append(line, sizeof line, &used, "role ");
            board_append(line, sizeof line, &used, id != NULL ? id : "?");
            board_append(line, sizeof line, &used, " unresolved\n");
            semihost_write0(line);
            result = BOARD_EXIT_UNRESOLVED;
            continue;
        }
        board_append(line, sizeof line, &used, "role ");
        board_append(line, sizeof line, &used, id);
        board_append(line, sizeof line, &used, " crc32 ");
        board_append_hex32(line, sizeof line, &used, crc);
        board_append(line, sizeof line, &used, "\n");
        semihost_write0(line);
    }
    return result;
}
