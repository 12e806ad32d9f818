#!/usr/bin/env bash
# The main job on the checked-in assets: set up the offline Bazel stack if
# needed, build the canonical asset set (//assets/...) into a validated
# manifest, a runtime copy, a PETP pack, a cc_library and a Go library, check
# the pack against tests/golden/pet.pack, and print where everything is.
#
# Usage: tools/build.sh
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
export PATH="/usr/local/go/bin:$PATH"

tools/bazel/setup.sh
# The desktop example reads the pack embedded by pet_pack_go_library.
echo "role -> frame schedule from the embedded pack (//examples/_petschedule):"
bazel run -- //examples/_petschedule:petschedule 2>/dev/null | head -n 12
tools/bazel/build_assets.sh
bin=$(bazel info bazel-bin 2>/dev/null)
pack="$bin/assets/pet/assets/pet.pack"
if ! cmp -s "$pack" tests/golden/pet.pack; then
    echo "FAIL: bazel-bin/assets/pet/assets/pet.pack differs from tests/golden/pet.pack" >&2
    exit 1
fi
echo "pack is byte-identical to tests/golden/pet.pack ($(wc -c <"$pack") bytes)"
