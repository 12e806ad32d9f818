#!/usr/bin/env bash
# Builds the canonical pet asset set (assets/pet) the way a user's build
# would, and prints where the outputs are: the validated manifest, the
# runtime copy, the PETP pack and its summary.
#
# Usage: tools/build.sh
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
export PATH="/usr/local/go/bin:$PATH"

out=build
mkdir -p "$out/assets"
go build -o "$out/petasset" ./tools/cmd/petasset
"$out/petasset" manifest check assets/pet/manifest.petasset
"$out/petasset" pack build --manifest assets/pet/manifest.petasset --out "$out/assets/pet.pack"
"$out/petasset" pack verify "$out/assets/pet.pack"
if cmp -s "$out/assets/pet.pack" tests/golden/pet.pack; then
    echo "pack: $out/assets/pet.pack (byte-identical to tests/golden/pet.pack)"
else
    echo "pack: $out/assets/pet.pack DIFFERS from tests/golden/pet.pack:" >&2
    "$out/petasset" pack diff "$out/assets/pet.pack" tests/golden/pet.pack >&2 || true
    exit 1
fi
