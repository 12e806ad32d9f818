#!/usr/bin/env bash
# Bazel's HTTP remote cache, served by Debian's nginx (WebDAV PUT) on
# 127.0.0.1 with tests/integration/nginx_cache.conf:
#
#   0. Both checkouts first build the petasset toolchain and the Go targets
#      outside //assets that //assets/... depends on from the run's disk
#      cache, without the HTTP cache (seed_toolchain in common.sh): rules_go's
#      compilations of the Go standard library, modernc's SQLite and
#      petasset, the same in every checkout, which took most of A's cold
#      time (167 s of a 2-core machine's cold run); the Go compilations of
#      //assets/... itself still go through nginx.
#   1. Checkout A (a copy of this tree) builds the named target set,
#      //assets/... and the petasset toolchain (every pet rule's actions, the
#      pack's C and Go libraries and the golden and runtime-copy tests),
#      without targets tagged no-remote, with --remote_cache and no disk
#      cache, executing its actions and uploading their results. The rest of
#      //... (the tools' own Go tests, the examples) adds Go compilations
#      the same cache path already carries, not another kind of action, and
#      took most of this phase's cold time; RULES_PET_REMOTE_CACHE_TARGETS
#      names another set (e.g. "//...").
#   2. Checkout B, the same bytes at another path with a new, empty output
#      base, builds the same set: every spawn in its execution log is a
#      remote cache hit and Bazel's summary names no local strategy. Every
#      output under bazel-bin/assets is byte-identical to A's.
#   3. B, cleaned (and its toolchain seeded again), passes `bazel test` of
#      the named set with --remote_download_minimal.
#   4. The cache goes away mid-build: A rebuilds after a sprite and a frame
#      changed, and nginx is stopped once its access log shows 3 more
#      uploads. The build still succeeds (the rest runs and stays local, with
#      Bazel's warnings), and B, with the same change and nginx back, builds
#      byte-identical outputs.
#
# The builds with the HTTP cache use no --disk_cache: Bazel 4.2.3 answers a
# lookup from the disk cache without uploading to the HTTP cache
# (DiskAndRemoteCacheClient), so a warm disk cache would leave nginx empty.
# The seed builds (step 0) use the disk cache and no HTTP cache; what they
# built is up to date in each output base, so it is neither uploaded nor
# fetched, and the counts below are of the rest. SEED_DISK_CACHE= seeds cold.
# Prints PASS/FAIL lines and the hit counts; exits 1 on any failure.
#
# Usage: tests/integration/remote_cache_test.sh    (after tools/bazel/setup.sh)
#   KEEP_SCRATCH=1 keeps the checkouts and the cache root, and prints where.
set -euo pipefail

# shellcheck source=tests/integration/common.sh
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

command -v nginx >/dev/null || { echo "FAIL: no nginx on PATH (tools/bazel/setup.sh installs Debian's nginx)"; exit 1; }

WORK=$(mktemp -d "${TMPDIR:-/tmp}/rules_pet_remote_cache.XXXXXX")
A="$WORK/checkout-a"
B="$WORK/elsewhere/checkout-b"
NGINX_ROOT="$WORK/nginx"
NGINX_PID=
cleanup() {
    local ws
    stop_nginx
    for ws in "$A" "$B"; do
        retire_workspace "$ws"
    done
    if [[ "${KEEP_SCRATCH:-}" == 1 ]]; then
        echo "kept: $WORK"
    else
        rm -rf "$WORK"
    fi
}
trap cleanup EXIT

