#!/usr/bin/env bash
# Runs every test of rules_pet: formatting and vet, the Go tests on the
# machine's Go and on Go 1.19 (the Go Bazel compiles with here), bounded fuzz
# runs over the checked-in seeds, and the Bazel tests.
#
# Usage: tools/test.sh            FUZZTIME=30s tools/test.sh   (default 20s per target)
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
FUZZTIME=${FUZZTIME:-20s}
step() { printf '\n== %s\n' "$*"; }

step "offline toolchain set-up"
tools/bazel/setup.sh
GO119=/usr/lib/go-1.19/bin/go

step "gofmt"
unformatted=$(gofmt -l $(git ls-files '*.go'))
if [[ -n "$unformatted" ]]; then
    echo "gofmt would change:" >&2
    echo "$unformatted" >&2
    exit 1
fi

step "go vet"
go vet ./...

step "go test (Go 1.19)"
"$GO119" version
GOTOOLCHAIN=local "$GO119" test ./...

step "fuzz ($FUZZTIME each)"
go test -run='^$' -fuzz='^FuzzParse$' -fuzztime="$FUZZTIME" ./runtime/manifest
go test -run='^$' -fuzz='^FuzzRead$' -fuzztime="$FUZZTIME" ./runtime/pack

step "go test ($(go version | cut -d' ' -f3))"
go test ./...
