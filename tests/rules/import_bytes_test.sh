#!/usr/bin/env bash
# Checks that each built archive is byte for byte the source petpack_import
# was given.
#
# Usage: import_bytes_test.sh SOURCE BUILT...
set -euo pipefail
src=${1:?usage: import_bytes_test.sh SOURCE BUILT...}
shift
if (($# == 0)); then
    echo "FAIL: no built archive to compare with $src"
    exit 1
fi
failed=0
for got in "$@"; do
    if cmp -- "$src" "$got"; then
        echo "PASS: $got is byte for byte $src ($(wc -c <"$got" | tr -d ' ') bytes)"
    else
        echo "FAIL: $got differs from $src (first difference above)"
        failed=1
    fi
done
exit "$failed"
