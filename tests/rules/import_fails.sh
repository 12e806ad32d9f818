#!/usr/bin/env bash
# petpack_import's action fails on an archive it must not import, printing
# the cause, and leaves no archive behind:
#
#   - //tests/rules:import_tampered (one byte of a frame changed) fails with
#     the validator's `SOURCE: PATH: entry_crc_mismatch: ...` line naming the
#     source archive, and the import's line;
#   - //tests/rules:import_wrong_id (a valid archive, the wrong pet_id) fails
#     naming the archive's real ID.
#
# A failing action cannot be a `bazel test` (the test would not build), so
# tools/test.sh runs this script, which builds the two manual targets itself.
#
# Usage: tests/rules/import_fails.sh (from anywhere in the checkout)
set -uo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."
failed=0
bin=$(bazel info bazel-bin 2>/dev/null)

# expect_failure TARGET ARCHIVE WANT...: the build of TARGET fails, its
# output holds every WANT (fixed strings), and ARCHIVE does not exist.
expect_failure() {
    local target=$1 archive=$2 out want
    shift 2
    rm -f "$bin/$archive"
    if out=$(bazel build --noshow_progress "$target" 2>&1); then
        echo "FAIL: bazel build $target succeeded"
        failed=1
        return
    fi
    for want in "$@"; do
        if ! grep -qF -- "$want" <<<"$out"; then
            echo "FAIL: bazel build $target failed without printing: $want"
            echo "$out" | sed 's/^/    /'
            failed=1
            return
        fi
    done
    if [[ -e "$bin/$archive" ]]; then
        echo "FAIL: bazel build $target failed but left $archive"
        failed=1
        return
    fi
    echo "PASS: bazel build $target fails: $(grep -F -- "$1" <<<"$out" | head -1)"
}

expect_failure //tests/rules:import_tampered tests/rules/import_tampered/pet_tabby.petpack \
    "tests/rules/tampered/pet_tabby.petpack: assets/frames/" \
    ": entry_crc_mismatch: " \
    "tests/rules:import_tampered: " \
    "is not a valid .petpack (the validator's errors above); nothing was imported"
expect_failure //tests/rules:import_wrong_id tests/rules/import_wrong_id/pet_other.petpack \
    "holds pet pet_tabby, not pet_id pet_other"
exit "$failed"
