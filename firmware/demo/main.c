/*
 * pet_demo: the host build of a firmware that draws the pet from a linked
 * pack, the way the TFT frontend will. It opens the pack linked into the
 * binary (pet_pack_cc_library of //assets/pet), composes the frame for a
 * role at a time into a 240x240 RGB565 framebuffer in the panel's byte order
 * and writes the 115200 framebuffer bytes to a file.
 *
 *   pet_demo --out FILE [--role ROLE] [--time MS]
 *            [--no-pack | --corrupt | --pack FILE] [--probe] [--swap]
 *   pet_demo --role-crcs [--corrupt | --pack FILE]
 *
 *   --no-pack   boot as if no pack were linked: the built-in fallback
 *   --corrupt   flip one byte of a RAM copy of the linked pack: the reader
 *               rejects it (check_mismatch) and the fallback is drawn
 *   --pack FILE read the pack from a file instead (host only)
 *   --probe     draw the byte-order probe instead of the pet
 *   --swap      write the framebuffer with each pixel's bytes swapped, as a
 *               panel set to the wrong byte order would show it
 *   --role-crcs compose every role's first frame in turn and print, for
 *               each, "role <id> crc32 <8 hex digits>" (the pet_pack_crc32
 *               of the framebuffer), or "rejected <rule>" for a rejected
 *               pack: the lines the board image (//firmware/board) prints
 *               over semihosting, which its QEMU test compares with these.
 *               Exits 0, or 1 when the pack is rejected, 2 when a role
 *               does not resolve, as the board image does.
 *
 * Otherwise prints one line saying what it drew.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compose.h"
#include "assets/pet/pack_cc.h"
#include "pet_pack.h"

static uint8_t framebuffer[DEMO_FRAMEBUFFER_BYTES];

static int usage(void)
{
    fprintf(stderr, "usage: pet_demo --out FILE [--role ROLE] [--time MS] [--no-pack | --corrupt | --pack FILE] [--probe] [--swap]\n"
                    "       pet_demo --role-crcs [--corrupt | --pack FILE]\n");
    return 2;
}

static unsigned char *read_file(const char *path, size_t *n)
{
    FILE *f = fopen(path, "rb");
    unsigned char *buf;
    long len;
    if (f == NULL || fseek(f, 0, SEEK_END) != 0 || (len = ftell(f)) < 0 || fseek(f, 0, SEEK_SET) != 0) {
        if (f != NULL) {
            fclose(f);
        }
        return NULL;
    }
    buf = (unsigned char *)malloc(len == 0 ? 1u : (size_t)len);
    if (buf != NULL && fread(buf, 1, (size_t)len, f) != (size_t)len) {
        free(buf);
        buf = NULL;
    }
    fclose(f);
    *n = (size_t)len;
    return buf;
}

/* --role-crcs: the board image's output for the same pack (see the top). */
static int print_role_crcs(const pet_pack *pack, pet_pack_status status)
{
    uint16_t i;
    int result = 0;
    if (status != PET_PACK_OK) {
        printf("rejected %s\n", pet_pack_status_name(status));
        return 1;
    }
    for (i = 0; i < pet_pack_role_count(pack); i++) {
        const char *id = NULL;
        uint32_t crc = 0;
        if (!demo_role_crc32(framebuffer, pack, i, &id, &crc)) {
            printf("role %s unresolved\n", id != NULL ? id : "?");
            result = 2;
            continue;
        }
        printf("role %s crc32 %08lx\n", id, (unsigned long)crc);
    }
    return result;
}

int main(int argc, char **argv)
{
    const char *out = NULL;
    const char *role = "activity_idle";
    const char *pack_file = NULL;
    unsigned long long ms = 0;
    int no_pack = 0;
    int corrupt = 0;
    int probe = 0;
    int swap = 0;
    int role_crcs = 0;
    int i;
    const uint8_t *bytes = pet_asset_pack;
    size_t length = pet_asset_pack_len;
    unsigned char *owned = NULL;
    pet_pack pack;
    pet_pack_status status = PET_PACK_TRUNCATED_HEADER;
    pet_pack_selection sel;
    FILE *f;

    for (i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--out") == 0 && i + 1 < argc) {
            out = argv[++i];
        } else if (strcmp(argv[i], "--role") == 0 && i + 1 < argc) {
            role = argv[++i];
        } else if (strcmp(argv[i], "--time") == 0 && i + 1 < argc) {
            ms = strtoull(argv[++i], NULL, 10);
        } else if (strcmp(argv[i], "--pack") == 0 && i + 1 < argc) {
            pack_file = argv[++i];
        } else if (strcmp(argv[i], "--no-pack") == 0) {
            no_pack = 1;
        } else if (strcmp(argv[i], "--corrupt") == 0) {
            corrupt = 1;
        } else if (strcmp(argv[i], "--probe") == 0) {
            probe = 1;
        } else if (strcmp(argv[i], "--swap") == 0) {
            swap = 1;
        } else if (strcmp(argv[i], "--role-crcs") == 0) {
            role_crcs = 1;
        } else {
            return usage();
        }
    }
    if (role_crcs ? (out != NULL || no_pack || probe || swap) : out == NULL) {
        return usage();
    }
    if (pack_file != NULL || corrupt) {
        if (pack_file != NULL) {
            owned = read_file(pack_file, &length);
        } else {
            owned = (unsigned char *)malloc(length);
            if (owned != NULL) {
                memcpy(owned, bytes, length);
                owned[length / 2u] ^= 0x01u;
            }
        }
        if (owned == NULL) {
            fprintf(stderr, "pet_demo: cannot load the pack\n");
            return 2;
        }
        bytes = owned;
    }

    memset(&pack, 0, sizeof pack);
    if (!no_pack) {
        status = pet_pack_open(&pack, bytes, length);
    }
    if (role_crcs) {
        int rc = print_role_crcs(&pack, status);
        free(owned);
        return fflush(stdout) == 0 ? rc : 2;
    }
    if (probe) {
        demo_draw_probe(framebuffer);
        printf("probe: red, green, blue, white bars\n");
    } else if (demo_compose(framebuffer, no_pack ? NULL : &pack, role, (uint64_t)ms, &sel)) {
        pet_pack_image im;
        (void)pet_pack_image_at(&pack, sel.image, &im);
        printf("role %s at %llu ms: role %u%s, frame %u, image %u (%s, %ux%u)\n", role, ms,
               (unsigned)sel.role, sel.used_fallback ? " (the fallback role)" : "", (unsigned)sel.frame,
               (unsigned)sel.image, im.id, (unsigned)im.width, (unsigned)im.height);
    } else {
        printf("built-in fallback: %s\n", no_pack ? "no pack" : pet_pack_status_name(status));
    }
    if (swap) {
        uint32_t k;
        for (k = 0; k < DEMO_FRAMEBUFFER_BYTES; k += 2u) {
            uint8_t t = framebuffer[k];
            framebuffer[k] = framebuffer[k + 1u];
            framebuffer[k + 1u] = t;
        }
    }
    f = fopen(out, "wb");
    if (f == NULL || fwrite(framebuffer, 1, sizeof framebuffer, f) != sizeof framebuffer || fclose(f) != 0) {
        fprintf(stderr, "pet_demo: cannot write %s\n", out);
        free(owned);
        return 2;
    }
    free(owned);
    return 0;
}
