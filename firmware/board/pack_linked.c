/* The canonical pet's pack, an ordinary dependency: its array is const, so
 * it stays in flash and the reader reads it in place. */
#include "assets/pet/pack_cc.h"
#include "board.h"

const uint8_t *board_pack(size_t *length)
{
    *length = pet_asset_pack_len;
    return pet_asset_pack;
}
