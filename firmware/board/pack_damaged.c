/* A damaged pack, linked as raw bytes (arm-none-eabi-objcopy -I binary;
 * see BUILD.bazel): pet_pack_cc_library rightly refuses to build one. */
#include "board.h"

extern const uint8_t board_damaged_pack_start[];
extern const uint8_t board_damaged_pack_end[];

const uint8_t *board_pack(size_t *length)
{
    *length = (size_t)(board_damaged_pack_end - board_damaged_pack_start);
    return board_damaged_pack_start;
}
