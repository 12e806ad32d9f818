#!/usr/bin/env bash
# Bazel integration test of rules_pet outside `bazel test`: a user's
# workspace in a scratch directory, set up the documented way: its
# WORKSPACE.bazel is the README's snippet (the block between the
# workspace-snippet markers, extracted here, never a copy in this test), its
# .bazelrc try-imports what `tools/bazel/setup.sh --workspace DIR
# --no-rules-pet-override` writes (the offline stack), rules_pet itself is
# the snippet's http_archive: this checkout's release archive
# (//release:archive), found in a --distdir by its name and verified by the
# snippet's sha256, so a file the archive lacks fails the build, and its pet
# assets and BUILD files are copies of e2e/smoke's (a pack, its C and Go
# libraries and golden test) and of //assets/petpack (a .petpack and its
# golden test). It checks that
#
#   - it builds and its tests pass, with rules_pet extracted from the
#     archive, and so does the C reader @rules_pet//firmware:pet_pack;
#   - a broken manifest fails `bazel build` with the manifest's FILE:LINE: RULE;
#   - it fails pet_runtime_assets and pet_asset_pack too, with no validation flag,
#     and their outputs of the earlier good build are gone;
#   - the fixed manifest builds again;
#   - a renamed sprite, and a sprite dropped from a five-sprite set, fail the
#     runtime copy's build (image_not_declared) or its test
#     (pet_runtime_assets_test), naming the sprite;
#   - a changed sprite fails the golden test, which prints the update
#     command, and that command (`bazel run //:pack_golden.update`) rewrites
#     the golden so the test passes again;
#   - a prebuilt petasset registered as a toolchain replaces the default one;
#   - a copy of the sample .petpack pet (//assets/petpack) builds in the
#     scratch workspace byte-identical to this checkout's golden; a frame of
#     the wrong size fails the PetpackArchive action with
#     `ARCHIVE: PATH: RULE: message (input FILE)` and leaves no archive; the
#     restored frame builds again;
#   - two whole-pet macros whose outputs or runtime prefixes collide fail
#     at loading time, naming both targets;
#   - an image no role shows is a warning in the pack's warnings file, and
#     an error under --@rules_pet//rules:strict, which leaves the PetPack
#     command line unchanged;
#   - the copy's production test passes against the checked-in review; a
#     changed frame makes that review stale, and the test fails naming the
#     review's stale report hash and frame-set digest and the update command;
#     the restored frame passes again.
#
# Prints one PASS/FAIL line per check and exits 1 if any failed.
#
# Usage: tests/integration/scratch_test.sh      (after tools/bazel/setup.sh)
# Environment:
#   RULES_PET_CACHE  cache directory shared with setup.sh; its disk-cache/
#                    keeps reruns fast (default ~/.cache/rules_pet)
#   KEEP_SCRATCH=1   keep the scratch workspace and print where it is
set -euo pipefail

# shellcheck source=tests/integration/common.sh
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

WORK=$(mktemp -d "${TMPDIR:-/tmp}/rules_pet_scratch.XXXXXX")
WS="$WORK/ws"
LOG="$WORK/bazel.log"
cleanup() {
    retire_workspace "$WS"
    if [[ "${KEEP_SCRATCH:-}" == 1 ]]; then
        echo "scratch workspace kept: $WS"
    else
        rm -rf "$WORK"
    fi
}
trap cleanup EXIT

# The workspace. WORKSPACE.bazel: the README's snippet, whose http_archive
# of rules_pet Bazel finds in the --distdir below, by the URL's file name.
mkdir -p "$WS"
awk '/<!-- workspace-snippet:end/ { on = 0 } on && !/^```/ { print } /<!-- workspace-snippet:begin/ { on = 1 }' \
    "$REPO_ROOT/README.md" >"$WS/WORKSPACE.bazel"
if ! grep -q '^rules_pet_register_toolchains()$' "$WS/WORKSPACE.bazel"; then
    echo "FAIL: README.md has no WORKSPACE snippet between <!-- workspace-snippet:begin --> and <!-- workspace-snippet:end --> markers"
    exit 1
