#!/usr/bin/env bash
# Builds and tests the C pack reader on the host, without Bazel:
#
#  - compiles firmware/pet_pack.c warning-free with -std=c99 -Wall -Wextra
#    -Werror -pedantic (plus -Wconversion and friends for the reader itself)
#    under gcc and clang, each for the 64-bit host and a 32-bit target (-m32),
#    and with gcc in the PET_PACK_CRC_SLICE_BY_8=1 variant;
#  - runs the unit tests and the shared vectors (tests/vectors/VECTORS.txt)
#    in each of those four builds, and once more under ASan + UBSan;
#  - compiles the helper, the fuzz target and the benchmark, and replays the
#    vectors and firmware/fuzz/regressions through the libFuzzer build.
#
# Usage: firmware/test.sh        (run firmware/setup.sh first)
# Ends with "firmware: N passed, N failed".
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
source firmware/flags.sh
std=("${c99_copts[@]}" -Werror)
strict=("${std[@]}" "${strict_warnings[@]}")
passed=0
failed=0
# shellcheck source=firmware/i386.sh
source firmware/i386.sh
run32=()
if ! i386_native; then
    command -v qemu-i386 >/dev/null || {
        echo "firmware/test: this kernel runs no 32-bit binaries and qemu-i386 is missing; run firmware/setup.sh" >&2
        exit 2
    }
    echo "firmware/test: the kernel runs no 32-bit binaries; the -m32 builds run under qemu-i386"
    run32=(qemu-i386)
fi

suite() { # NAME COMMAND...: runs one test binary, adds its "N passed, N failed"
    local name=$1
    shift
    local log=$out/log
    if "$@" >"$log" 2>&1; then :; else
        echo "FAIL $name (exit $?):"
        cat "$log"
    fi
    local line
    line=$(grep -E '^[0-9]+ passed, [0-9]+ failed$' "$log" | tail -1 || true)
    if [[ -z $line ]]; then
        echo "FAIL $name printed no result"
        failed=$((failed + 1))
        return
    fi
    local p f
    read -r p _ f _ <<<"$line"
    passed=$((passed + p))
    failed=$((failed + f))
    printf '%-28s %s\n' "$name" "$line"
}

build() { # CC TARGET-FLAG...: compile the reader strictly, link both tests
    local cc=$1
    shift
    local tag
    tag=$(echo "$cc $*" | tr -c 'a-zA-Z0-9\n' _)
    "$cc" "${strict[@]}" -O2 "$@" -c firmware/pet_pack.c -o "$out/pet_pack_$tag.o"
    "$cc" "${std[@]}" -O2 "$@" -Ifirmware firmware/tests/pet_pack_test.c "$out/pet_pack_$tag.o" -o "$out/unit_$tag"
    "$cc" "${std[@]}" -O2 "$@" -Ifirmware firmware/tests/pet_pack_vectors_test.c "$out/pet_pack_$tag.o" -o "$out/vectors_$tag"
    local run=()
    [[ " $* " == *" -m32 "* ]] && run=("${run32[@]}")
    suite "unit ($cc $*)" "${run[@]}" "$out/unit_$tag" tests/vectors
    suite "vectors ($cc $*)" "${run[@]}" "$out/vectors_$tag" tests/vectors
}

for cc in gcc clang; do
    command -v "$cc" >/dev/null || { echo "firmware/test: $cc not found; run firmware/setup.sh" >&2; exit 2; }
    build "$cc" -m64
    build "$cc" -m32
done
# The slicing-by-8 CRC variant (PET_PACK_CRC_SLICE_BY_8=1), 64 and 32 bits.
build gcc -m64 -DPET_PACK_CRC_SLICE_BY_8=1
build gcc -m32 -DPET_PACK_CRC_SLICE_BY_8=1

san=(-g -O1 -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer)
clang "${std[@]}" "${san[@]}" -Ifirmware firmware/pet_pack.c firmware/tests/pet_pack_test.c -o "$out/unit_san"
clang "${std[@]}" "${san[@]}" -Ifirmware firmware/pet_pack.c firmware/tests/pet_pack_vectors_test.c -o "$out/vectors_san"
suite "unit (clang ASan+UBSan)" "$out/unit_san" tests/vectors
suite "vectors (clang ASan+UBSan)" "$out/vectors_san" tests/vectors

# The demo's device-side composition, strictly, on both widths.
for cc in gcc clang; do
    for m in -m64 -m32; do
        "$cc" "${strict[@]}" -O2 "$m" -Ifirmware -c firmware/demo/compose.c -o "$out/compose.o"
    done
done

# The helper, the benchmark and the fuzz target compile warning-free too;
# the fuzz target replays the vectors and every former finding.
gcc "${std[@]}" -O2 -Ifirmware firmware/tools/pet_pack_check.c firmware/pet_pack.c -o "$out/pet_pack_check"
clang "${std[@]}" -O2 -Ifirmware firmware/tools/pet_pack_check.c firmware/pet_pack.c -o "$out/pet_pack_check_clang"
gcc "${std[@]}" -O2 -DPET_PACK_CRC_SLICE_BY_8=1 -Ifirmware firmware/bench/pet_pack_bench.c firmware/pet_pack.c -lz -o "$out/bench"
clang "${std[@]}" "${san[@]}" -fsanitize=fuzzer -Ifirmware firmware/fuzz/pet_pack_fuzz.c firmware/pet_pack.c -o "$out/fuzz"
replay=(tests/vectors/packs/*.pack)
for f in firmware/fuzz/regressions/*; do
    [[ -f $f && $(basename "$f") != README.md ]] && replay+=("$f")
done
if "$out/fuzz" -runs=0 "${replay[@]}" >"$out/fuzz.log" 2>&1; then
    passed=$((passed + ${#replay[@]}))
    printf '%-28s %s\n' "fuzz target replay" "${#replay[@]} inputs, no finding"
else
    failed=$((failed + 1))
    echo "FAIL fuzz target replay:"
    tail -30 "$out/fuzz.log"
fi

echo "firmware: $passed passed, $failed failed"
[[ $failed -eq 0 ]]
