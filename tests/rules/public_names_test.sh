#!/usr/bin/env bash
# Fails when two current public names of rules_pet's defs.bzl differ only in
# case or underscores (PetPackInfo vs PetpackInfo, pet_pack_golden_test vs
# petpack_golden_test): a reader cannot tell such names apart. The deprecated
# aliases below defs.bzl's "Deprecated aliases" line are left out; each of
# them must name, in its comment, a current name that exists.
#
# Usage: public_names_test.sh DEFS.bzl
set -euo pipefail
defs=${1:?usage: public_names_test.sh DEFS.bzl}

# Top-level `NAME = ...` and `def NAME(` with a public (non-underscore) name.
names() {
    sed -n -e 's/^\([A-Za-z][A-Za-z0-9_]*\) = .*/\1/p' -e 's/^def \([A-Za-z][A-Za-z0-9_]*\)(.*/\1/p'
}
current=$(sed '/^# --- Deprecated aliases/,$d' "$defs" | names)
if [[ -z "$current" ]]; then
    echo "FAIL: no public names found in $defs"
    exit 1
fi
failed=0
clashes=$(for n in $current; do printf '%s %s\n' "$(tr -d _ <<<"$n" | tr '[:upper:]' '[:lower:]')" "$n"; done |
    sort | awk '$1 == prev { print prevname " and " $2 " differ only in case or underscores" } { prev = $1; prevname = $2 }')
if [[ -n "$clashes" ]]; then
    echo "$clashes" | sed "s|^|FAIL: $defs: |"
    failed=1
fi
# Each deprecated alias names its replacement, which must be current.
while read -r old new; do
    if ! grep -qx "$new" <<<"$current"; then
        echo "FAIL: $defs: deprecated $old points to $new, which is not a current public name"
        failed=1
    fi
done < <(sed -n '/^# --- Deprecated aliases/,$p' "$defs" | sed -n 's/^\([A-Za-z][A-Za-z0-9_]*\) = .*# deprecated: \([A-Za-z0-9_]*\)$/\1 \2/p')
if ((failed)); then
    exit 1
fi
echo "PASS: $(wc -w <<<"$current") current public names in $defs, none differing only in case or underscores"
