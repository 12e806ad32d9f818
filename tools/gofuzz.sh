#!/usr/bin/env bash
# A bounded Go fuzz run: go test -run='^$' -fuzz='^TARGET$' -fuzztime=DURATION.
#
# Go's coordinator can end a duration-bounded run with a bare "context
# deadline exceeded" and no input written when a worker is starved at the
# deadline (golang/go#75804, fixed only in Go 1.27; seen here under load).
# A finding always writes PKG/testdata/fuzz/TARGET/<hash>, so a failure
# with that message and no new file there is rerun once; any other
# failure, or the same one twice, is the run's result.
#
# Usage: tools/gofuzz.sh DURATION TARGET PKG [go test flags...]
set -euo pipefail
duration=$1 target=$2 pkg=$3
shift 3
for attempt in 1 2; do
    out=$(mktemp)
    rc=0
    go test -run='^$' -fuzz="^$target\$" -fuzztime="$duration" "$@" "$pkg" 2>&1 | tee "$out" || rc=$?
    if ((rc == 0)); then
        rm -f "$out"
        exit 0
    fi
    if ((attempt == 1)) && grep -q '^    context deadline exceeded$' "$out" &&
        [[ -z "$(git status --porcelain --untracked-files=all -- "$pkg/testdata/fuzz/$target")" ]]; then
        echo "gofuzz: $target: Go's deadline race (golang/go#75804), no input written; running it again"
        rm -f "$out"
        continue
    fi
    rm -f "$out"
    exit "$rc"
done
