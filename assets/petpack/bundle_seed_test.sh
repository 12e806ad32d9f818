#!/bin/sh
# The bundle's seed binary against a fresh store: first run installs the
# sample pet as bundled, a rerun leaves it alone, and a --from directory
# with a file outside the inventory refuses the whole seed.
set -eu
seed="$1"
root="${TEST_TMPDIR:-$(mktemp -d)}/store"

out=$("$seed" --root "$root")
echo "$out"
case "$out" in *"pet_tabby: installed, revision 1"*) ;; *) echo "FAIL: first seed did not install pet_tabby" >&2; exit 1 ;; esac

out=$("$seed" --root "$root")
case "$out" in *"pet_tabby: unchanged, revision 1"*) ;; *) echo "FAIL: second seed was not a no-op: $out" >&2; exit 1 ;; esac

from="${TEST_TMPDIR:-$(mktemp -d)}/from"
mkdir -p "$from"
echo extra > "$from/notes.txt"
if "$seed" --root "$root" --from "$from" 2>"$from.err"; then
    echo "FAIL: a directory with an extra file was seeded" >&2
    exit 1
fi
grep -q "not in the bundled inventory" "$from.err" || { cat "$from.err" >&2; exit 1; }
echo PASS
