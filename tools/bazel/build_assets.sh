#!/usr/bin/env bash
# Builds the canonical asset sets (//assets/...) and prints where each form of
# them is: the runtime copy, the pack, the cc_library's header and archive,
# the Go library, and the sample pet's .petpack. Meant as the last step of the README's set-up command.
#
# Usage: tools/bazel/build_assets.sh [bazel build flags...]
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."

if ! bazel build "$@" //assets/...; then
    echo "FAIL: bazel build //assets/..." >&2
    exit 1
fi
bin=$(bazel info "$@" bazel-bin 2>/dev/null)

missing=0
show() {
    local what=$1 path=$2
    if [[ -e "$bin/$path" ]]; then
        printf '  %-34s %s\n' "$what" "bazel-bin/$path"
    else
        printf '  %-34s MISSING: %s\n' "$what" "bazel-bin/$path"
        missing=1
    fi
}
echo "built //assets/pet (bazel-bin -> $bin):"
show "runtime copy (pet_runtime_assets)" assets/pet/assets/pet/manifest.petasset
show "" assets/pet/assets/pet/sprites
show "pack (pet_asset_pack)" assets/pet/assets/pet.pack
show "cc_library //assets/pet:pack_cc" assets/pet/pack_cc.h
show "" assets/pet/libpack_cc.a
show "go_library //assets/pet:pack_go" assets/pet/pack_go_src.go
echo "built //assets/petpack:"
show ".petpack V3 (petpack_archive)" assets/petpack/pet_tabby.petpack
exit "$missing"
