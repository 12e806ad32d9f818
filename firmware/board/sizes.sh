#!/usr/bin/env bash
# Prints, as a Markdown table, what the board image costs with and without
# the canonical pack (arm-none-eabi-size: flash = text + data, RAM = data +
# bss, which holds the 115200-byte framebuffer and the 16 KiB stack), and
# the reader's share of flash from the linker map. Measured, not asserted.
#
# Usage: sizes.sh NM PET.elf PET.map NOPACK.elf NOPACK.map (any order of
# each image's two files)
set -euo pipefail
nm=$1
shift
size=${nm%nm}size
files=("$@")
pick() { # IMAGE SUFFIX
    local f
    for f in "${files[@]}"; do
        [[ $(basename "$f") == "$1.$2" ]] && { echo "$f"; return; }
    done
    echo "sizes.sh: no $1.$2 among ${files[*]}" >&2
    exit 2
}
row() { # LABEL ELF
    local text data bss
    read -r text data bss _ < <("$size" "$2" | tail -n 1)
    printf '| %s | %d | %d |\n' "$1" $((text + data)) $((data + bss))
}
pet=$(pick pet elf)
nopack=$(pick nopack elf)
map=$(pick pet map)

echo "| Cortex-M3 image (arm-none-eabi-gcc -Os) | flash (bytes) | RAM (bytes) |"
echo "| --- | ---: | ---: |"
row "with the canonical pack" "$pet"
row "without a pack" "$nopack"
# awk: mawk on Debian, which has no strtonum.
hex='function hex(s,  i, v) { s = tolower(s); sub(/^0x/, "", s); v = 0
    for (i = 1; i <= length(s); i++) v = v * 16 + index("0123456789abcdef", substr(s, i, 1)) - 1
    return v }'
pack=$("$nm" -S "$pet" | awk "$hex"' $NF == "pet_asset_pack" { print hex($2) }')
printf '| the pack itself (pet_asset_pack) | %d | 0 |\n' "$pack"

# The reader's input sections in the map, after its discarded ones: a
# " .text.NAME" or " .rodata.NAME" line, then (on it or on the next line)
# address, size and the object they come from.
awk "$hex"'
    /^Linker script and memory map/ { on = 1; next }
    !on { next }
    /^ \.[^ ]/ { name = $1; if (NF == 1) next }
    $NF ~ /\(pet_pack\.o\)$/ && $(NF-1) ~ /^0x/ {
        if (name ~ /^\.text/) text += hex($(NF-1)); else if (name ~ /^\.rodata/) ro += hex($(NF-1))
    }
    END {
        printf "| the reader (pet_pack.o): code | %d | 0 |\n", text
        printf "| the reader (pet_pack.o): constants (CRC tables, rule names) | %d | 0 |\n", ro
    }
' "$map"
# The reader's CRC tables name the variant: crc_braid beside crc_table is
# the default braided CRC, crc_table alone PET_PACK_CRC_SMALL, neither
# PET_PACK_CRC_HOOK (the platform's routine).
crc=$("$nm" -S "$pet" | awk "$hex"' $NF == "crc_table" || $NF == "crc_braid" { printf "%s %d B, ", $NF, hex($2) }')
if grep -q crc_braid <<<"$crc"; then
    variant="braided (the default)"
elif [[ -n "$crc" ]]; then
    variant="byte table (PET_PACK_CRC_SMALL)"
else
    variant="no tables (PET_PACK_CRC_HOOK)"
fi
echo
echo "CRC variant linked: $variant${crc:+ (${crc%, })}"
