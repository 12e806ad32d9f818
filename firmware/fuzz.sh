#!/usr/bin/env bash
# Bounded fuzzing of the C pack reader, then prints the results:
#
#  1. libFuzzer (clang -fsanitize=fuzzer,address,undefined) on
#     firmware/fuzz/pet_pack_fuzz.c, seeded with every shared vector and
#     every former finding in firmware/fuzz/regressions/;
#  2. the Go/C differential harness, FuzzDifferential in tests/vectors, with
#     the C side an AddressSanitizer + UBSan build of pet_pack_check.
#
# Usage: firmware/fuzz.sh [SECONDS]      (default 60, for each of the two:
#                                        one core's seconds for libFuzzer,
#                                        spread over one job per core)
#
# A libFuzzer crash is copied to firmware/fuzz/regressions/ (firmware/test.sh
# replays that folder); a Go/C disagreement is written by Go to
# tests/vectors/testdata/fuzz/FuzzDifferential/ (a seed of every plain go
# test run from then on). Either way, decide the right verdict and add the
# input as a named vector in tests/vectors/vectors.go.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
SECONDS_EACH=${1:-60}
[[ $SECONDS_EACH =~ ^[0-9]+$ ]] || { echo "usage: firmware/fuzz.sh [SECONDS]" >&2; exit 2; }
CC_FUZZ=${CC_FUZZ:-clang}
work=build/fuzz
mkdir -p "$work/corpus" "$work/artifacts" firmware/fuzz/regressions
command -v "$CC_FUZZ" >/dev/null || { echo "fuzz: $CC_FUZZ not found; run firmware/setup.sh" >&2; exit 2; }

san=(-fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer)
source firmware/flags.sh
flags=("${c99_copts[@]}" -Werror -g -O1 -Ifirmware)
"$CC_FUZZ" "${flags[@]}" -fsanitize=fuzzer "${san[@]}" firmware/fuzz/pet_pack_fuzz.c firmware/pet_pack.c -o "$work/pet_pack_fuzz"
"$CC_FUZZ" "${flags[@]}" "${san[@]}" firmware/tools/pet_pack_check.c firmware/pet_pack.c -o "$work/pet_pack_check"
cp tests/vectors/packs/*.pack "$work/corpus/"
find firmware/fuzz/regressions -type f ! -name README.md -exec cp {} "$work/corpus/" \;

status=0

# libFuzzer runs on one core; the differential below on all of them. So
# that both get the same fuzzing, SECONDS of one core, libFuzzer runs as
# one job per core (2 on the CI machine: 2 x 30 s instead of 1 x 60 s), the
# jobs sharing the corpus directory (each reloads the others' new inputs).
cores=$(nproc)
((cores >= 1)) || cores=1
lf_seconds=$(((SECONDS_EACH + cores - 1) / cores))
echo "== libFuzzer: pet_pack_fuzz, ${cores} job(s) of ${lf_seconds}s (${SECONDS_EACH}s of one core)"
lf_log=$work/libfuzzer.log
rm -f "$work"/fuzz-*.log
set +e
(cd "$work" && ./pet_pack_fuzz -jobs="$cores" -workers="$cores" -max_total_time="$lf_seconds" -max_len=65536 -timeout=10 \
    -print_final_stats=1 -artifact_prefix=artifacts/ corpus) >"$lf_log" 2>&1
lf_rc=$?
set -e
# The jobs' own output is in fuzz-N.log beside the binary; a failed job's
# exit status reaches the parent's.
cat "$work"/fuzz-*.log >>"$lf_log" 2>/dev/null || true
if ! grep -q '^stat::number_of_executed_units' "$lf_log" && ((lf_rc == 0)); then
    lf_rc=1 # no job reached its end
fi
lf_execs=$(awk '/^stat::number_of_executed_units:/ { s += $2 } END { print s + 0 }' "$lf_log")
lf_cov=$(grep -o 'cov: [0-9]*' "$lf_log" | sort -t' ' -k2 -n | tail -1 || true)
if [[ $lf_rc -ne 0 ]]; then
    status=1
    tail -40 "$lf_log"
    for a in "$work"/artifacts/*; do
        [[ -f $a ]] || continue
        cp "$a" firmware/fuzz/regressions/
        echo "fuzz: libFuzzer finding kept as firmware/fuzz/regressions/$(basename "$a")"
    done
    lf_result="FINDING (exit $lf_rc, log $lf_log)"
else
    lf_result="no finding"
fi

echo "== Go/C differential: FuzzDifferential for ${SECONDS_EACH}s"
diff_log=$work/differential.log
set +e
PET_PACK_CHECK="$PWD/$work/pet_pack_check" tools/gofuzz.sh "${SECONDS_EACH}s" FuzzDifferential ./tests/vectors >"$diff_log" 2>&1
diff_rc=$?
set -e
diff_line=$(grep -E '^fuzz: elapsed' "$diff_log" | tail -1 || true)
diff_execs=$(sed -n 's/.*execs: \([0-9]*\).*/\1/p' <<<"$diff_line")
if [[ $diff_rc -ne 0 ]]; then
    status=1
    tail -40 "$diff_log"
    diff_result="DISAGREEMENT or crash (exit $diff_rc; the input is in tests/vectors/testdata/fuzz/FuzzDifferential/)"
else
    diff_result="0 disagreements"
fi

echo
echo "fuzz: libFuzzer pet_pack_fuzz (ASan+UBSan): ${cores} x ${lf_seconds}s, ${lf_execs:-?} execs, ${lf_cov:-cov ?}, $lf_result"
echo "fuzz: FuzzDifferential (Go runtime/pack vs C, ASan+UBSan): ${SECONDS_EACH}s, ${diff_execs:-?} execs (each input and its resealed twin), $diff_result"
exit $status
