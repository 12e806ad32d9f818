/*
 * What the board's startup code and its main agree on.
 */
#ifndef PET_BOARD_BOARD_H_
#define PET_BOARD_BOARD_H_

#include <stddef.h>
#include <stdint.h>

/* Exit statuses of the image (QEMU exits with them). */
#define BOARD_EXIT_OK 0u         /* every role resolved and was composed */
#define BOARD_EXIT_REJECTED 1u   /* the pack was rejected (or none linked) */
#define BOARD_EXIT_UNRESOLVED 2u /* a role of the pack did not resolve */
#define BOARD_EXIT_FAULT 3u      /* a fault handler ran */

/*
 * The pack the image was linked with and its length: one of pack_linked.c
 * (the canonical pet's pet_pack_cc_library), pack_damaged.c (a damaged
 * vector linked with objcopy -I binary) or pack_none.c (NULL, 0).
 */
const uint8_t *board_pack(size_t *length);

/* Validates the pack, composes every role, prints one line each; returns
 * one of the BOARD_EXIT_ statuses. Called by the reset handler. */
uint32_t board_main(void);

/* Appends s to the line buffer line of size n at *used; truncates. */
void board_append(char *line, size_t n, size_t *used, const char *s);

/* Appends v as 8 lower-case hex digits, or in decimal. */
void board_append_hex32(char *line, size_t n, size_t *used, uint32_t v);
void board_append_uint(char *line, size_t n, size_t *used, uint32_t v);

#endif /* PET_BOARD_BOARD_H_ */
