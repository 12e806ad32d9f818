#!/usr/bin/env bash
# Integration test of rules_pet as a Bzlmod user meets it, on Bazel 7.7.1
# (tools/bazel/bazel7): a workspace outside the repository whose MODULE.bazel
# is the README's snippet, with rules_pet resolved to the release archive
# (`bazel build //release:archive`) by an archive_override: the offline
# stand-in for the registry. It checks that
#
#   - the whole-pet macros build both kinds of pet: pets/fox (pet_asset_set)
#     and pets/tabby (petpack_set), and their tests pass;
#   - Gazelle v0.39.1 with the pet extension (@rules_pet//gazelle) writes a
#     new pet's targets (pets/otter: a pet_asset_set) that build, changes
#     nothing outside pets/, and nothing at all on a second run.
#
# Prints one PASS/FAIL line per check and exits 1 if any failed.
#
# Usage: tests/integration/bzlmod_test.sh   (after tools/bazel/setup_bazel7.sh)
#   KEEP_SCRATCH=1   keep the workspace and print where it is
set -euo pipefail

# shellcheck source=tests/integration/common.sh
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"
bazel7="$REPO_ROOT/tools/bazel/bazel7"

WORK=$(mktemp -d "${TMPDIR:-/tmp}/rules_pet_bzlmod.XXXXXX")
WS="$WORK/ws"
DIST="$WORK/dist"
LOG="$WORK/bazel.log"
mkdir -p "$WS" "$DIST"
# The archive lies outside the workspace: the Bazel 7 root must see it.
export RULES_PET_BAZEL7_MOUNTS="$DIST"
b7() { (cd "$WS" && "$bazel7" "$@") >"$LOG" 2>&1; }
cleanup() {
    if [[ "${KEEP_SCRATCH:-}" == 1 ]]; then
        (cd "$WS" && "$bazel7" shutdown >/dev/null 2>&1) || true
        echo "workspace kept: $WS"
    else
        # The output base is a few GiB; it goes with the workspace.
        (cd "$WS" && "$bazel7" clean --expunge >/dev/null 2>&1) || true
        rm -rf "$WORK"
    fi
}
trap cleanup EXIT
show_log() { tail -n 25 "$LOG" | sed 's/^/    | /'; }

