# Sourced by tools/bazel/setup.sh and tools/bazel/setup_bazel7.sh: Go modules
# (rules_go, Gazelle) fetched through the Go module proxy, the one registry
# besides Debian's that these machines reach.
#
# The caller defines die() and sets GO (the go command) and GOMOD_WORKDIR (a
# directory outside any Go module: the checkout's go.mod and go.sum are never
# touched).

# go_cmd ARGS...: runs go in GOMOD_WORKDIR, outside any module.
go_cmd() {
    [[ -x "$GO" ]] || die "no go command at $GO (set GO=/path/to/go)"
    (cd "$GOMOD_WORKDIR" && GOWORK=off GOTOOLCHAIN=local GOFLAGS=-mod=mod "$GO" "$@")
}

# module_dir PATH VERSION: downloads the module through the Go module proxy and
# prints its (read-only) directory in the module cache.
module_dir() {
    local json dir
    if ! json=$(go_cmd mod download -json "$1@$2" 2>&1); then
        local err
        err=$(printf '%s\n' "$json" | sed -n 's/^[[:space:]]*"Error": "\(.*\)",\{0,1\}$/\1/p' | sed 's/\\"/"/g')
        die "cannot reach the Go module proxy ($(go_cmd env GOPROXY)) to fetch $1 $2: ${err:-$json}"
    fi
    dir=$(printf '%s\n' "$json" | sed -n 's/^[[:space:]]*"Dir": "\(.*\)",\{0,1\}$/\1/p')
    [[ -n "$dir" && -d "$dir" ]] || die "go mod download printed no directory for $1 $2: $json"
    printf '%s\n' "$dir"
}

# copy_module SRC DEST: a writable copy. Module zips keep no file modes, so the
# scripts that the release archives ship as executable get their x bit back.
copy_module() {
    mkdir -p "$2"
    cp -R "$1/." "$2"
    chmod -R u+w "$2"
    find "$2" -type f \( -name '*.sh' -o -name '*.bash' -o -name '*.py' \) -exec chmod +x {} +
}
