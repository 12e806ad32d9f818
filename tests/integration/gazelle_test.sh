#!/usr/bin/env bash
# Integration test of the `pet` Gazelle extension (docs/gazelle.md) on a
# copy of this repository: two pet directories are added the way a team
# would (pets/fox: a manifest.petasset and its sprites; pets/tabby: a
# .petpack source tree with frames/<action>/, source/prompt.md and
# petpack.spec), then `bazel run //:gazelle` writes their BUILD files. It
# checks that
#
#   - gazelle changes no BUILD file of the repository itself;
#   - it writes a pet_asset_set for pets/fox and a petpack_set for
#     pets/tabby, and the targets they declare build (the pack, the runtime
#     copy and its test, the C library, the .petpack archive);
#   - a second run changes nothing;
#   - a malformed manifest then makes gazelle warn with FILE:LINE and leave
#     pets/fox/BUILD.bazel byte for byte as it was.
#
# Prints one PASS/FAIL line per check and exits 1 if any failed.
#
# Usage: tests/integration/gazelle_test.sh       (after tools/bazel/setup.sh)
# Environment:
#   RULES_PET_CACHE  cache directory shared with setup.sh (default ~/.cache/rules_pet)
#   DISK_CACHE       Bazel's --disk_cache for the copy (default
#                    $RULES_PET_CACHE/disk-cache, the scratch test's)
#   KEEP_SCRATCH=1   keep the copy and print where it is
set -euo pipefail

# shellcheck source=tests/integration/common.sh
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

WORK=$(mktemp -d "${TMPDIR:-/tmp}/rules_pet_gazelle.XXXXXX")
WS="$WORK/repo"
LOG="$WORK/bazel.log"
cleanup() {
    retire_workspace "$WS"
    if [[ "${KEEP_SCRATCH:-}" == 1 ]]; then
        echo "copy kept: $WS"
    else
        rm -rf "$WORK"
    fi
}
trap cleanup EXIT

copy_checkout "$WS"
echo "build --disk_cache=${DISK_CACHE:-$CACHE/disk-cache}" >"$WS/.bazelrc.user"
# A git repository of its own, so `git status` shows what gazelle changed.
(cd "$WS" && git init -q && git add -A && git -c user.name=t -c user.email=t@t commit -qm copy)

# The pets, made of the repository's own sample files.
mkdir -p "$WS/pets/fox/sprites" "$WS/pets/tabby/source"
cp "$REPO_ROOT/assets/pet/manifest.petasset" "$WS/pets/fox/"
cp "$REPO_ROOT"/assets/pet/sprites/*.png "$WS/pets/fox/sprites/"
cp -R "$REPO_ROOT/assets/petpack/frames" "$WS/pets/tabby/"
cp "$REPO_ROOT/assets/petpack/source/prompt.md" "$WS/pets/tabby/source/"
cat >"$WS/pets/tabby/petpack.spec" <<'SPEC'
display_name = Tabby
style = flat pixel art
quality = low
created_at = 2025-01-01T00:00:00Z
description = A small, round orange tabby cat.
SPEC

run_gazelle() {
    (cd "$WS" && bazel run //:gazelle) >"$LOG" 2>&1
}

if run_gazelle; then
    pass "bazel run //:gazelle with two new pet directories"
else
    fail "bazel run //:gazelle failed"
    tail -n 20 "$LOG" | sed 's/^/    | /'
    exit 1
fi
changed=$(cd "$WS" && git status --porcelain -- '*BUILD.bazel' | grep -v '^?? pets/' || true)
if [[ -z "$changed" ]]; then
    pass "no BUILD file of the repository changed"
else
    fail "gazelle changed the repository's BUILD files:"
    echo "$changed" | sed 's/^/    /'
fi
for want in "pets/fox/BUILD.bazel:pet_asset_set(" "pets/fox/BUILD.bazel:    name = \"fox\"," \
    "pets/fox/BUILD.bazel:        \"sprites/attentive.png\"," \
    "pets/tabby/BUILD.bazel:petpack_set(" "pets/tabby/BUILD.bazel:    name = \"pet_tabby\"," \
    "pets/tabby/BUILD.bazel:    quality = \"low\","; do
    if grep -qxF "${want#*:}" "$WS/${want%%:*}" 2>/dev/null; then
        pass "${want%%:*} has: ${want#*:}"
    else
        fail "${want%%:*} lacks: ${want#*:}"
        sed 's/^/    | /' "$WS/${want%%:*}" 2>/dev/null || true
    fi
done

targets=(//pets/fox:fox_pack //pets/fox:fox_runtime //pets/fox:fox_cc //pets/tabby:pet_tabby)
if (cd "$WS" && bazel build "${targets[@]}") >"$LOG" 2>&1; then
    pass "the generated targets build: ${targets[*]}"
else
    fail "bazel build ${targets[*]} failed"
    tail -n 20 "$LOG" | sed 's/^/    | /'
fi
if (cd "$WS" && bazel test //pets/fox:fox_runtime_test) >"$LOG" 2>&1; then
    pass "//pets/fox:fox_runtime_test passes"
else
    fail "//pets/fox:fox_runtime_test failed"
    tail -n 20 "$LOG" | sed 's/^/    | /'
fi
# The archive is the sample pet's frames and prompt: the same bytes as its
# golden, when the strings are the sample's too (they are not: another
# description), so only its validity is checked here, by the build above.

(cd "$WS" && git add -A && git -c user.name=t -c user.email=t@t commit -qm generated)
if run_gazelle && [[ -z "$(cd "$WS" && git status --porcelain)" ]]; then
    pass "a second gazelle run changes nothing"
else
    fail "a second gazelle run changed: $(cd "$WS" && git status --porcelain | tr '\n' ' ')"
fi

# A malformed manifest: a warning with FILE:LINE, and the BUILD file untouched.
sed -i 's/^anim_idle       sprite_idle 900$/anim_idle       sprite_gone 900/' "$WS/pets/fox/manifest.petasset"
line=$(grep -n sprite_gone "$WS/pets/fox/manifest.petasset" | cut -d: -f1)
if [[ -z "$line" ]]; then
    fail "could not break pets/fox/manifest.petasset (its anim_idle line changed?)"
elif run_gazelle && grep -q "gazelle: pet: pets/fox/manifest.petasset:$line: unresolved_image: " "$LOG" &&
    [[ -z "$(cd "$WS" && git status --porcelain -- pets/fox/BUILD.bazel)" ]]; then
    pass "a malformed manifest: $(grep -o "pets/fox/manifest.petasset:$line: [a-z_]*" "$LOG"), BUILD file unchanged"
else
    fail "a malformed manifest: want a warning pets/fox/manifest.petasset:$line and no change"
    grep 'gazelle: pet' "$LOG" | sed 's/^/    | /' || true
    (cd "$WS" && git diff) | sed 's/^/    | /'
fi

if ((failures)); then
    echo "gazelle_test: $failures check(s) failed"
    exit 1
fi
echo "gazelle_test: all checks passed"
