/*
 * Raw ARM semihosting (BKPT 0xAB): the board's only output and its exit.
 * newlib's stdio is not used because it links malloc.
 */
#ifndef PET_BOARD_SEMIHOST_H_
#define PET_BOARD_SEMIHOST_H_

#include <stdint.h>

/* Writes a zero-terminated string to the debugger's console (SYS_WRITE0). */
void semihost_write0(const char *s);

/*
 * Ends the run with an exit status (SYS_EXIT_EXTENDED,
 * ADP_Stopped_ApplicationExit): QEMU exits with the same status.
 */
void semihost_exit(uint32_t status) __attribute__((noreturn));

#endif /* PET_BOARD_SEMIHOST_H_ */
