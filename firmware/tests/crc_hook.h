/* The host's CRC platform hook: zlib's crc32() behind the reader's
 * PET_PACK_CRC_HOOK contract, with counters that let a test prove the
 * reader really goes through it. Host only. */
#ifndef PET_PACK_CRC_HOOK_TEST_H_
#define PET_PACK_CRC_HOOK_TEST_H_

#include <stddef.h>
#include <stdint.h>

/* Bytes handed to the hook since the program started. */
extern size_t pet_pack_test_hook_bytes;
/* When non-zero the hook returns a wrong value (its result XOR 1). */
extern int pet_pack_test_hook_corrupt;

uint32_t pet_pack_test_zlib_crc32(uint32_t crc, const void *data, size_t length);

#endif /* PET_PACK_CRC_HOOK_TEST_H_ */
