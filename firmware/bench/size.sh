#!/usr/bin/env bash
# Prints the flash cost of the reader, pet_pack.c alone, in each CRC variant,
# compiled for a Cortex-M3 (arm-none-eabi-gcc -mcpu=cortex-m3 -mthumb -Os,
# the size a firmware build would link) and measured with arm-none-eabi-size.
# text is code plus constant tables (flash); data and bss are RAM and stay 0:
# the reader has no mutable static state. The hook variant's figure excludes
# the platform's own CRC routine.
#
# Usage: firmware/bench/size.sh [EXTRA-CFLAGS...]
# Needs Debian's gcc-arm-none-eabi and libnewlib-arm-none-eabi.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."
for tool in arm-none-eabi-gcc arm-none-eabi-size; do
    command -v "$tool" >/dev/null || {
        echo "firmware/bench/size.sh: $tool not found (apt-get install gcc-arm-none-eabi libnewlib-arm-none-eabi)" >&2
        exit 2
    }
done
source firmware/flags.sh
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
flags=(-mcpu=cortex-m3 -mthumb -Os "$@")
echo "$(arm-none-eabi-gcc --version | head -1), ${flags[*]}"
printf '%-40s %7s %5s %4s\n' variant text data bss
for v in default small hook; do
    case $v in
    default) d=() ;;
    small) d=(-DPET_PACK_CRC_SMALL=1) ;;
    hook) d=(-DPET_PACK_CRC_HOOK=platform_crc32) ;;
    esac
    arm-none-eabi-gcc "${c99_copts[@]}" -Werror "${strict_warnings[@]}" "${flags[@]}" "${d[@]}" \
        -c firmware/pet_pack.c -o "$out/$v.o"
    read -r text data bss _ < <(arm-none-eabi-size "$out/$v.o" | tail -1)
    printf '%-40s %7s %5s %4s\n' "$v ${d[*]}" "$text" "$data" "$bss"
done
