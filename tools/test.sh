#!/usr/bin/env bash
# Runs every test of rules_pet: formatting and vet, the Go tests on the
# machine's Go and, through Bazel, on Go 1.19 (vet of what Bazel leaves out), bounded fuzz
# runs over the checked-in seeds, buildifier, the Gazelle no-op check, the
# Bazel tests, the rules_pet tag query and petpack_import failure scripts,
# the C reader under gcc/clang/-m32/sanitizers with its fuzzers, the
# Bazel 7.7.1 phase (Bzlmod; tools/bazel/test_bazel7.sh), the
# scratch-workspace, Gazelle-on-a-copy and cache/determinism scripts,
# and the remote cache and remote execution scripts.
#
# Usage: tools/test.sh            the whole run (what CI runs: .ci/run)
#        tools/test.sh --quick    the inner loop: the Go unit tests (-short)
#                                 and a named set of small Bazel tests, no
#                                 fuzzing beyond the seeds, no integration
#                                 scripts (docs/testing.md)
#   FUZZTIME=30s              per Go fuzz target (default 10s; the seeds also
#                             run as regression tests in every go test)
#   FUZZ_C_SECONDS=300        libFuzzer and the Go/C differential each (default 60;
#                             libFuzzer's as one job per core, firmware/fuzz.sh)
#   RULES_PET_SKIP_REMOTE=1   skip the remote cache and remote execution phases
#                             (a quick local run; ignored when CI=true)
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
FUZZTIME=${FUZZTIME:-10s}
QUICK=
case "${1:-}" in
--quick) QUICK=1 ;;
"") ;;
*) echo "usage: tools/test.sh [--quick]" >&2; exit 2 ;;
esac
# Each phase's wall time against its target, printed at the end of the run
# (and on failure), so a slow phase shows in CI's log. An overrun is marked
# OVER, never a failure: the machine's load decides much of it. A whole
# run's targets add up to 30 minutes (1800 s, the goal of issue 29; time
# spent waiting for a job beside the phases has a target of 0), each near
# what the phase took in a cold run alone on the 2-core CI machine, the
# integration phases' as if the Bazel 7 tests beside them cost them less
# than they do (docs/testing.md has the measured runs).
# The apt installs (tools/bazel/setup.sh, firmware/setup.sh) depend on the
# mirror, not on this repository: their seconds (the scripts append them to
# RULES_PET_APT_SECONDS_FILE) leave their phase's time and show on a line of
# their own, and the run's total is given with and without them.
# The disk left free after each phase shows too: the integration scripts
# each create and delete whole Bazel output bases.
phase_names=()
phase_secs=()
phase_budgets=()
phase_free=()
phase_start=$SECONDS
phase_apt=0
RULES_PET_APT_SECONDS_FILE=$(mktemp)
export RULES_PET_APT_SECONDS_FILE
apt_seconds() { awk '{ s += $1 } END { print s + 0 }' "$RULES_PET_APT_SECONDS_FILE"; }
disk_free() { df -Pk "$HOME" . | awk 'NR > 1 && (m == "" || $4 < m) { m = $4 } END { printf "%.1f GiB", m / 1048576 }'; }
finish_phase() {
    if ((${#phase_names[@]})); then
        phase_secs+=($((SECONDS - phase_start - ($(apt_seconds) - phase_apt))))
        phase_free+=("$(disk_free)")
    fi
}
print_phases() {
    local rc=$1 apt i over budget=0
    finish_phase
    apt=$(apt_seconds)
    rm -f "$RULES_PET_APT_SECONDS_FILE"
    printf '\n== phase times (total %d s: %d s of phases, %d s of apt installs; disk free after each phase)\n' \
        "$SECONDS" "$((SECONDS - apt))" "$apt"
    printf '%6s    %6s    %-4s  %9s  %s\n' actual target "" "disk free" phase
    for i in "${!phase_names[@]}"; do
        over=
        ((phase_secs[i] <= phase_budgets[i])) || over=OVER
        budget=$((budget + phase_budgets[i]))
        printf '%6d s  %6d s  %-4s  %9s  %s\n' "${phase_secs[$i]}" "${phase_budgets[$i]}" "$over" "${phase_free[$i]}" "${phase_names[$i]}"
    done
    for i in "${!beside_names[@]}"; do
        [[ -n "${beside_secs[$i]}" ]] || continue
        over=
        ((beside_secs[i] <= beside_budgets[i])) || over=OVER
        printf '%6d s  %6d s  %-4s  %9s  %s\n' "${beside_secs[$i]}" "${beside_budgets[$i]}" "$over" "" "${beside_names[$i]} (beside the phases above; not in the sum)"
    done
    printf '%6d s  %6s    %-4s  %9s  %s\n' "$apt" "" "" "" "apt installs (Debian packages; not in the phases above)"
    over=
    ((SECONDS - apt <= budget)) || over=OVER
    printf '%6d s  %6d s  %-4s  %9s  %s\n' "$((SECONDS - apt))" "$budget" "$over" "" "all phases (the run without apt)"
    return $rc
}
on_exit() {
    local rc=$?
    local i
    for i in "${!beside_pids[@]}"; do
        [[ -n "${beside_pids[$i]}" ]] || continue
        echo "waiting for the job beside the phases to end: ${beside_names[$i]}" >&2
        wait "${beside_pids[$i]}" || true
        cat "${beside_logs[$i]}" >&2
        rm -f "${beside_logs[$i]}" "${beside_logs[$i]}.secs"
    done
    rm -f .bazelrc.ci
    # The run's sandbox directory on tmpfs: Bazel leaves some exec roots
    # there (a cold run left 1.1 GiB of the machine's memory), and no
    # `bazel clean --expunge` of an output base reaches them.
    if [[ -n "${RULES_PET_SANDBOX_BASE:-}" ]]; then
        chmod -R u+w "$RULES_PET_SANDBOX_BASE" 2>/dev/null || true
        rm -rf "$RULES_PET_SANDBOX_BASE"
    fi
    # The table also after a failure (errexit would end this handler at a
    # failing `(exit $rc)`, so the status goes in as an argument).
    print_phases "$rc"
}
trap on_exit EXIT
# step BUDGET NAME...: starts the phase NAME, whose target is BUDGET seconds.
step() {
    finish_phase
    phase_budgets+=("$1")
    shift
    phase_names+=("$*")
    phase_start=$SECONDS
    phase_apt=$(apt_seconds)
    printf '\n== %s (target %d s)\n' "$*" "${phase_budgets[-1]}"
}
# A job that waits more than it computes runs beside the phases:
# beside BUDGET NAME CMD... starts CMD now, its output in a file, and sets
# BESIDE to the job's number; beside_join N (before the first phase that
# needs the job, or at the end of the phase it shares) waits, prints that
# output, fails the run if CMD failed, and adds CMD's own wall time to the
# table, out of the sum (the run's wall time already holds it).
beside_names=()
beside_secs=()
beside_budgets=()
beside_pids=()
beside_logs=()
BESIDE=
beside() {
    local log
    log=$(mktemp)
    BESIDE=${#beside_pids[@]}
    beside_budgets+=("$1")
    beside_names+=("$2")
    beside_secs+=("")
    beside_logs+=("$log")
    printf '\n== %s (target %d s; beside the phases that follow, its output when it ends)\n' "$2" "$1"
    shift 2
    (
        start=$SECONDS
        rc=0
        "$@" || rc=$?
        echo "$((SECONDS - start))" >"$log.secs"
        exit "$rc"
    ) >"$log" 2>&1 &
    beside_pids+=("$!")
}
beside_join() {
    local n=$1 rc=0
    # Time spent waiting for it is a phase of its own.
    ! kill -0 "${beside_pids[$n]}" 2>/dev/null || step 0 "waiting for: ${beside_names[$n]}"
    wait "${beside_pids[$n]}" || rc=$?
    beside_pids[n]=
    printf '\n== %s (ran beside the phases above)\n' "${beside_names[$n]}"
    cat "${beside_logs[$n]}"
    beside_secs[n]=$(cat "${beside_logs[$n]}.secs")
    rm -f "${beside_logs[$n]}" "${beside_logs[$n]}.secs"
    if ((rc)); then
        echo "${beside_names[$n]} failed (exit $rc)" >&2
        exit "$rc"
    fi
}

# A whole run took 13 GiB at its peak on 2026-12-06 (the Go and Bazel
# caches, the main output base, two checkouts and the nginx cache at once).
echo "disk free at the start: $(disk_free) (a whole run needs about 13 GiB)"

step 30 "offline toolchain set-up"
tools/bazel/setup.sh
GO119=/usr/lib/go-1.19/bin/go
# The run's disk cache, in the offline stack's cache directory: the main
# workspace's actions land where tests/integration/scratch_test.sh and
# gazelle_test.sh already share one, and where cache_test.sh takes its
# toolchain from, so the Go SDK's tools, modernc's packages and petasset
# compile once a run instead of once a workspace. .bazelrc try-imports the
# file (before .bazelrc.user, whose settings win); it goes at the run's end.
DISK_CACHE=${RULES_PET_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/rules_pet}/disk-cache
printf 'build --disk_cache=%s\n' "$DISK_CACHE" >.bazelrc.ci
# The process-wrapper sandbox's exec roots (a symlink tree per action) on
# tmpfs where the machine has one: a cold `bazel test //...` spent 168 of
# its 652 core-seconds in the kernel with them on the disk, 129 of 607 on
# /dev/shm. The integration scripts' checkouts and workspaces get the same
# line (sandbox_rc in tests/integration/common.sh), and tools/bazel/bazel7
# keeps it for Bazel 7 in this checkout (its root binds the host's /dev).
# Bazel gives each output base a directory of its own in the run's
# directory there (removed at the end); nothing an action sees or makes
# changes.
if [[ -d /dev/shm && -w /dev/shm && "$(stat -f -c %T /dev/shm)" == tmpfs ]]; then
    RULES_PET_SANDBOX_BASE=$(mktemp -d /dev/shm/rules_pet_sandbox.XXXXXX)
    export RULES_PET_SANDBOX_BASE
    printf 'build --sandbox_base=%s\n' "$RULES_PET_SANDBOX_BASE" >>.bazelrc.ci
fi

step 10 "gofmt"
unformatted=$(gofmt -l $(git ls-files '*.go'))
if [[ -n "$unformatted" ]]; then
    echo "gofmt would change:" >&2
    echo "$unformatted" >&2
    exit 1
fi

# The inner loop (tools/test.sh --quick, docs/testing.md): the Go tests
# with -short on the machine's Go, and the Bazel tests of the rules (their
# analysis and failure tests, the sample assets' golden, runtime-copy,
# production and bundle tests, the C reader's test and the vectors), which
# cover a change to rules/, runtime/ or tools/ in a few minutes once the
# caches are warm. No fuzzing beyond the seeds the Go tests replay, no
# integration scripts, no second Go.
if [[ -n "$QUICK" ]]; then
    step 180 "go test -short ($(go version | cut -d' ' -f3))"
    go test -short ./...
    step 120 "bazel test (the rules' tests, the sample assets, the C reader)"
    bazel test //tests/rules/... //tests:all //tests/vectors:all //tests/ruleids:all //assets/... //firmware:pet_pack_test
    exit 0
fi

step 5 "rules/go_dependencies.bzl and WORKSPACE.bazel pin go.mod's versions"
# WORKSPACE users get petasset's Go modules from that file, Bzlmod users and
# the go tool from go.mod: the two must name the same version and hash.
for mod in golang.org/x/image modernc.org/sqlite modernc.org/libc modernc.org/mathutil modernc.org/memory \
    github.com/dustin/go-humanize github.com/google/uuid github.com/jezek/xgb github.com/mattn/go-isatty github.com/remyoudompheng/bigfft; do
    ver=$(go list -m -f '{{.Version}}' "$mod")
    sum=$(awk -v m="$mod" -v v="$ver" '$1 == m && $2 == v { print $3 }' go.sum)
    for want in "importpath = \"$mod\"" "version = \"$ver\"" "sum = \"$sum\""; do
        if ! grep -qF "$want" rules/go_dependencies.bzl; then
            echo "rules/go_dependencies.bzl lacks $want (go.mod: $mod $ver)" >&2
            exit 1
        fi
    done
    echo "$mod $ver $sum"
done
# WORKSPACE.bazel pins the modules only this repository's own code uses
# (tests, the docs generator's buildifier parser) the same way.
for mod in github.com/google/go-cmp github.com/santhosh-tekuri/jsonschema/v5 github.com/bazelbuild/buildtools; do
    ver=$(go list -m -f '{{.Version}}' "$mod")
    sum=$(awk -v m="$mod" -v v="$ver" '$1 == m && $2 == v { print $3 }' go.sum)
    for want in "importpath = \"$mod\"" "version = \"$ver\"" "sum = \"$sum\""; do
        if ! grep -qF "$want" WORKSPACE.bazel; then
            echo "WORKSPACE.bazel lacks $want (go.mod: $mod $ver)" >&2
            exit 1
        fi
    done
    echo "$mod $ver $sum"
done

step 5 "C toolchains (clang, sanitizers, 32-bit multilib, zlib)"
firmware/setup.sh

# The Bazel 7 set-up (a sid root from Debian's archive, rules_go, Gazelle and
# the Go SDK from the Go module proxy; a no-op once made) waits mostly on the
# network and the disk: it runs beside the Go phases below (87 s cold at
# about one core's use of two; 0-1 s when the root is there). It starts
# after the host's own apt installs, which it must not race for apt's locks.
beside 360 "Bazel 7 set-up (sid root, Bazel 7.7.1, rules_go/gazelle/Go SDK from the Go module proxy)" \
    tools/bazel/setup_bazel7.sh
bazel7_setup=$BESIDE

# Every amd64 `go test` of the whole run on this Go passes -vet=off: this
# phase has vetted every package with all of vet's checks, and go test's
# own vet (a subset) cost 15 core-seconds more in a cold build cache. The
# quick loop, which has no vet phase, and the s390x run (other build
# constraints) keep go test's.
step 60 "go vet"
go vet ./...

# Every Go benchmark runs once here too (-benchtime=1x), after its
# package's tests in the same process, so none rots: one build and link
# of each test binary instead of a second go test over the module. The
# timings are tools/bench.sh's job, not CI's.
# Beside the `go test` of the other packages, two jobs fill the core it
# leaves idle (the whole phase used 54 % of the machine over 283 s cold):
#  - the packages that wait for most of their time: tools/cmd/petdesk (85 s:
#    its pets' quiet windows and 3 s animation windows on Xvfb, 0-7 % of
#    the machine), tools/motionqa and tools/petplayer (36 s and 23 s, on
#    headless Chromium). In one `go test` with the rest they came last and
#    ran alone at the phase's end (petdesk for 80 s; with petdesk apart,
#    the other two for 60 s at 55 %). The vet phase above compiled every
#    package both need, so neither `go test` compiles the other's.
# The Go tests run twice in all: here on the machine's Go, and under
# `bazel test //...` below, whose rules_go compiles every package and test
# with Go 1.19 (every package has a go_library and every package with
# tests a go_test; the Gazelle no-op phase keeps it so). That compile is
# the module's Go 1.19 check; a whole-module `go vet` on Go 1.19 beside
# this phase repeated it (65 core-seconds of a cold run) and now covers
# only the packages Bazel leaves out (after `bazel test //...`).
step 200 "go test and every benchmark once ($(go version | cut -d' ' -f3))"
waiting_dirs=(./tools/cmd/petdesk ./tools/motionqa ./tools/petplayer)
waiting=$(go list "${waiting_dirs[@]}")
beside 210 "go test and every benchmark once: ${waiting_dirs[*]} (Xvfb, Chromium)" \
    go test -vet=off -bench . -benchtime=1x "${waiting_dirs[@]}"
waiting_tests=$BESIDE
go test -vet=off -bench . -benchtime=1x $(go list ./... | grep -vxF "$waiting")

# The pet Gazelle extension is a Go module of its own (gazelle/go.mod pins
# Gazelle v0.39.1, MODULE.bazel's version, which needs Go >= 1.21; see
# docs/gazelle.md), so neither run above sees it; Bazel tests it against
# v0.26 (//gazelle:gazelle_test, //tests/gazelle:generation_test). Before the
# phase targets its budget was 1 min (7 s measured at load 15 with a warm module cache; a fresh machine
# also downloads Gazelle v0.39.1 and its few dependencies).
step 10 "gazelle extension against Gazelle v0.39.1 (go vet, go test in gazelle/)"
(cd gazelle && go vet ./... && go test -vet=off ./...)

# The converter decodes on a worker pool: its concurrency tests under the
# race detector (115 s measured on a 2-core machine at load average 40;
# not yet timed on an idle one).
step 30 "go test -race (tools/assetpackbuild worker pool)"
go test -vet=off -race -run 'Worker|Lowest|Oversize|HeaderPass' ./tools/assetpackbuild
# The waiting packages' go test ends about here: joined after the two short
# phases above rather than before them (it ran 29 s past the other
# packages in a cold run, at 84 % of the machine).
beside_join "$waiting_tests"

# fuzz TARGET PKG [FLAGS]: a bounded fuzz run (tools/gofuzz.sh reruns a
# target once on Go's own deadline race, never on a finding).
fuzz() { tools/gofuzz.sh "$FUZZTIME" "$@" -vet=off; }

step 215 "fuzz ($FUZZTIME each)"
fuzz FuzzParse ./runtime/manifest
fuzz FuzzRead ./runtime/pack
# The fast PNG path against image/png: same pixels or same error.
fuzz FuzzFastPath ./tools/assetpackbuild
fuzz FuzzZlib ./tools/internal/inflate
# Inputs here are whole archives whose valid ones decode 50 frames and a
# preview: minimising each new one (even for 5 s) left 60 s runs at 5 k
# inputs, against 1 M without it. A finding is kept as it was found.
fuzz FuzzValidateArchive ./runtime/petpack -fuzzminimizetime=0x
# The metadata seeds are whole 10 KB documents, which minimising turns into
# most of a short run (171 inputs in 20 s, against 330 k without it).
fuzz FuzzMetadata ./runtime/petpack -fuzzminimizetime=0x
fuzz FuzzPrivacy ./runtime/petpack/internal/privacy
fuzz FuzzDecode ./runtime/petpack/internal/imagecheck
fuzz FuzzCheckObject ./internal/strictjson
fuzz FuzzOpen ./internal/strictzip
fuzz FuzzParse ./internal/webp
fuzz FuzzReview ./tools/motionqa
fuzz FuzzArtifactPath ./tools/motionqa
# Minimising a new playback input replays long traces: keep findings as found.
fuzz FuzzPlayer ./runtime/playback -fuzzminimizetime=0x
fuzz FuzzParseScript ./runtime/playback
fuzz FuzzParseLine ./runtime/desktop/control

step 100 "C reader fuzzing: libFuzzer + ASan/UBSan, Go/C differential (${FUZZ_C_SECONDS:-60}s each)"
firmware/fuzz.sh "${FUZZ_C_SECONDS:-60}"

step 5 "buildifier"
"${RULES_PET_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/rules_pet}/bin/buildifier" -lint=warn -mode=check \
    $(git ls-files '*.bzl' '*BUILD.bazel' '*WORKSPACE.bazel' '*WORKSPACE.bzlmod' '*MODULE.bazel')

step 75 "gazelle changes nothing"
bazel run //:gazelle
if [[ -n "$(git status --porcelain -- '*BUILD.bazel')" ]]; then
    echo "bazel run //:gazelle changed BUILD files:" >&2
    git status --porcelain -- '*BUILD.bazel' >&2
    exit 1
fi

# The readers' checks outside Bazel (the C reader under gcc and clang, the
# big-endian C and Go readers under QEMU) share nothing with Bazel, and
# `bazel test //...` leaves a core idle for much of its end (85 % of the
# machine over 304 s in a cold run: single long tests, Xvfb and Chromium
# waits): they run beside it, one after the other, each timed.
#  - The C pack reader: gcc and clang, -m64 and -m32, 3 CRC variants,
#    sanitizers (17 s alone; the -m32 runs go through qemu-i386 where the
#    kernel has no IA-32 emulation).
#  - The big-endian C reader: four clang builds for s390x, run under
#    qemu-s390x (2 s).
#  - The big-endian Go readers: std built for s390x once (then cached),
#    the tests under emulation (26 s).
# (beside runs it after `||`, where errexit is off: each part returns.)
readers() {
    local t=$SECONDS
    part() {
        echo "-- $1 took $((SECONDS - t)) s"
        t=$SECONDS
    }
    firmware/test.sh || return
    part "C pack reader"
    firmware/bigendian.sh || return
    part "big-endian C reader"
    GOARCH=s390x go test -exec qemu-s390x ./runtime/pack ./runtime/manifest ./runtime/presentation || return
    part "big-endian Go readers"
}
beside 60 "C pack reader (gcc and clang, -m64 and -m32, 3 CRC variants, sanitizers), big-endian C and Go readers (qemu-s390x)" readers
readers_job=$BESIDE

step 280 "bazel test //..."
bazel test //...
beside_join "$readers_job"

# Go 1.19 for what `bazel test //...` does not compile: the Go targets
# tagged manual (tests that walk the source tree, which the sandbox does
# not hold; `go test` above ran them on the machine's Go).
step 5 "go vet (Go 1.19) of the Go packages bazel test //... leaves out (tagged manual)"
manual_dirs=$(bazel query 'attr(tags, "\bmanual\b", kind("go_(library|binary|test)", //...))' --output=package |
    while read -r pkg; do
        # A package of generated Go (the bundle fixtures) has no .go source here.
        if compgen -G "$pkg/*.go" >/dev/null; then echo "./$pkg"; fi
    done)
GOTOOLCHAIN=local "$GO119" version
if [[ -n "$manual_dirs" ]]; then
    echo $manual_dirs
    GOTOOLCHAIN=local "$GO119" vet $manual_dirs
fi

# Before the phase targets its budget was 30 s (12 s measured: two queries of the loaded workspace).
step 5 "every target rules_pet creates is tagged rules_pet (bazel query)"
tests/rules/tags_query.sh

# Before the phase targets its budget was 30 s (18 s measured: a tampered archive and a wrong pet_id, each
# one small failing action; the tool is built by the phase above).
step 5 "petpack_import fails on a tampered archive and a wrong pet_id (bazel build)"
tests/rules/import_fails.sh

# The board's targets build only for the Cortex-M3 (its platform and C
# toolchain come with --config=cortex_m3), so `bazel test //...` above skips
# them: they run here by label. Its budget was about 1 min with a warm cache (one
# re-analysis, two QEMU boots of a second or two each).
step 10 "Cortex-M3 board under QEMU (bazel test --config=cortex_m3 //firmware/board/...)"
bazel test --config=cortex_m3 //firmware/board/... //assets/pet:pack_cc
bazel build --config=cortex_m3 //firmware/board:sizes
cat bazel-bin/firmware/board/sizes.txt
# The QEMU runs' summaries, with each image's stack high-water mark.
grep -h '^PASS' bazel-testlogs/firmware/board/{pet,damaged,fault}_qemu_test/test.log

# Bazel 7.7.1 with Bzlmod (Debian sid's Bazel in a root under the offline
# cache, tools/bazel/bazel7): the same `bazel test //...` with MODULE.bazel's
# graph, the goldens byte-identical to 4.2.3's, Gazelle v0.39 a no-op, and a
# user's Bzlmod workspace on the release archive. Budget: set-up 6 min and
# tests 15 min cold (docs/setup.md has the measured numbers).
# The tests run beside the integration phases below, which share nothing
# with them (their own checkouts, output bases and Bazel 4.2.3 servers;
# Bazel 7 writes no bazel-* links here): each of the two used 79-91 % of
# the machine alone (JVM start-ups, analysis and single-action tails),
# and one fills the other's gaps. Started earlier, beside the Gazelle
# no-op and `bazel test //...` (78 % and 91 % alone), they gained nothing:
# that cold run took 1991 s against 1810 s (part of it the machine's
# drift; docs/testing.md), both Bazels' test suites at once.
beside_join "$bazel7_setup"
beside 900 "Bazel 7 tests (bazel test //... under Bzlmod, goldens, gazelle no-op, Bzlmod user workspace)" \
    tools/bazel/test_bazel7.sh
bazel7_tests=$BESIDE

# The integration tests under tests/integration run Bazel themselves (other
# workspaces, other checkouts, one shared disk cache), so they are scripts
# run here, never sh_tests inside `bazel test //...`.
step 115 "scratch workspace (a broken manifest fails the build with FILE:LINE: RULE)"
tests/integration/scratch_test.sh

# Before the phase targets its budget was 6 min (5.5 min measured at load 15 with a warm disk cache: a new
# output base builds Gazelle with the pet extension, then the two pets; a
# cold disk cache not yet measured).
step 55 "gazelle on a copy of the repository (new pet directories get targets that build)"
tests/integration/gazelle_test.sh

step 205 "cache and determinism (two checkouts, one disk cache)"
tests/integration/cache_test.sh

# The remote phases each build the repository cold in a new output base:
# RULES_PET_SKIP_REMOTE=1 leaves them out of a quick local run. CI=true runs
# them always.
if [[ "${RULES_PET_SKIP_REMOTE:-}" == 1 && "${CI:-}" != true ]]; then
    echo "RULES_PET_SKIP_REMOTE=1: the remote cache and remote execution phases are skipped"
else
    # A cold build of //assets/... and the toolchain in checkout A (Bazel
    # 4.2.3 lets no disk cache help: see the script), B from the cache, B's
    # tests, two small rebuilds. Before issue 29 it built //..., whose
    # checkout A alone took over 25 min at load 30-50 (budget then 15 min).
    step 185 "remote cache (nginx WebDAV; a second checkout gets every action from it)"
    tests/integration/remote_cache_test.sh

    # A cold remote build and run of the test set (no disk cache can help;
    # budget before the targets: 12 min); the probes take ~1 min.
    step 190 "remote execution (Bazel's sandboxed remote worker; undeclared inputs fail)"
    tests/integration/remote_exec_test.sh
fi

beside_join "$bazel7_tests"

