#!/usr/bin/env bash
# Builds a pack at the 16 MiB limit with the vector generator and prints the
# C reader's validation throughput beside zlib's crc32() over the same bytes,
# for the default reader (byte-table CRC, 1 KiB of tables) and for the
# PET_PACK_CRC_SLICE_BY_8=1 build (8 KiB of tables).
#
# Usage: firmware/bench/bench.sh [SECONDS]     (default 3 per build)
# CC and CFLAGS pick the compiler and optimisation (default: cc, -O2).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."
work=build/bench
mkdir -p "$work"
go run ./tests/vectors/gen -only-large -large "$work/large" >/dev/null
source firmware/flags.sh
for slice in 0 1; do
    ${CC:-cc} "${c99_copts[@]}" -Werror ${CFLAGS:--O2} -DPET_PACK_CRC_SLICE_BY_8=$slice \
        -Ifirmware firmware/bench/pet_pack_bench.c firmware/pet_pack.c -lz -o "$work/pet_pack_bench_$slice"
    echo "== PET_PACK_CRC_SLICE_BY_8=$slice ($(${CC:-cc} --version | head -1), ${CFLAGS:--O2})"
    "$work/pet_pack_bench_$slice" "$work/large/packs/limit_16mib.pack" "${1:-3}"
done