# The release archive, as `bazel build //release:archive` writes it.
# built_file TARGET SUFFIX: the path of TARGET's output ending in SUFFIX,
# from the `bazel build --show_result` output in $LOG.
built_file() {
    sed -n "/^Target ${1//\//\\/} up-to-date:/,/^[^ ]/p" "$LOG" | sed -n 's/^  \(\/.*\)$/\1/p' |
        grep -F -- "$2" | head -n 1
}
archive=
if (cd "$REPO_ROOT" && "$bazel7" build --show_result=10 //release:archive) >"$LOG" 2>&1; then
    archive=$(built_file //release:archive .tar.gz)
fi
if [[ ! -f "$archive" ]]; then
    fail "bazel build //release:archive"
    show_log
    exit 1
fi
cp "$archive" "$DIST/"
archive="$DIST/${archive##*/}"
version=$(sed -n 's/^    version = "\(.*\)",$/\1/p' "$REPO_ROOT/MODULE.bazel" | head -n 1)
integrity="sha256-$(openssl dgst -sha256 -binary "$archive" | base64 -w0)"

# MODULE.bazel: the README's snippet, its local_path_override swapped for the
# archive (what a registry entry would give), plus Gazelle for the user's
# own //:gazelle (docs/gazelle.md).
snippet=$(sed -n '/<!-- module-snippet:begin/,/<!-- module-snippet:end/p' "$REPO_ROOT/README.md" |
    sed -n '/^```starlark$/,/^```$/p' | sed '1d;$d')
if [[ -z "$snippet" ]] || ! grep -q 'bazel_dep(name = "rules_pet"' <<<"$snippet"; then
    fail "README.md has no module-snippet block with a bazel_dep on rules_pet"
    exit 1
fi
{
    echo 'module(name = "bzlmod_user")'
    echo
    # Everything but the snippet's local_path_override(...) call.
    awk '/^local_path_override\(/ { skip = 1 } !skip { print } skip && /^\)/ { skip = 0 }' <<<"$snippet"
    cat <<EOF

archive_override(
    module_name = "rules_pet",
    integrity = "$integrity",
    strip_prefix = "rules_pet-$version",
    urls = ["file://$archive"],
)

bazel_dep(name = "gazelle", version = "0.39.1", repo_name = "bazel_gazelle")
EOF
} >"$WS/MODULE.bazel"
cat >"$WS/BUILD.bazel" <<'EOF'
load("@bazel_gazelle//:def.bzl", "gazelle", "gazelle_binary")

gazelle_binary(
    name = "gazelle_bin",
    languages = ["@rules_pet//gazelle"],
)

gazelle(
    name = "gazelle",
    gazelle = ":gazelle_bin",
)
EOF
# Bazel 7's quiet sandbox, as this repository's .bazelrc has it, and Bzlmod
# only (Bazel 8's default): with WORKSPACE mode on and no WORKSPACE file,
# Bazel 7 adds its WORKSPACE suffix, whose http_archives (bazel_skylib's
# toolchains) need GitHub.
printf '%s\n' 'build --spawn_strategy=processwrapper-sandbox' 'common --noenable_workspace' >"$WS/.bazelrc"

# The two kinds of pet, each with its whole-pet macro, from the repository's
# sample files.
mkdir -p "$WS/pets/fox/sprites" "$WS/pets/tabby/source"
cp "$REPO_ROOT/assets/pet/manifest.petasset" "$WS/pets/fox/"
cp "$REPO_ROOT"/assets/pet/sprites/*.png "$WS/pets/fox/sprites/"
cat >"$WS/pets/fox/BUILD.bazel" <<'EOF'
load("@rules_pet//rules:defs.bzl", "pet_asset_set")

pet_asset_set(
    name = "fox",
    images = glob(["sprites/*.png"]),
    manifest = "manifest.petasset",
)
EOF
cp -R "$REPO_ROOT/assets/petpack/frames" "$WS/pets/tabby/"
cp "$REPO_ROOT/assets/petpack/source/prompt.md" "$WS/pets/tabby/source/"
cat >"$WS/pets/tabby/BUILD.bazel" <<'EOF'
load("@rules_pet//rules:defs.bzl", "petpack_set")

petpack_set(
    name = "pet_tabby",
    created_at = "2025-01-01T00:00:00Z",
    description = "A small, round orange tabby cat.",
    display_name = "Tabby",
    pet_id = "pet_tabby",
    prompt = "source/prompt.md",
    quality = "low",
    style = "flat pixel art",
)
EOF

targets=(//pets/fox:fox_pack //pets/fox:fox_runtime //pets/fox:fox_cc //pets/tabby:pet_tabby)
if b7 build --show_result=10 "${targets[@]}"; then
    pass "rules_pet $version from its release archive builds both pets: ${targets[*]}"
else
    fail "bazel build ${targets[*]}"
    show_log
    exit 1
fi
# The sample's frames and prompt: a valid archive (the build checks it).
petpack=$(built_file //pets/tabby:pet_tabby .petpack)
if [[ -s "$petpack" ]]; then
    pass "//pets/tabby:pet_tabby wrote ${petpack##*/} ($(wc -c <"$petpack") bytes)"
else
    fail "//pets/tabby:pet_tabby wrote no .petpack (bazel build printed: '$petpack')"
fi
# The runtime-copy test of each macro; their golden tests want goldens this
# scratch workspace does not have (a missing golden fails, by design).
if b7 test //pets/fox:fox_runtime_test; then
    pass "bazel test //pets/fox:fox_runtime_test"
else
    fail "bazel test //pets/fox:fox_runtime_test"
    show_log
fi
# Gazelle writes a new pet's targets.
(cd "$WS" && git init -q && git add -A && git -c user.name=t -c user.email=t@t commit -qm user)
mkdir -p "$WS/pets/otter/sprites"
cp "$REPO_ROOT/assets/pet/manifest.petasset" "$WS/pets/otter/"
cp "$REPO_ROOT"/assets/pet/sprites/*.png "$WS/pets/otter/sprites/"
if b7 run //:gazelle; then
    pass "bazel run //:gazelle (Gazelle v0.39.1 with @rules_pet//gazelle)"
else
    fail "bazel run //:gazelle"
    show_log
    exit 1
fi
# Gazelle owns the pets' BUILD files (it may rewrite the hand-written
# ones into its own form); nothing outside pets/ may change.
changed=$(cd "$WS" && git status --porcelain | grep -v ' pets/' || true)
if [[ -z "$changed" ]]; then
    pass "gazelle changed nothing outside pets/"
else
    fail "gazelle changed: $(echo "$changed" | tr '\n' ' ')"
fi
for want in 'pet_asset_set(' '    name = "otter",' '        "sprites/idle.png",'; do
    if grep -qxF "$want" "$WS/pets/otter/BUILD.bazel" 2>/dev/null; then
        pass "pets/otter/BUILD.bazel has: $want"
    else
        fail "pets/otter/BUILD.bazel lacks: $want"
        sed 's/^/    | /' "$WS/pets/otter/BUILD.bazel" 2>/dev/null || true
    fi
done
if b7 build //pets/otter:otter_pack //pets/otter:otter_runtime //pets/otter:otter_cc &&
    b7 test //pets/otter:otter_runtime_test; then
    pass "the generated targets build and their tests pass"
else
    fail "the generated targets of pets/otter"
    show_log
fi
(cd "$WS" && git add -A && git -c user.name=t -c user.email=t@t commit -qm generated)
if b7 run //:gazelle && [[ -z "$(cd "$WS" && git status --porcelain)" ]]; then
    pass "a second gazelle run changes nothing"
else
    fail "a second gazelle run changed: $(cd "$WS" && git status --porcelain | tr '\n' ' ')"
fi

if ((failures)); then
    echo "bzlmod_test: $failures check(s) failed"
    exit 1
fi
echo "bzlmod_test: all checks passed"
