#!/usr/bin/env bash
# Builds a pack at the 16 MiB limit with the vector generator and prints the
# C reader's validation throughput beside zlib's crc32() over the same bytes,
# for the default reader (braided CRC, 5 KiB of tables) and for the
# PET_PACK_CRC_SMALL=1 build (byte-table CRC, 1 KiB). Each build runs RUNS
# times (the machine may be shared: one run proves little); the last lines
# give, per build, the median of the runs' ratios and their range.
#
# Usage: firmware/bench/bench.sh [SECONDS] [RUNS]   (default 3 s a run, 5 runs)
# CC and CFLAGS pick the compiler and optimisation (default: cc, -O2).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."
seconds=${1:-3}
runs=${2:-5}
cc=${CC:-cc}
cflags=${CFLAGS:--O2}
work=build/bench
mkdir -p "$work"
go run ./tests/vectors/gen -only-large -large "$work/large" >/dev/null
source firmware/flags.sh
variants=(default small)
declare -A define=([default]="" [small]=-DPET_PACK_CRC_SMALL=1)
for v in "${variants[@]}"; do
    # shellcheck disable=SC2086 # CFLAGS and the define are word lists
    "$cc" "${c99_copts[@]}" -Werror $cflags ${define[$v]} \
        -Ifirmware firmware/bench/pet_pack_bench.c firmware/pet_pack.c -lz -o "$work/pet_pack_bench_$v"
done
compiler="$("$cc" --version | head -1), $cflags"
declare -A ratios
for ((r = 1; r <= runs; r++)); do
    for v in "${variants[@]}"; do
        echo "== run $r/$runs: $v ${define[$v]:-(no define)} ($compiler)"
        "$work/pet_pack_bench_$v" "$work/large/packs/limit_16mib.pack" "$seconds" | tee "$work/out"
        ratios[$v]+="$(sed -n 's/^ratio pet_pack_verify \/ zlib crc32: //p' "$work/out") "
    done
done
echo "== summary: $compiler, $runs runs of ${seconds}s per build"
for v in "${variants[@]}"; do
    # shellcheck disable=SC2086 # one ratio a word
    printf '%s\n' ${ratios[$v]} | sort -n | awk -v v="$v" '
        { x[NR] = $1 }
        END {
            m = NR % 2 ? x[(NR + 1) / 2] : (x[NR / 2] + x[NR / 2 + 1]) / 2
            printf "%-8s pet_pack_verify / zlib crc32: median %.3f (min %.3f, max %.3f)\n", v, m, x[1], x[NR]
        }'
done
