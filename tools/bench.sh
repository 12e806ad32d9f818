#!/usr/bin/env bash
# The benchmark suite of issue 21 (docs/benchmarks.md): builds the sprite
# sets deterministically, times rules_pet beside its baselines and LVGL's
# LVGLImage.py as whole processes, and prints each ratio with its goal and
# each peak resident size (from /usr/bin/time -v). It never judges: it
# prints medians and ratios of medians of wall time, and the CPU seconds
# (user+sys) beside them, which a machine busy with other work disturbs
# less than the wall time.
#
# Usage: tools/bench.sh [--lvgl PATH/LVGLImage.py] [--runs N] [--python PY] [--c]
#   --lvgl    LVGL's scripts/LVGLImage.py (lvgl/lvgl at 7cc13aa); it needs
#             Debian's python3-png and python3-lz4. Without it the LVGL
#             ratios print `lvgl: skipped (no --lvgl)`.
#   --runs    timed runs of each command after one warm-up (default 5)
#   --python  the interpreter for LVGLImage.py (default /usr/bin/python3,
#             where Debian's python3-png and python3-lz4 live)
#   --c       also run firmware/bench/bench.sh (the C reader's CRC figure)
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

lvgl= runs=5 python=/usr/bin/python3 with_c=0
while (($#)); do
    case $1 in
    --lvgl) lvgl=$(realpath "$2"); shift 2 ;;
    --runs) runs=$2; shift 2 ;;
    --python) python=$2; shift 2 ;;
    --c) with_c=1; shift ;;
    *) echo "usage: tools/bench.sh [--lvgl PATH] [--runs N] [--python PY] [--c]" >&2; exit 2 ;;
    esac
done
[[ -x /usr/bin/time ]] || { echo "tools/bench.sh needs /usr/bin/time (Debian: apt-get install time)" >&2; exit 1; }

work=${BENCH_DIR:-build/bench-suite}
mkdir -p "$work/bin" "$work/out"
go build -o "$work/bin/" ./tools/cmd/petasset ./dev/cmd/petbench
petasset=$work/bin/petasset petbench=$work/bin/petbench
# The sets take a while to encode: they are rewritten only when the
# generator (petbench) changed since they were written.
stamp=$(sha256sum "$petbench" | cut -d' ' -f1)
if [[ $(cat "$work/sets/.stamp" 2>/dev/null) != "$stamp" ]]; then
    rm -rf "$work/sets"
    "$petbench" sets "$work/sets" >/dev/null
    echo "$stamp" >"$work/sets/.stamp"
fi

# measure NAME CMD...: runs CMD once to warm up, then $runs times; records
# the median wall seconds in wall[NAME] and the largest peak RSS in MiB in
# peak[NAME]. A command may fail (the oversize set must); its exit status
# is recorded in rc[NAME] and must be the same every run.
declare -A wall cpu peak rc
measure() {
    local name=$1 i t0 t1 code walls=() cpus=() peaks=()
    shift
    "$@" >/dev/null 2>&1 || true
    for ((i = 0; i < runs; i++)); do
        t0=$(date +%s%N)
        code=0
        /usr/bin/time -f '%M %U %S' -o "$work/time.txt" "$@" >/dev/null 2>"$work/stderr.txt" || code=$?
        t1=$(date +%s%N)
        walls+=("$(((t1 - t0) / 1000))")
        peaks+=("$(tail -1 "$work/time.txt" | cut -d' ' -f1)")
        cpus+=("$(tail -1 "$work/time.txt" | awk '{printf "%d", ($2 + $3) * 1e6}')")
        if [[ -n ${rc[$name]:-} && ${rc[$name]} != "$code" ]]; then
            echo "$name: exit status $code, earlier ${rc[$name]}" >&2
            exit 1
        fi
        rc[$name]=$code
    done
    wall[$name]=$(printf '%s\n' "${walls[@]}" | sort -n | awk '{a[NR]=$1} END {m=(NR%2)?a[(NR+1)/2]:(a[NR/2]+a[NR/2+1])/2; printf "%.4f", m/1e6}')
    cpu[$name]=$(printf '%s\n' "${cpus[@]}" | sort -n | awk '{a[NR]=$1} END {m=(NR%2)?a[(NR+1)/2]:(a[NR/2]+a[NR/2+1])/2; printf "%.4f", m/1e6}')
    peak[$name]=$(printf '%s\n' "${peaks[@]}" | sort -n | tail -1 | awk '{printf "%.1f", $1/1024}')
}
ratio() { awk -v a="$1" -v b="$2" 'BEGIN {printf "%.2f", a/b}'; }

echo "== machine: $(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg); $(go version | cut -d' ' -f3); runs=$runs, medians"
[[ -n $lvgl ]] && echo "== lvgl: $lvgl ($("$python" --version 2>&1)), LVGLImage.py --ofmt BIN --cf RGB565A8"

