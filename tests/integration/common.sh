# Sourced by the integration scripts beside it: the repository root, the
# pass/fail tally they report at the end, and the offline Bazel stack they
# run (set up once if this checkout has none yet).
# shellcheck shell=bash

REPO_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
# The cache directory tools/bazel/setup.sh fills (the offline repositories).
CACHE=${RULES_PET_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/rules_pet}
failures=0
pass() { echo "PASS: $*"; }
fail() {
    echo "FAIL: $*"
    failures=$((failures + 1))
}

[[ -f "$REPO_ROOT/.bazelrc.offline" ]] || "$REPO_ROOT/tools/bazel/setup.sh" >/dev/null

# retire_workspace DIR: stops DIR's Bazel server and, unless KEEP_SCRATCH=1,
# deletes its output base. Every checkout at a new path gets an output base of
# its own under ~/.cache/bazel (a few GiB: the Go SDK, modernc's sources, the
# outputs); left behind, one run's scripts filled a CI machine's disk.
retire_workspace() {
    [[ -d "$1" ]] || return 0
    if [[ "${KEEP_SCRATCH:-}" == 1 ]]; then
        (cd "$1" && bazel shutdown >/dev/null 2>&1) || true
    else
        (cd "$1" && bazel clean --expunge >/dev/null 2>&1) || true
    fi
}

# copy_checkout DEST: copies what git would commit now (tracked and
# unignored files) to DEST, plus this machine's offline overrides, so that a
# second checkout at another path holds the same bytes.
copy_checkout() {
    mkdir -p "$1"
    # One tar pipe: a cp per file takes minutes on a loaded two-core machine.
    (cd "$REPO_ROOT" && git ls-files -z --cached --others --exclude-standard |
        while IFS= read -r -d '' f; do
            if [[ -f "$f" ]]; then printf '%s\0' "$f"; fi
        done | tar --null -T - -cf -) | tar -xpf - -C "$1"
    cp "$REPO_ROOT/.bazelrc.offline" "$1/"
    repo_cache_rc "$1.gazelle_tools" >>"$1/.bazelrc.offline"
    sandbox_rc >>"$1/.bazelrc.offline"
}

# sandbox_rc: the bazelrc line that puts the sandbox's exec roots where
# tools/test.sh found a tmpfs (RULES_PET_SANDBOX_BASE), or nothing. Bazel
# names each output base's directory there apart, and the symlink trees
# cost the kernel less on tmpfs than on the disk; no output changes.
sandbox_rc() {
    if [[ -n "${RULES_PET_SANDBOX_BASE:-}" ]]; then
        echo "build --sandbox_base=$RULES_PET_SANDBOX_BASE"
    fi
}

# repo_cache_rc DIR: bazelrc lines that let a new output base skip what its
# repository rules would redo from scratch: Gazelle's go_repository tools
# (copied from this checkout's output base to DIR, and overridden there), and
# the Go module downloads (the host's module and build caches). Each new
# output base otherwise compiles those tools again, which takes 40 s on an
# idle machine and exceeded Gazelle's 10-minute limit on a loaded one. Only
# repository rules see either; no action does.
repo_cache_rc() {
    local ob tools=bazel_gazelle_go_repository_tools
    ob=$(cd "$REPO_ROOT" && bazel info output_base 2>/dev/null)
    if [[ ! -x "$ob/external/$tools/bin/fetch_repo" ]]; then
        (cd "$REPO_ROOT" && bazel fetch "@$tools//:fetch_repo" >/dev/null 2>&1) ||
            { echo "cannot fetch @$tools in $REPO_ROOT" >&2; return 1; }
    fi
    mkdir -p "$1"
    cp -R "$ob/external/$tools/bin" "$ob/external/$tools/BUILD.bazel" "$ob/external/$tools/ROOT" "$1/"
    echo "workspace(name = \"$tools\")" >"$1/WORKSPACE"
    echo "common --override_repository=$tools=$1"
    echo "common --repo_env=GO_REPOSITORY_USE_HOST_CACHE=1"
}
# free_port: prints a TCP port on 127.0.0.1 that nothing listens on now.
free_port() {
    python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

# wait_for_port PORT PID WHAT: waits up to 60 s until 127.0.0.1:PORT accepts
# connections; fails if process PID exits first.
wait_for_port() {
    local i
    for ((i = 0; i < 600; i++)); do
        if (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; then
            return 0
        fi
        kill -0 "$2" 2>/dev/null || { echo "$3 exited before listening on 127.0.0.1:$1" >&2; return 1; }
        sleep 0.1
    done
    echo "$3 did not listen on 127.0.0.1:$1 within 60 s" >&2
    return 1
}

# seed_toolchain WS: builds in WS the petasset toolchain (the execution
# configuration, as the pet rules use it) and the Go targets outside
# //assets that //assets/... depends on, from SEED_DISK_CACHE (default: the
# disk cache of tools/test.sh's main workspace, $CACHE/disk-cache; empty:
# built cold), never from a cache a script is testing. Those are rules_go's
# compilations (the Go standard library, modernc's SQLite, petasset), the
# same in every checkout; compiled cold they took most of each checkout's
# time. No pet rule runs (no target of //assets is in the list), so what a
# script then proves about the pet actions (and tests) is unchanged: Bazel
# finds the seeded outputs up to date and runs, fetches or uploads only the
# rest. The caller's $WORK keeps the query's answer and the log.
seed_toolchain() {
    local start=$SECONDS
    if [[ ! -s "$WORK/seed.targets" ]]; then
        (cd "$1" && bazel query --output=label \
            'kind("go_library|go_binary", deps(//assets/...)) except //assets/...') >"$WORK/seed.targets" 2>"$WORK/seed.log" ||
            { fail "$1: bazel query of the seed targets failed"; tail -n 20 "$WORK/seed.log" | sed 's/^/    | /'; return 1; }
    fi
    if ! (cd "$1" && bazel build --disk_cache="${SEED_DISK_CACHE-$CACHE/disk-cache}" \
        //rules/toolchain:petasset_from_source $(cat "$WORK/seed.targets")) >"$WORK/seed.log" 2>&1; then
        fail "$1: bazel build of the toolchain and $(wc -l <"$WORK/seed.targets") Go targets failed"
        tail -n 20 "$WORK/seed.log" | sed 's/^/    | /'
        return 1
    fi
    echo "$1: toolchain and $(wc -l <"$WORK/seed.targets") Go targets from the seed cache in $((SECONDS - start)) s ($(grep -o '[0-9]* processes:.*' "$WORK/seed.log" | tail -n 1))"
}
