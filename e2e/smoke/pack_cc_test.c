/* Firmware's view of the smoke pack: a PETP array with its length. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "pack_cc.h"

int main(void) {
    if (memcmp(smoke_pack, "PETP", 4) != 0 || smoke_pack_len != SMOKE_PACK_LEN ||
        ((uintptr_t)smoke_pack & 3u) != 0) {
        printf("FAIL: smoke_pack is not an aligned PETP pack of %u bytes\n", (unsigned)SMOKE_PACK_LEN);
        return 1;
    }
    printf("PASS: smoke_pack is an aligned PETP pack of %u bytes\n", (unsigned)smoke_pack_len);
    return 0;
}
