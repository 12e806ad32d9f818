#!/usr/bin/env bash
# Applies each break of a list to a temporary copy of the working tree, runs
# the test that claims to guard the broken rule, and reports the breaks the
# test does not notice ("survived"). Run by hand, not in CI: each break is
# one test run (a browser break takes minutes on a loaded machine).
#
#   tests/mutants/run.sh [-k PATTERN] [LIST]     LIST: default tests/mutants/breaks.sh
#
# LIST is a bash file of lines
#   brk NAME FILE SED-EXPRESSION COMMAND
# FILE is relative to the repository root; SED-EXPRESSION is applied with
# `sed -E -i` and must change FILE (a break that no longer applies is
# reported as stale, so the list cannot rot silently); COMMAND runs with
# bash in the copy's root and must fail. -k runs only the breaks whose name
# matches PATTERN (grep -E). The copy holds the tracked and untracked,
# not ignored, files of the working tree, so uncommitted tests count.
#
# Ends with "mutants: N killed, N survived, N stale" and exits non-zero
# unless every break was killed.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
pattern=
if [[ ${1:-} == -k ]]; then
    pattern=${2:?-k needs a pattern}
    shift 2
fi
list=${1:-$root/tests/mutants/breaks.sh}
[[ -f $list ]] || { echo "mutants: no list $list" >&2; exit 2; }

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
killed=0 survived=0 stale=0
declare -a survivors=()

brk() { # NAME FILE SED COMMAND
    local name=$1 file=$2 expr=$3 cmd=$4
    [[ $# -eq 4 ]] || { echo "mutants: brk $name: want 4 arguments, got $#" >&2; exit 2; }
    if [[ -n $pattern ]] && ! grep -qE -- "$pattern" <<<"$name"; then
        return
    fi
    local copy=$work/$name
    mkdir -p "$copy"
    (cd "$root" && git ls-files -co --exclude-standard -z | tar --null -T - -cf -) | tar -xf - -C "$copy"
    if [[ ! -f $copy/$file ]]; then
        echo "STALE     $name: $file does not exist"
        stale=$((stale + 1))
        rm -rf "$copy"
        return
    fi
    cp "$copy/$file" "$work/original"
    sed -E -i -- "$expr" "$copy/$file"
    if cmp -s "$copy/$file" "$work/original"; then
        echo "STALE     $name: the expression changes nothing in $file"
        stale=$((stale + 1))
        rm -rf "$copy"
        return
    fi
    local start=$SECONDS log=$work/$name.log
    if (cd "$copy" && bash -c "$cmd") >"$log" 2>&1; then
        echo "SURVIVED  $name ($((SECONDS - start)) s): $cmd"
        survived=$((survived + 1))
        survivors+=("$name")
    else
        echo "killed    $name ($((SECONDS - start)) s)"
        killed=$((killed + 1))
    fi
    rm -rf "$copy"
}

# shellcheck source=tests/mutants/breaks.sh
source "$list"
echo "mutants: $killed killed, $survived survived, $stale stale"
if [[ ${#survivors[@]} -gt 0 ]]; then
    echo "survivors: ${survivors[*]}"
fi
[[ $survived -eq 0 && $stale -eq 0 ]]
