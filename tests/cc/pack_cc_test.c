/* Links against pet_pack_cc_library of //assets/pet (:pack_cc) and checks
 * what firmware relies on: the PETP magic, the canonical pack's length and a
 * 4-byte-aligned array. Prints PASS/FAIL lines; exits non-zero on failure. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "assets/pet/pack_cc.h"

#define WANT_LEN 44232u

static int failures;

static void check(int ok, const char *what) {
    printf("%s: %s\n", ok ? "PASS" : "FAIL", what);
    if (!ok) {
        failures++;
    }
}

static uint32_t le32(const uint8_t *p) {
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

int main(void) {
    check(memcmp(pet_asset_pack, "PETP", 4) == 0, "pet_asset_pack starts with the PETP magic");
    check(pet_asset_pack_len == WANT_LEN, "pet_asset_pack_len is 44232");
    check(PET_ASSET_PACK_LEN == WANT_LEN, "PET_ASSET_PACK_LEN is 44232");
    check(sizeof pet_asset_pack == WANT_LEN, "sizeof pet_asset_pack is 44232");
    check(((uintptr_t)pet_asset_pack & 3u) == 0, "pet_asset_pack is 4-byte aligned");
    /* Header: magic, version (u16), header length (u16), pack length (u32). */
    check(le32(pet_asset_pack + 8) == pet_asset_pack_len, "the header's pack length matches pet_asset_pack_len");
    if (failures) {
        printf("FAIL: %d check(s) failed\n", failures);
        return 1;
    }
    printf("PASS: all checks\n");
    return 0;
}
