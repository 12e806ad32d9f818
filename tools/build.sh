#!/usr/bin/env bash
# The main job on the checked-in assets: set up the offline Bazel stack if
# needed, build the canonical asset set (//assets/...) into a validated
# manifest, a runtime copy, a PETP pack, a cc_library and a Go library, check
# the pack against tests/golden/pet.pack, build the sample desktop pet
# (//assets/petpack) into a validated .petpack checked against its golden,
# and print where everything is.
#
# Usage: tools/build.sh
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
export PATH="/usr/local/go/bin:$PATH"

tools/bazel/setup.sh
# The desktop example reads the pack embedded by pet_asset_pack_go_library.
echo "role -> frame schedule from the embedded pack (//examples/_petschedule):"
# Quiet Bazel, but never hide its errors: a failure prints them and stops.
quiet=(--noshow_progress --show_result=0 --ui_event_filters=-info,-stdout,-debug)
bazel run "${quiet[@]}" -- //examples/_petschedule:petschedule
tools/bazel/build_assets.sh
bin=$(bazel info bazel-bin 2>/dev/null)
pack="$bin/assets/pet/assets/pet.pack"
if ! cmp -s "$pack" tests/golden/pet.pack; then
    echo "FAIL: bazel-bin/assets/pet/assets/pet.pack differs from tests/golden/pet.pack" >&2
    exit 1
fi
echo "pack is byte-identical to tests/golden/pet.pack ($(wc -c <"$pack") bytes)"
# The sample desktop pet: the archive petpack_archive validated as it wrote
# it, checked again by the CLI an app-side engineer would run, and against
# its golden.
petpack="$bin/assets/petpack/pet_tabby.petpack"
bazel run "${quiet[@]}" -- //tools/cmd/petasset petpack verify "$petpack"
if ! cmp -s "$petpack" assets/petpack/pet_tabby.petpack.golden; then
    echo "FAIL: bazel-bin/assets/petpack/pet_tabby.petpack differs from assets/petpack/pet_tabby.petpack.golden" >&2
    exit 1
fi
echo "petpack is byte-identical to assets/petpack/pet_tabby.petpack.golden ($(wc -c <"$petpack") bytes)"