# start_nginx: serves $NGINX_ROOT/cache on a free port (the same root on a
# restart, so entries already uploaded stay).
start_nginx() {
    local user=
    # A root master starts its workers as www-data, which cannot write the
    # 0700 temporary root of this test.
    [[ $(id -u) -ne 0 ]] || user='user root;'
    PORT=$(free_port)
    mkdir -p "$NGINX_ROOT/cache"
    sed -e "s|@ROOT@|$NGINX_ROOT|g" -e "s|@PORT@|$PORT|g" -e "s|@USER@|$user|g" \
        "$REPO_ROOT/tests/integration/nginx_cache.conf" >"$NGINX_ROOT/nginx.conf"
    nginx -p "$NGINX_ROOT" -e "$NGINX_ROOT/error.log" -c "$NGINX_ROOT/nginx.conf" &
    NGINX_PID=$!
    wait_for_port "$PORT" "$NGINX_PID" nginx
    CACHE_URL="http://127.0.0.1:$PORT"
}
stop_nginx() {
    if [[ -n "$NGINX_PID" ]]; then
        kill "$NGINX_PID" 2>/dev/null || true
        wait "$NGINX_PID" 2>/dev/null || true
        NGINX_PID=
    fi
}
# uploads: the successful PUTs in nginx's access log so far.
uploads() {
    grep -cE '"PUT [^"]*" (200|201|204) ' "$NGINX_ROOT/access.log" 2>/dev/null || true
}

copy_checkout "$A"
mkdir -p "$(dirname "$B")"
cp -R "$A" "$B"
seed_toolchain "$A"
seed_toolchain "$B"
start_nginx
echo "nginx serves $NGINX_ROOT/cache at $CACHE_URL (pid $NGINX_PID)"

# The named set: what a team using the rules shares through the cache (the
# pet assets and the toolchain that builds them). The toolchain's label
# builds petasset in the execution configuration, as the pet rules do.
read -r -a NAMED <<<"${RULES_PET_REMOTE_CACHE_TARGETS:-//assets/... //rules/toolchain:petasset_from_source}"
TARGETS=(--build_tag_filters=-no-remote --test_tag_filters=-no-remote -- "${NAMED[@]}")

# run_bazel WS NAME ARGS...: bazel ARGS in WS with the HTTP cache and no
# disk cache (overriding any .bazelrc.user), its output in $WORK/NAME.log;
# prints the wall time and Bazel's process summary.
run_bazel() {
    local ws=$1 name=$2 start rc=0
    shift 2
    start=$(date +%s.%N)
    (cd "$ws" && bazel "$1" --remote_cache="$CACHE_URL" --disk_cache= "${@:2}") >"$WORK/$name.log" 2>&1 || rc=$?
    printf '%s: bazel %s in %.1f s (%s)\n' "$name" "$1" "$(echo "$(date +%s.%N) - $start" | bc)" \
        "$(grep -o '[0-9]* processes:.*' "$WORK/$name.log" | tail -n 1)"
    return $rc
}
show_log() { tail -n "${2:-25}" "$WORK/$1.log" | sed 's/^/    | /'; }

# outputs_digest WS: "sha256 path" of every file under bazel-bin/assets.
list_outputs() {
    (cd "$1/bazel-bin/assets" && find . -type f ! -name '*.params' ! -path '*.runfiles*' \
        ! -name '*runfiles_manifest' -print0 | sort -z | xargs -0 sha256sum)
}
compare_outputs() {
    local what=$1 n
    list_outputs "$A" >"$WORK/outputs-a"
    list_outputs "$B" >"$WORK/outputs-b"
    n=$(wc -l <"$WORK/outputs-a")
    if ((n > 0)) && cmp -s "$WORK/outputs-a" "$WORK/outputs-b"; then
        pass "$what: all $n outputs under bazel-bin/assets are byte-identical in A and B"
    else
        fail "$what: outputs under bazel-bin/assets differ between A and B:"
        diff "$WORK/outputs-a" "$WORK/outputs-b" | head -n 10 | sed 's/^/    /' || true
    fi
}

# 1. A fills the cache.
if run_bazel "$A" "A (empty cache)" build "${TARGETS[@]}"; then
    a_uploads=$(uploads)
    if ((a_uploads > 0)); then
        pass "A built the named set and uploaded $a_uploads entries to nginx"
    else
        fail "A built the named set but nginx received no upload"
    fi
else
    fail "A: bazel build failed"
    show_log "A (empty cache)"
fi
if grep -q 'WARNING: .*[Rr]emote [Cc]ache' "$WORK/A (empty cache).log"; then
    fail "A: Bazel warned about the remote cache (an upload was lost):"
    grep 'WARNING: .*[Rr]emote [Cc]ache' "$WORK/A (empty cache).log" | head -n 5 | sed 's/^/    /'
