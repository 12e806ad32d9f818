#!/usr/bin/env bash
# Checks, from a board image's ELF, that a pack linked into it is where a
# firmware engineer needs it: in flash (.rodata, inside the linker script's
# FLASH region), 4-byte aligned, byte for byte the expected pack, not
# copied to RAM, and that no allocator (malloc, _sbrk, ...) is linked.
#
# Usage: elf_test.sh NM OBJCOPY ELF SYMBOL EXPECTED_PACK
#   SYMBOL is the array (sized by nm -S), or a SYM_start whose SYM_end
#   marks its end (objcopy -I binary symbols carry no size).
set -euo pipefail
nm=$1
objcopy=$2
elf=$3
sym=$4
want=$5
fail() {
    echo "FAIL $elf: $*" >&2
    exit 1
}

syms=$("$nm" -S --defined-only "$elf")
# address of NAME, in decimal
addr_of() {
    local hex
    hex=$(awk -v s="$1" '$NF == s { print $1; exit }' <<<"$syms")
    [[ -n $hex ]] || fail "no symbol $1"
    echo $((16#$hex))
}
line=$(awk -v s="$sym" '$NF == s' <<<"$syms")
[[ -n $line ]] || fail "no symbol $sym"
read -r -a f <<<"$line"
addr=$((16#${f[0]}))
if ((${#f[@]} == 4)); then
    size=$((16#${f[1]}))
    type=${f[2]}
else
    [[ $sym == *_start ]] || fail "$sym has no size"
    size=$(($(addr_of "${sym%_start}_end") - addr))
    type=${f[1]}
fi
want_size=$(wc -c <"$want")
rodata_start=$(addr_of __rodata_start)
rodata_end=$(addr_of __rodata_end)
flash_start=$(addr_of __flash_start)
flash_end=$(addr_of __flash_end)
data_size=$(($(addr_of __data_end) - $(addr_of __data_start)))
printf '%s: %s at 0x%08x, %d bytes, nm type %s; .rodata 0x%08x-0x%08x; flash 0x%08x-0x%08x; .data %d bytes\n' \
    "$elf" "$sym" "$addr" "$size" "$type" "$rodata_start" "$rodata_end" "$flash_start" "$flash_end" "$data_size"

[[ $type == [Rr] ]] || fail "$sym is not read-only data (nm type $type)"
((size == want_size)) || fail "$sym holds $size bytes, $want has $want_size"
((addr % 4 == 0)) || fail "$sym at 0x$(printf %08x "$addr") is not 4-byte aligned"
((addr >= rodata_start && addr + size <= rodata_end)) || fail "$sym lies outside .rodata"
((rodata_start >= flash_start && rodata_end <= flash_end)) || fail ".rodata lies outside FLASH"
# Initialised data is copied from flash to RAM at reset: the pack is not.
((data_size < size)) || fail ".data ($data_size bytes) could hold a copy of the pack"

tmp=${TEST_TMPDIR:-$(mktemp -d)}
"$objcopy" -O binary --only-section=.rodata "$elf" "$tmp/rodata.bin"
tail -c +$((addr - rodata_start + 1)) "$tmp/rodata.bin" | head -c "$size" >"$tmp/pack.bin"
cmp "$tmp/pack.bin" "$want" || fail "the bytes of $sym differ from $want"

allocators=$(awk '{ print $NF }' <<<"$syms" |
    grep -E '^(_?_?(malloc|free|calloc|realloc|sbrk|malloc_r|free_r|calloc_r|realloc_r|sbrk_r)|__malloc_av_|_malloc_trim_r|_Balloc)$' || true)
[[ -z $allocators ]] || fail "an allocator is linked: $(echo $allocators)"
echo "PASS: $sym in flash, aligned, equal to $want; no allocator linked"
