#!/usr/bin/env bash
# The C reader on a big-endian CPU: its unit and vector tests built for
# s390x with clang (--target=s390x-linux-gnu -static, over Debian's s390x
# cross libc, libgcc and binutils) and run under qemu-s390x, in the default
# and the slicing-by-8 CRC builds. The pack's integers are little-endian
# and its pixels high byte first; a reader leaning on the host's byte order
# passes on x86 and fails here.
#
# Usage: firmware/bigendian.sh        (run firmware/setup.sh first)
# Ends with "firmware big-endian: N passed, N failed".
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

for tool in clang qemu-s390x s390x-linux-gnu-readelf; do
    command -v "$tool" >/dev/null || {
        echo "firmware/bigendian: $tool not found; run firmware/setup.sh" >&2
        exit 2
    }
done
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
source firmware/flags.sh
target=(--target=s390x-linux-gnu -static)
std=("${c99_copts[@]}" -Werror)
strict=("${std[@]}" "${strict_warnings[@]}")
passed=0
failed=0

# The default (braided) CRC and the small byte table: both read words from
# bytes, which only a big-endian run shows. The hook variant has no table of
# its own to check here.
for variant in "" -DPET_PACK_CRC_SMALL=1; do
    tag=${variant:+_small}
    clang "${target[@]}" "${strict[@]}" -O2 $variant -c firmware/pet_pack.c -o "$out/pet_pack$tag.o"
    for t in pet_pack_test pet_pack_vectors_test; do
        bin=$out/$t$tag
        clang "${target[@]}" "${std[@]}" -O2 -Ifirmware "firmware/tests/$t.c" "$out/pet_pack$tag.o" -o "$bin"
        # A host binary by mistake would prove nothing about byte order.
        if ! s390x-linux-gnu-readelf -h "$bin" | grep -q 'big endian'; then
            echo "FAIL $t$tag: not a big-endian binary" >&2
            failed=$((failed + 1))
            continue
        fi
        if qemu-s390x "$bin" tests/vectors >"$out/log" 2>&1; then :; else
            echo "FAIL $t$tag (exit $?):"
            cat "$out/log"
        fi
        line=$(grep -E '^[0-9]+ passed, [0-9]+ failed$' "$out/log" | tail -1 || true)
        if [[ -z $line ]]; then
            echo "FAIL $t$tag printed no result"
            failed=$((failed + 1))
            continue
        fi
        read -r p _ f _ <<<"$line"
        passed=$((passed + p))
        failed=$((failed + f))
        printf '%-56s %s\n' "$t (s390x${variant:+ $variant})" "$line"
    done
done

echo "firmware big-endian: $passed passed, $failed failed"
[[ $failed -eq 0 ]]