for set in 5x64 8x512 7x1024 32x496; do
    m=$work/sets/$set/manifest.petasset
    measure "build $set" "$petasset" pack build --manifest "$m" --out "$work/out/$set.pack"
    measure "decode1 $set" "$petbench" decode -workers 1 "$m"
    measure "decode2 $set" "$petbench" decode -workers 2 "$m"
    b=${wall["build $set"]}
    printf '\n%s: petasset pack build %.3f s, peak %s MiB; image/png decode 1 worker %.3f s, 2 workers %.3f s\n' \
        "$set" "$b" "${peak["build $set"]}" "${wall["decode1 $set"]}" "${wall["decode2 $set"]}"
    printf '  build / decode on 1 worker:  %sx\n' "$(ratio "$b" "${wall["decode1 $set"]}")"
    goal="goal <= 1.3x"
    [[ $set == 5x64 ]] && goal="reported only"
    printf '  build / decode on 2 workers: %sx (%s)\n' "$(ratio "$b" "${wall["decode2 $set"]}")" "$goal"
    printf '  cpu seconds (user+sys), build %s, decode 2 workers %s: %sx\n' "${cpu["build $set"]}" "${cpu["decode2 $set"]}" \
        "$(ratio "${cpu["build $set"]}" "${cpu["decode2 $set"]}")"
    if [[ -n $lvgl ]]; then
        rm -rf "$work/out/lvgl-$set"
        measure "lvgl $set" "$python" "$lvgl" --ofmt BIN --cf RGB565A8 -o "$work/out/lvgl-$set" "$work/sets/$set/sprites"
        [[ ${rc["lvgl $set"]} == 0 ]] || { echo "LVGLImage.py failed on $set" >&2; exit 1; }
        goal="goal >= 20x"
        [[ $set == 5x64 ]] && goal="reported only: mostly Python start-up"
        printf '  LVGLImage.py %.3f s, peak %s MiB: rules_pet is %sx faster (%s); cpu seconds %s, %sx\n' "${wall["lvgl $set"]}" "${peak["lvgl $set"]}" \
            "$(ratio "${wall["lvgl $set"]}" "$b")" "$goal" "${cpu["lvgl $set"]}" "$(ratio "${cpu["lvgl $set"]}" "${cpu["build $set"]}")"
    else
        echo "  lvgl: skipped (no --lvgl)"
    fi
done

m=$work/sets/32x1024/manifest.petasset
measure "oversize" "$petasset" pack build --manifest "$m" --out "$work/out/32x1024.pack"
[[ ${rc[oversize]} != 0 ]] || { echo "the 32x1024 set was accepted" >&2; exit 1; }
oversize_msg=$(tail -1 "$work/stderr.txt")
measure "decode2 32x1024" "$petbench" decode -workers 2 "$m"
printf '\n32x1024 (past 16 MiB): rejected in %.3f s, peak %s MiB (goal: tens of ms, < 64 MiB); decoding it would take %.3f s on 2 workers\n' \
    "${wall[oversize]}" "${peak[oversize]}" "${wall["decode2 32x1024"]}"
printf '  %s\n' "$oversize_msg"

pk=$work/out/32x496.pack
size=$(stat -c %s "$pk")
measure "verify" "$petasset" pack verify "$pk"
measure "readcrc" "$petbench" readcrc "$pk"
printf '\npack verify of a %s-byte pack: %.4f s, peak %s MiB; os.ReadFile + crc32.ChecksumIEEE %.4f s, peak %s MiB\n' \
    "$size" "${wall[verify]}" "${peak[verify]}" "${wall[readcrc]}" "${peak[readcrc]}"
printf '  cpu seconds: verify %s, read + CRC %s\n' "${cpu[verify]}" "${cpu[readcrc]}"
printf '  verify / (read + CRC): %sx (goal <= 1.5x); peak - file size: %s MiB (goal <= 10 MiB)\n' \
    "$(ratio "${wall[verify]}" "${wall[readcrc]}")" "$(awk -v p="${peak[verify]}" -v s="$size" 'BEGIN {printf "%.1f", p - s/1048576}')"

# The high-tier pet: the sample's 50 frames enlarged 3x to 576x624 (68.6
# MiB of decoded RGBA), assembled as `petpack assemble` does, beside the
# work no writer can skip: decoding those PNGs and encoding the animated
# preview (petbench preview, one goroutine).
pet_stamp="$stamp $(cat assets/petpack/frames/*/*.png | sha256sum | cut -d' ' -f1)"
if [[ $(cat "$work/pet/.stamp" 2>/dev/null) != "$pet_stamp" ]]; then
    rm -rf "$work/pet"
    "$petbench" pet assets/petpack/frames "$work/pet" >/dev/null
    echo "$pet_stamp" >"$work/pet/.stamp"
fi
spec=$work/pet/spec.json
measure "petpack" "$petasset" petpack assemble --spec "$spec" --out "$work/out/pet.petpack"
[[ ${rc[petpack]} == 0 ]] || { echo "petpack assemble failed on the high-tier pet" >&2; exit 1; }
measure "preview" "$petbench" preview "$spec"
printf '\npetpack assemble, high tier (50 frames of 576x624): %.3f s, peak %s MiB; decode + preview encode %.3f s, peak %s MiB\n' \
    "${wall[petpack]}" "${peak[petpack]}" "${wall[preview]}" "${peak[preview]}"
printf '  assemble / (decode + preview encode): %sx (goal <= 2x); cpu seconds %s / %s: %sx\n' "$(ratio "${wall[petpack]}" "${wall[preview]}")" \
    "${cpu[petpack]}" "${cpu[preview]}" "$(ratio "${cpu[petpack]}" "${cpu[preview]}")"
printf '  peak %s MiB (goal <= 118 MiB: 1.25 x 68.6 MiB decoded + 32 MiB)\n' "${peak[petpack]}"

if ((with_c)); then
    echo
    firmware/bench/bench.sh
else
    printf '\nc reader: skipped (no --c; firmware/bench/bench.sh prints it at gcc -O2)\n'
fi
