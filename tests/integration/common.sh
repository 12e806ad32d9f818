# Sourced by the integration scripts beside it: the repository root, the
# pass/fail tally they report at the end, and the offline Bazel stack they
# run (set up once if this checkout has none yet).
# shellcheck shell=bash

REPO_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
failures=0
pass() { echo "PASS: $*"; }
fail() {
    echo "FAIL: $*"
    failures=$((failures + 1))
}

[[ -f "$REPO_ROOT/.bazelrc.offline" ]] || "$REPO_ROOT/tools/bazel/setup.sh" >/dev/null
