/*
 * Start-up for a Cortex-M3 (QEMU's mps2-an385): the vector table, the
 * reset handler that sets up .data and .bss, paints the stack and runs
 * board_main, and fault handlers that report over semihosting and exit
 * non-zero (a silent fault would hang the emulator until its timeout).
 * The symbols it uses come from mps2_an385.ld.
 */
#include <stdint.h>

#include "board.h"
#include "semihost.h"

extern uint32_t __data_load[], __data_start[], __data_end[];
extern uint32_t __bss_start[], __bss_end[];
extern uint32_t __stack_bottom[], __stack_top[];

/* What an unused stack word holds: the high-water mark is the lowest word
 * that no longer does. */
#define STACK_PAINT 0x5AC3A55Cu

/* The System Control Block's fault status registers. */
#define SCB_CFSR (*(volatile const uint32_t *)0xE000ED28u)
#define SCB_HFSR (*(volatile const uint32_t *)0xE000ED2Cu)

void Reset_Handler(void) __attribute__((noreturn));
void NMI_Handler(void);
void HardFault_Handler(void);
void MemManage_Handler(void);
void BusFault_Handler(void);
void UsageFault_Handler(void);
void Unexpected_Handler(void);

/* Word 0 is the initial stack pointer, the others handler addresses (with
 * the Thumb bit, which the compiler sets on a function's address). */
__attribute__((section(".vectors"), used)) const uintptr_t board_vectors[16] = {
    (uintptr_t)__stack_top,
    (uintptr_t)Reset_Handler,
    (uintptr_t)NMI_Handler,
    (uintptr_t)HardFault_Handler,
    (uintptr_t)MemManage_Handler,
    (uintptr_t)BusFault_Handler,
    (uintptr_t)UsageFault_Handler,
    0u,
    0u,
    0u,
    0u,
    (uintptr_t)Unexpected_Handler, /* SVCall */
    (uintptr_t)Unexpected_Handler, /* DebugMonitor */
    0u,
    (uintptr_t)Unexpected_Handler, /* PendSV */
    (uintptr_t)Unexpected_Handler, /* SysTick */
};

static void fault(const char *name)
{
    char line[96];
    size_t used = 0;
    board_append(line, sizeof line, &used, "fault ");
    board_append(line, sizeof line, &used, name);
    board_append(line, sizeof line, &used, " cfsr ");
    board_append_hex32(line, sizeof line, &used, SCB_CFSR);
    board_append(line, sizeof line, &used, " hfsr ");
    board_append_hex32(line, sizeof line, &used, SCB_HFSR);
    board_append(line, sizeof line, &used, "\n");
    semihost_write0(line);
    semihost_exit(BOARD_EXIT_FAULT);
}

void NMI_Handler(void)
{
    fault("NMI");
}

void HardFault_Handler(void)
{
    fault("HardFault");
}

void MemManage_Handler(void)
{
    fault("MemManage");
}

void BusFault_Handler(void)
{
    fault("BusFault");
}

void UsageFault_Handler(void)
{
    fault("UsageFault");
}

void Unexpected_Handler(void)
{
    fault("unexpected exception");
}

/* Prints "stack high-water <used> of <size> bytes": the deepest the stack
 * went, from the lowest word that lost its paint. */
static void report_stack(void)
{
    const uint32_t *p = __stack_bottom;
    char line[64];
    size_t used = 0;
    while (p < __stack_top && *p == STACK_PAINT) {
        p++;
    }
    board_append(line, sizeof line, &used, "stack high-water ");
    board_append_uint(line, sizeof line, &used, (uint32_t)((uintptr_t)__stack_top - (uintptr_t)p));
    board_append(line, sizeof line, &used, " of ");
    board_append_uint(line, sizeof line, &used,
                      (uint32_t)((uintptr_t)__stack_top - (uintptr_t)__stack_bottom));
    board_append(line, sizeof line, &used, " bytes\n");
    semihost_write0(line);
}

void Reset_Handler(void)
{
    uint32_t *p;
    uintptr_t sp;
    uint32_t status;

    for (p = __data_start; p < __data_end; p++) {
        *p = __data_load[p - __data_start];
    }
    for (p = __bss_start; p < __bss_end; p++) {
        *p = 0u;
    }
    /* Paint everything below this frame: nothing lives there yet. */
    __asm__ volatile("mov %0, sp" : "=r"(sp));
    for (p = __stack_bottom; (uintptr_t)p < sp - 64u; p++) {
        *p = STACK_PAINT;
    }
    status = board_main();
    report_stack();
    semihost_exit(status);
}
