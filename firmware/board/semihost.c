#include "semihost.h"

#define SYS_WRITE0 0x04u
#define SYS_EXIT_EXTENDED 0x20u
#define ADP_STOPPED_APPLICATION_EXIT 0x20026u

static uint32_t semihost_call(uint32_t op, const void *arg)
{
    register uint32_t r0 __asm__("r0") = op;
    register const void *r1 __asm__("r1") = arg;
    __asm__ volatile("bkpt 0xab" : "+r"(r0) : "r"(r1) : "memory");
    return r0;
}

void semihost_write0(const char *s)
{
    (void)semihost_call(SYS_WRITE0, s);
}

void semihost_exit(uint32_t status)
{
    /* On 32-bit ARM the parameter block is {reason, subcode}. */
    static uint32_t block[2];
    block[0] = ADP_STOPPED_APPLICATION_EXIT;
    block[1] = status;
    (void)semihost_call(SYS_EXIT_EXTENDED, block);
    for (;;) {
    }
}
