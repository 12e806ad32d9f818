/*
 * A real platform hook for the reader's CRC (build pet_pack.c with
 * -DPET_PACK_CRC_HOOK=pet_pack_test_zlib_crc32 and link -lz): zlib's
 * crc32() stands in for a ROM routine or a hardware CRC unit. zlib takes
 * and returns the running value the way pet_pack_crc32_update does, so the
 * hook only adapts the types; its length is a uInt, hence the chunks.
 */
#include "crc_hook.h"

#include <zlib.h>

size_t pet_pack_test_hook_bytes;
int pet_pack_test_hook_corrupt;

uint32_t pet_pack_test_zlib_crc32(uint32_t crc, const void *data, size_t length)
{
    const Bytef *p = (const Bytef *)data;
    uLong c = crc;
    pet_pack_test_hook_bytes += length;
    while (length > 0u) {
        uInt chunk = length > 0x40000000u ? 0x40000000u : (uInt)length;
        c = crc32(c, p, chunk);
        p += chunk;
        length -= chunk;
    }
    return (uint32_t)c ^ (pet_pack_test_hook_corrupt ? 1u : 0u);
}
