#!/usr/bin/env bash
# Builds and tests the C pack reader on the host, without Bazel:
#
#  - compiles firmware/pet_pack.c warning-free with -std=c99 -Wall -Wextra
#    -Werror -pedantic (plus -Wconversion and friends for the reader itself)
#    under gcc and clang, each for the 64-bit host and a 32-bit target (-m32),
#    in each of the three CRC variants: the default braided tables,
#    PET_PACK_CRC_SMALL=1 (the 1 KiB table) and PET_PACK_CRC_HOOK (a platform
#    hook, here zlib's crc32() through tests/crc_hook.c);
#  - runs the unit tests, the CRC test and the shared vectors
#    (tests/vectors/VECTORS.txt) in each of those twelve builds, and each
#    variant once more under ASan + UBSan;
#  - checks that pet_pack_crc.h is what tools/pet_pack_crc_gen.c writes;
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
    printf '%-36s %s\n' "$name" "$line"
}

variant_flags() { # VARIANT: the reader's CRC define and what the tests link with it
    case $1 in
    default) ;;
    small) echo -DPET_PACK_CRC_SMALL=1 ;;
    hook) echo -DPET_PACK_CRC_HOOK=pet_pack_test_zlib_crc32 -DPET_PACK_TEST_HOOK firmware/tests/crc_hook.c -lz ;;
    esac
}

build() { # CC VARIANT WIDTH: compile the reader strictly, link and run the three tests
    local cc=$1 variant=$2 m=$3
    local tag=${cc}_${variant}_${m#-}
    local vf
    read -r -a vf <<<"$(variant_flags "$variant")"
    # The reader alone gets the strict set; the -D flags are its first words.
    local defs=()
    for f in "${vf[@]}"; do [[ $f == -D* ]] && defs+=("$f"); done
    "$cc" "${strict[@]}" -O2 "$m" "${defs[@]}" -c firmware/pet_pack.c -o "$out/pet_pack_$tag.o"
    local run=()
    [[ $m == -m32 ]] && run=("${run32[@]}")
    local t
    for t in pet_pack_test pet_pack_crc_test pet_pack_vectors_test; do
        "$cc" "${std[@]}" -O2 "$m" -Ifirmware -Ifirmware/tests firmware/tests/$t.c "$out/pet_pack_$tag.o" \
            "${vf[@]}" -o "$out/${t}_$tag"
        suite "${t#pet_pack_} ($cc $variant $m)" "${run[@]}" "$out/${t}_$tag" tests/vectors
    done
}

for cc in gcc clang; do
    command -v "$cc" >/dev/null || { echo "firmware/test: $cc not found; run firmware/setup.sh" >&2; exit 2; }
done
for variant in default small hook; do
    for cc in gcc clang; do
        build "$cc" "$variant" -m64
        build "$cc" "$variant" -m32
    done
done

# The checked-in tables are the generator's output, byte for byte.
gcc "${std[@]}" -O2 firmware/tools/pet_pack_crc_gen.c -o "$out/pet_pack_crc_gen"
if "$out/pet_pack_crc_gen" | cmp -s - firmware/pet_pack_crc.h; then
    passed=$((passed + 1))
    printf '%-36s %s\n' "crc tables" "pet_pack_crc.h matches tools/pet_pack_crc_gen.c"
else
    failed=$((failed + 1))
    echo "FAIL firmware/pet_pack_crc.h differs from the output of firmware/tools/pet_pack_crc_gen.c;"
    echo "     regenerate it: gcc firmware/tools/pet_pack_crc_gen.c -o gen && ./gen > firmware/pet_pack_crc.h"
fi

san=(-g -O1 -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer)
for variant in default small hook; do
    read -r -a vf <<<"$(variant_flags "$variant")"
    for t in pet_pack_test pet_pack_crc_test pet_pack_vectors_test; do
        clang "${std[@]}" "${san[@]}" -Ifirmware -Ifirmware/tests firmware/pet_pack.c firmware/tests/$t.c \
            "${vf[@]}" -o "$out/${t}_san"
        suite "${t#pet_pack_} (clang $variant ASan+UBSan)" "$out/${t}_san" tests/vectors
    done
done

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
gcc "${std[@]}" -O2 -Ifirmware firmware/bench/pet_pack_bench.c firmware/pet_pack.c -lz -o "$out/bench"
clang "${std[@]}" "${san[@]}" -fsanitize=fuzzer -Ifirmware firmware/fuzz/pet_pack_fuzz.c firmware/pet_pack.c -o "$out/fuzz"
replay=(tests/vectors/packs/*.pack)
for f in firmware/fuzz/regressions/*; do
    [[ -f $f && $(basename "$f") != README.md ]] && replay+=("$f")
done
if "$out/fuzz" -runs=0 "${replay[@]}" >"$out/fuzz.log" 2>&1; then
    passed=$((passed + ${#replay[@]}))
    printf '%-36s %s\n' "fuzz target replay" "${#replay[@]} inputs, no finding"
else
    failed=$((failed + 1))
    echo "FAIL fuzz target replay:"
    tail -30 "$out/fuzz.log"
fi

echo "firmware: $passed passed, $failed failed"
[[ $failed -eq 0 ]]