fi

# 2. B, at another path with an empty output base, from the cache alone.
if run_bazel "$B" "B (other path)" build --execution_log_json_file="$WORK/b.json" "${TARGETS[@]}"; then
    read -r spawns hits < <(python3 "$REPO_ROOT/tests/integration/execlog.py" "$WORK/b.json")
    summary=$(grep -o '[0-9]* processes:.*' "$WORK/B (other path).log" | tail -n 1)
    if ((spawns > 0 && hits == spawns)) && ! grep -Eq 'linux-sandbox|processwrapper-sandbox|local|worker' <<<"$summary"; then
        pass "B, at another path with an empty output base: $hits of $spawns spawns were remote cache hits, none ran locally ($summary)"
    else
        fail "B: $hits of $spawns spawns were remote cache hits ($summary); executed:"
        head -n 10 "$WORK/b.json.executed" | cut -c1-200 | sed 's/^/    /'
    fi
    compare_outputs "the named set"
else
    fail "B: bazel build failed"
    show_log "B (other path)"
fi

# 3. B, cleaned, passes the tests without downloading what they do not need.
(cd "$B" && bazel clean >/dev/null 2>&1)
seed_toolchain "$B"
if run_bazel "$B" "B (tests, minimal download)" test --remote_download_minimal "${TARGETS[@]}"; then
    pass "B passes bazel test ${NAMED[*]} with --remote_download_minimal ($(grep -o 'Executed [0-9]* out of .*' "$WORK/B (tests, minimal download).log" | tail -n 1))"
else
    fail "B: bazel test ${NAMED[*]} with --remote_download_minimal failed"
    show_log "B (tests, minimal download)" 40
fi

# 4. The cache goes away mid-build. The same change in A and B: a sprite of
# the pack and a frame of the sample pet (as in cache_test.sh).
change() {
    cp "$1/assets/pet/sprites/attentive.png" "$1/assets/pet/sprites/curious.png"
    cp "$1/assets/petpack/frames/idle/0005.png" "$1/assets/petpack/frames/idle/0001.png"
}
change "$A"
change "$B"
STOP_AFTER=3
before=$(uploads)
(
    while (($(uploads) < before + STOP_AFTER)); do sleep 0.05; done
    kill "$NGINX_PID"
    date +%s.%N >"$WORK/nginx-stopped"
) &
watcher=$!
if run_bazel "$A" "A (cache stopped mid-build)" build "${TARGETS[@]}"; then
    a_ok=1
else
    a_ok=0
fi
if [[ -f "$WORK/nginx-stopped" ]]; then
    wait "$watcher" || true
    wait "$NGINX_PID" 2>/dev/null || true
    NGINX_PID=
    lost=$(grep -c 'WARNING: .*[Rr]emote [Cc]ache' "$WORK/A (cache stopped mid-build).log" || true)
    if ((a_ok && lost > 0)); then
        pass "nginx stopped after $STOP_AFTER uploads of A's rebuild, and A's build still succeeded locally ($lost remote cache warnings, e.g. $(grep -o 'WARNING: .*[Rr]emote [Cc]ache.*' "$WORK/A (cache stopped mid-build).log" | head -n 1 | cut -c1-120))"
    elif ((a_ok)); then
        fail "nginx was stopped after $STOP_AFTER uploads but A's build met no failed cache access: the fault came too late to test anything"
    else
        fail "A's build failed when the cache went away"
        show_log "A (cache stopped mid-build)"
    fi
else
    kill "$watcher" 2>/dev/null || true
    wait "$watcher" 2>/dev/null || true
    fail "A's rebuild made fewer than $STOP_AFTER uploads ($(($(uploads) - before))): the cache was never stopped"
fi
start_nginx
if run_bazel "$B" "B (same change, cache back)" build "${TARGETS[@]}"; then
    compare_outputs "after the cache went away mid-build"
else
    fail "B: bazel build with the changed sprite and frame failed"
    show_log "B (same change, cache back)"
fi

if ((failures)); then
    echo "FAIL: remote cache: $failures check(s) failed"
    exit 1
fi
echo "PASS: remote cache"