fi
# The user's own .bazelrc; setup.sh adds its try-import.
cat >"$WS/.bazelrc" <<'RC'
build --incompatible_strict_action_env
test --test_output=errors
try-import %workspace%/.bazelrc.user
RC
# rules_pet: the release archive of this checkout, under the file name of
# the snippet's URL, in a --distdir.
archive=$(sed -n 's|^ *urls = \["[^"]*/\([^"/]*\)"\],$|\1|p' "$WS/WORKSPACE.bazel")
if [[ -z "$archive" ]]; then
    echo "FAIL: README.md's snippet has no urls = [\"...\"] line"
    exit 1
fi
if ! (cd "$REPO_ROOT" && bazel build //release:archive) >"$WORK/archive.log" 2>&1; then
    echo "FAIL: bazel build //release:archive failed in $REPO_ROOT:"
    tail -n 20 "$WORK/archive.log" | sed 's/^/    | /'
    exit 1
fi
built="$(cd "$REPO_ROOT" && bazel info bazel-bin 2>/dev/null)/release/$archive"
if [[ ! -f "$built" ]]; then
    echo "FAIL: the snippet downloads $archive, which //release:archive did not build (MODULE.bazel's version?)"
    exit 1
fi
mkdir -p "$WORK/distdir"
cp "$built" "$WORK/distdir/"
{
    echo "build --disk_cache=$CACHE/disk-cache"
    echo "common --distdir=$WORK/distdir"
    repo_cache_rc "$WORK/gazelle_tools"
    sandbox_rc
} >"$WS/.bazelrc.user"
if ! "$REPO_ROOT/tools/bazel/setup.sh" --workspace "$WS" --no-rules-pet-override >"$WORK/setup.log" 2>&1; then
    echo "FAIL: tools/bazel/setup.sh --workspace $WS --no-rules-pet-override failed:"
    sed 's/^/    | /' "$WORK/setup.log"
    exit 1
fi
if grep -qxF 'try-import %workspace%/.bazelrc.rules_pet' "$WS/.bazelrc" &&
    grep -q '^common --override_repository=io_bazel_rules_go=' "$WS/.bazelrc.rules_pet" &&
    ! grep -q 'override_repository=rules_pet=' "$WS/.bazelrc.rules_pet"; then
    pass "setup.sh --workspace --no-rules-pet-override wrote .bazelrc.rules_pet (the offline stack, no override of rules_pet) and the try-import in .bazelrc"
else
    fail "setup.sh --workspace --no-rules-pet-override wrote no .bazelrc.rules_pet, an override of rules_pet, or no try-import"
fi
# The pet assets and BUILD files: e2e/smoke's, without its own workspace
# files and bazel-* links.
(cd "$REPO_ROOT/e2e/smoke" && find . -path './bazel-*' -prune -o -type f ! -name '.bazelrc*' \
    ! -name 'WORKSPACE*' ! -name 'MODULE.bazel' -print |
    while read -r f; do mkdir -p "$WS/$(dirname "$f")" && cp "$f" "$WS/$f"; done)
echo "workspace: Bazel $(dpkg-query -W -f='${Version}' bazel-bootstrap 2>/dev/null) in WORKSPACE mode; the MODULE.bazel form needs Bazel 7 and is not run here"

# A second asset set, a copy of the canonical five-sprite //assets/pet.
mkdir -p "$WS/five/sprites"
cp "$REPO_ROOT/assets/pet/manifest.petasset" "$WS/five/"
cp "$REPO_ROOT"/assets/pet/sprites/*.png "$WS/five/sprites/"
cat >"$WS/five/BUILD.bazel" <<'BUILD'
load("@rules_pet//rules:defs.bzl", "pet_manifest", "pet_runtime_assets", "pet_runtime_assets_test")

pet_manifest(
    name = "manifest",
    images = glob(["sprites/*.png"]),
    manifest = "manifest.petasset",
)

pet_runtime_assets(
    name = "runtime",
    manifest = ":manifest",
)

pet_runtime_assets_test(
    name = "runtime_test",
    size = "small",
    assets = ":runtime",
)
BUILD

# run_bazel ARGS...: runs bazel in the scratch workspace, output in $LOG.
run_bazel() {
    (cd "$WS" && bazel "$@") >"$LOG" 2>&1
}
show_log() { sed "s/^/    | /" "$LOG" | tail -n "${1:-15}"; }

# 1. As checked in.
if run_bazel test //...; then
    pass "e2e/smoke builds against the release archive and its tests pass ($(grep -o 'Executed [0-9]* out of .*' "$LOG" | head -n 1))"
else
    fail "e2e/smoke as checked in: bazel test //... failed"
    show_log 30
fi
# rules_pet is the archive's extraction, not this checkout: it holds the
# release's files only (no tests/, no README.md).
ext="$(cd "$WS" && bazel info output_base 2>/dev/null)/external/rules_pet"
if [[ -f "$ext/rules/defs.bzl" && ! -e "$ext/tests" && ! -e "$ext/README.md" && ! -L "$ext" ]]; then
    pass "rules_pet came from $archive ($(wc -c <"$built") bytes, sha256 $(sha256sum "$built" | cut -c1-12)..., the snippet's) through --distdir"
else
    fail "external/rules_pet is not the release archive's extraction ($ext)"
fi
# The C reader a firmware build links, which no target above depends on.
if run_bazel build @rules_pet//firmware:pet_pack; then
    pass "the C reader @rules_pet//firmware:pet_pack builds from the release archive"
else
    fail "@rules_pet//firmware:pet_pack does not build from the release archive"
    show_log
fi

# 2. A broken manifest: a frame duration of 0 ms.
manifest="$WS/pet/manifest.petasset"
cp "$manifest" "$WORK/manifest.good"
line=$(grep -n '^anim_idle ' "$manifest" | cut -d: -f1)
sed -i 's/^\(anim_idle  *sprite_idle\) 900$/\1 0/' "$manifest"
want="pet/manifest.petasset:$line: duration_out_of_range"
if run_bazel build //...; then
    fail "a broken manifest (duration 0 on line $line) built successfully"
elif grep -q "$want" "$LOG"; then
    pass "a broken manifest fails bazel build with: $(grep -o "$want.*" "$LOG" | head -n 1)"
else
    fail "a broken manifest failed bazel build, but without '$want' in the output"
    show_log
fi

# 2b. The producing actions check the manifest themselves: with no
# validation flag (Bazel 4.2.3 runs no validation actions by default), the
# broken manifest fails pet_runtime_assets and pet_asset_pack, and the copy and
# the pack that step 1 built do not survive in bazel-bin.
# expect_no_output TARGET OUTPUT WHAT
expect_no_output() {
    if run_bazel build "$1"; then
        fail "a broken manifest: $1 ($3) built successfully"
    elif ! grep -q "$want" "$LOG"; then
        fail "a broken manifest failed $1 ($3), but without '$want' in the output"
        show_log
    elif [[ -e "$WS/bazel-bin/$2" ]]; then
        fail "a broken manifest failed $1 ($3), but bazel-bin/$2 of the earlier build is still there"
    else
        pass "a broken manifest fails $1 ($3) with $want and leaves no bazel-bin/$2"
    fi
}
expect_no_output //:runtime assets/pet/manifest.petasset pet_runtime_assets
expect_no_output //:pack assets/pet.pack pet_asset_pack

# 3. Fixed again.
cp "$WORK/manifest.good" "$manifest"
if run_bazel build //...; then
    pass "the fixed manifest builds"
else
    fail "the fixed manifest does not build"
    show_log
fi

# expect_runtime_test_failure TARGET SPRITE WHAT: the runtime-copy test must
# fail and its log name SPRITE. The copy's own PetRuntimeManifest action
# checks the manifest against the rule's images, so the build of the copy
# fails first with image_not_declared; the test itself (which loads the
# copy) is the second line of defence.
expect_runtime_test_failure() {
    if run_bazel test "$1"; then
        fail "$3: $1 still passes"
    elif grep -q "image_not_declared: .*$2" "$LOG"; then
        pass "$3 fails $1 in the runtime copy's own check: $(grep -o "[^ ]*image_not_declared: .*$2[^,]*" "$LOG" | head -n 1)"
    elif grep -q "FAIL: runtime copy" "$LOG" && grep -q "$2" "$LOG"; then
        pass "$3 fails $1: $(grep -o "[^ ]*$2[^(]*" "$LOG" | head -n 1)"
    else
        fail "$3: $1 failed, but naming neither image_not_declared nor a runtime-copy failure of $2"
        show_log
    fi
}

# 4. A renamed sprite: the copy holds sprites/idle_renamed.png, the manifest
# names sprites/idle.png.
mv "$WS/pet/sprites/idle.png" "$WS/pet/sprites/idle_renamed.png"
expect_runtime_test_failure //:runtime_test sprites/idle.png "renaming sprites/idle.png"
if run_bazel build //:manifest; then
    fail "renaming sprites/idle.png: the manifest check still passes"
elif grep -q "image_not_declared" "$LOG"; then
    pass "renaming sprites/idle.png fails the manifest check: $(grep -o 'pet/manifest.petasset:[0-9]*: image_not_declared.*' "$LOG" | head -n 1)"
else
    fail "renaming sprites/idle.png: the manifest check failed without image_not_declared"
    show_log
fi
mv "$WS/pet/sprites/idle_renamed.png" "$WS/pet/sprites/idle.png"

# 5. A dropped sprite in the five-sprite set.
if run_bazel test //five:runtime_test; then
    pass "the five-sprite copy of //assets/pet passes its runtime-copy test"
else
    fail "the five-sprite copy of //assets/pet fails its runtime-copy test as copied"
    show_log
fi
rm "$WS/five/sprites/happy.png"
expect_runtime_test_failure //five:runtime_test sprites/happy.png "dropping sprites/happy.png"
cp "$REPO_ROOT/assets/pet/sprites/happy.png" "$WS/five/sprites/"

# 6. A changed sprite: the golden test fails and says how to update; the
# update target rewrites the golden in the source tree.
cp "$WS/pet.pack.golden" "$WORK/golden.orig"
cp "$REPO_ROOT/assets/pet/sprites/happy.png" "$WS/pet/sprites/idle.png"
if run_bazel test //:pack_golden; then
    fail "a changed sprite: the golden test still passes"
elif grep -q 'first difference in entry 0 (image sprite_[a-z]*) colour payload' "$LOG" && grep -q 'bazel run //:pack_golden.update' "$LOG"; then
    pass "a changed sprite fails the golden test: $(grep -o 'first difference in.*' "$LOG" | head -n 1)"
    pass "the golden test prints the update command: $(grep -o 'bazel run //:pack_golden.update' "$LOG" | head -n 1)"
else
    fail "a changed sprite failed the golden test without naming entry 0's colour payload and the update command"
    show_log
fi
if run_bazel run //:pack_golden.update && ! cmp -s "$WS/pet.pack.golden" "$WORK/golden.orig" &&
    run_bazel test //:pack_golden; then
    pass "bazel run //:pack_golden.update rewrote pet.pack.golden and the golden test passes again"
else
    fail "bazel run //:pack_golden.update did not make the golden test pass"
    show_log
fi

# 7. A prebuilt petasset registered as the toolchain replaces the default.
mkdir -p "$WS/prebuilt"
cat >"$WS/prebuilt/BUILD.bazel" <<'BUILD'
load("@rules_pet//rules:defs.bzl", "pet_toolchain")

pet_toolchain(
    name = "petasset",
    petasset = "petasset.bin",
)

toolchain(
    name = "petasset_toolchain",
    toolchain = ":petasset",
    toolchain_type = "@rules_pet//rules/toolchain:type",
)
BUILD
if run_bazel build @rules_pet//tools/cmd/petasset &&
    cp "$WS/bazel-bin/external/rules_pet/tools/cmd/petasset/petasset_/petasset" "$WS/prebuilt/petasset.bin" &&
    run_bazel aquery --extra_toolchains=//prebuilt:petasset_toolchain 'mnemonic("PetPack", //:pack)' &&
    grep -q 'exec prebuilt/petasset.bin' "$LOG" &&
    run_bazel test --extra_toolchains=//prebuilt:petasset_toolchain //...; then
    pass "a prebuilt petasset registered with --extra_toolchains runs the PetPack action, and the tests pass with it"
else
    fail "a prebuilt petasset toolchain was not used, or the build failed with it"
    show_log 40
fi

# 8. The sample .petpack pet, copied to another path in another workspace:
# the same bytes as this checkout's golden. Then a frame of the wrong size.
mkdir -p "$WS/tabby"
cp -r "$REPO_ROOT/assets/petpack/frames" "$REPO_ROOT/assets/petpack/source" \
    "$REPO_ROOT/assets/petpack/pet_tabby.petpack.golden" "$WS/tabby/"
sed 's|"//rules:defs.bzl"|"@rules_pet//rules:defs.bzl"|' "$REPO_ROOT/assets/petpack/BUILD.bazel" >"$WS/tabby/BUILD.bazel"
if run_bazel test //tabby:pet_tabby_golden; then
    pass "a copy of //assets/petpack builds in the scratch workspace byte-identical to the golden ($(wc -c <"$WS/bazel-bin/tabby/pet_tabby.petpack") bytes)"
else
    fail "a copy of //assets/petpack does not build to its golden in the scratch workspace"
    show_log 30
fi
frame="$WS/tabby/frames/idle/0002.png"
cp "$frame" "$WORK/frame.good"
cp "$REPO_ROOT/assets/pet/sprites/idle.png" "$frame"
want="assets/frames/idle/0002.png: frame_size_mismatch: .* (input tabby/frames/idle/0002.png)"
if run_bazel build //tabby:pet_tabby; then
    fail "a 64x64 frame in a low-tier pet built successfully"
elif grep -q "pet_tabby.petpack: $want" "$LOG" && [[ ! -e "$WS/bazel-bin/tabby/pet_tabby.petpack" ]]; then
    pass "a 64x64 frame fails the PetpackArchive action and leaves no archive: $(grep -o "assets/frames/idle/0002.png: frame_size_mismatch.*" "$LOG" | head -n 1)"
else
    fail "a 64x64 frame failed the build without '$want', or left an archive"
    show_log
fi
cp "$WORK/frame.good" "$frame"
if run_bazel test //tabby:pet_tabby_golden; then
    pass "the restored frame builds the golden archive again"
else
    fail "the restored frame does not build the golden archive"
    show_log
fi

# 9. Collisions, caught by the whole-pet macro at loading time (a plain
# `bazel query`), naming both targets: two asset sets with one runtime
# prefix, and a pack whose `out` is the name a later set derives.
mkdir -p "$WS/clash/sprites"
cp "$REPO_ROOT/assets/pet/manifest.petasset" "$WS/clash/"
cp "$REPO_ROOT"/assets/pet/sprites/*.png "$WS/clash/sprites/"
# expect_collision BUILD-BODY WANT WHAT
expect_collision() {
    {
        echo 'load("@rules_pet//rules:defs.bzl", "pet_asset_pack", "pet_asset_set")'
        echo "$1"
    } >"$WS/clash/BUILD.bazel"
    if run_bazel query //clash:all; then
        fail "$3: the package loads"
    elif grep -qF "$2" "$LOG"; then
        pass "$3 fails at loading time: $(grep -oF "$2" "$LOG" | head -n 1)..."
    else
        fail "$3 failed to load without '$2'"
        show_log
    fi
}
expect_collision 'pet_asset_set(name = "a", prefix = "same")
pet_asset_set(name = "b", prefix = "same/b")' \
    "pet_asset_set b_runtime: its runtime copy same/b/ collides with that of pet_runtime_assets :a_runtime (same/)" \
    "two asset sets whose runtime prefixes nest"
expect_collision 'pet_asset_set(name = "a")
pet_asset_pack(name = "other", manifest = ":a_manifest", out = "b.pack")
pet_asset_set(name = "b")' \
    "pet_asset_set b_pack: its output b.pack collides with that of pet_asset_pack :other" \
    "a pack whose out is the one a later asset set derives"
rm -rf "$WS/clash"

# 10. Warnings and strict mode: an image no role shows is a warning kept in
# the pack's warnings file; --@rules_pet//rules:strict makes it fail a plain
# `bazel build`, without changing the PetPack action's command line.
mkdir -p "$WS/warned/sprites"
cp "$REPO_ROOT/assets/pet/sprites/"*.png "$WS/warned/sprites/"
grep -v '^expression_happy ' "$REPO_ROOT/assets/pet/manifest.petasset" >"$WS/warned/manifest.petasset"
cat >"$WS/warned/BUILD.bazel" <<'BUILD'
load("@rules_pet//rules:defs.bzl", "pet_asset_set")

pet_asset_set(name = "warned")
BUILD
want="warned/manifest.petasset:10: image_unused: image sprite_happy (sprites/happy.png) is shown by no role"
if run_bazel build //warned:warned_pack && grep -qF "$want" "$WS/bazel-bin/warned/warned_pack.warnings"; then
    pass "an image no role shows builds, with the warning kept in bazel-bin/warned/warned_pack.warnings: $want"
else
    fail "an image no role shows: the lenient build failed or the warnings file lacks '$want'"
    show_log
fi
run_bazel aquery 'mnemonic("PetPack", //warned:warned_pack)' && sed -n '/Command Line/,/^$/p' "$LOG" >"$WORK/lenient.cmd" || true
if run_bazel build --@rules_pet//rules:strict //warned:warned_pack; then
    fail "an image no role shows: the build passes under --@rules_pet//rules:strict"
elif grep -qF "error (--//rules:strict): $want" "$LOG"; then
    pass "under --@rules_pet//rules:strict the warning fails bazel build: $(grep -oF "error (--//rules:strict): $want" "$LOG" | head -n 1)"
else
    fail "under strict the build failed without 'error (--//rules:strict): $want'"
    show_log
fi
run_bazel aquery --@rules_pet//rules:strict 'mnemonic("PetPack", //warned:warned_pack)' && sed -n '/Command Line/,/^$/p' "$LOG" >"$WORK/strict.cmd" || true
if [[ -s "$WORK/lenient.cmd" ]] && cmp -s "$WORK/lenient.cmd" "$WORK/strict.cmd"; then
    pass "--@rules_pet//rules:strict leaves the PetPack action's command line as it is"
else
    fail "the PetPack command line differs under strict, or aquery printed none"
    diff "$WORK/lenient.cmd" "$WORK/strict.cmd" | head -n 10 || true
fi

# 11. The production gate of the copied pet against its checked-in review.
# Another action's frame in idle's place is a valid archive whose motion QA
# report differs: the review, bound to the old report and frame set, is
# stale.
cp "$REPO_ROOT/assets/petpack/pet_tabby.motion-review.json" "$WS/tabby/"
frame="$WS/tabby/frames/idle/0002.png"
if run_bazel test //tabby:pet_tabby_production; then
    pass "the copy's production test passes against the checked-in review"
else
    fail "the copy's production test fails against the checked-in review"
    show_log 30
fi
cp "$WS/tabby/frames/tool/0000.png" "$frame"
if run_bazel test //tabby:pet_tabby_production; then
    fail "a changed idle frame: the production test still passes with the old review"
elif grep -q "review.json: review_stale: report_sha256" "$LOG" &&
    grep -q "review.json: frame_set_digest_stale: " "$LOG" &&
    grep -q "bazel run //tabby:[a-z_]*production.update" "$LOG"; then
    pass "a changed idle frame makes the review stale and fails the production test: $(grep -o "review_stale: report_sha256 .\{20\}" "$LOG" | head -n 1)..."
else
    fail "a changed idle frame failed the production test without naming the review's stale report_sha256 and frame_set_digest and the update command"
    show_log 30
fi
cp "$WORK/frame.good" "$frame"
if run_bazel test //tabby:pet_tabby_production; then
    pass "the restored frame passes the production test again"
else
    fail "the restored frame does not pass the production test"
    show_log
fi

if ((failures)); then
    echo "FAIL: scratch workspace test: $failures check(s) failed"
    exit 1
fi
echo "PASS: scratch workspace test"
