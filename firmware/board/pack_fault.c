/* A pack pointer into the System region, where a read is a bus error: the
 * image for the test that the fault handlers report and exit non-zero. */
#include "board.h"

const uint8_t *board_pack(size_t *length)
{
    *length = 64u;
    return (const uint8_t *)0xFFFFFFC0u;
}
