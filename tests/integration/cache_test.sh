#!/usr/bin/env bash
# Cache and determinism of rules_pet's actions, measured:
#
#   1. Two checkouts of this tree at different paths (A and B, copies of the
#      tracked and unignored files) share one fresh --disk_cache. A builds
#      //assets/... and executes every pet action, among them exactly one
#      PetpackArchive (the sample pet //assets/petpack:pet_tabby); B builds
#      the same and must execute no pet action (PetManifestCheck,
#      PetRuntimeCopy, PetPack, PetPackCc, PetpackArchive, PetpackQA, ...):
#      all disk cache hits. The toolchain (petasset built from source for
#      the execution platform, modernc's SQLite among its dependencies) and
#      the Go libraries and binaries from outside //assets that it compiles
#      (the player's js/wasm binary among them) are not what this proves:
#      each checkout first builds //rules/toolchain:petasset_from_source and
#      those go_library and go_binary targets
#      from SEED_DISK_CACHE, the disk cache tools/test.sh's main workspace
#      and the scratch and Gazelle scripts share, so mostly //assets/...'s
#      own actions meet the fresh cache. The fresh cache holds only what A
#      ran, so a pet action that hit in B was answered by A's run.
#   2. Every output under bazel-bin/assets is byte-identical in A and B (the
#      pack, the runtime copy, the C and Go sources and their objects, the
#      sample pet's .petpack archive, its player directory and its
#      motion-QA directory).
#   3. In B, one sprite gets new pixels (sprites/curious.png is replaced by
#      the valid sprite attentive.png); the rebuild may run only the actions
#      that depend on it: its PetRuntimeCopy, PetPack, PetPackCc and the C
#      and Go compilations of the pack, and never PetManifestCheck, another
#      sprite's copy or the sample pet's PetpackArchive.
#   4. In B, one frame of the sample pet changes (frames/idle/0001.png is
#      replaced by the valid frame idle/0005.png); the rebuild runs exactly
#      three pet actions, its PetpackArchive, the PetpackPlayer of
#      //assets/petpack:player that copies the archive, the PetpackQA of
#      //assets/petpack:pet_tabby_qa and the PetBundle of
#      //assets/petpack:bundle that holds its digest, and the archive
#      changes.
#
# The counts come from --execution_log_json_file. Prints PASS/FAIL lines and
# the counts; exits 1 on any failure.
#
# Usage: tests/integration/cache_test.sh      (after tools/bazel/setup.sh)
#   KEEP_SCRATCH=1 keeps the two checkouts and prints where they are.
#   SEED_DISK_CACHE  the disk cache the toolchain comes from (default
#                    $RULES_PET_CACHE/disk-cache; empty: it builds cold)
set -euo pipefail

# shellcheck source=tests/integration/common.sh
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

WORK=$(mktemp -d "${TMPDIR:-/tmp}/rules_pet_cache.XXXXXX")
A="$WORK/checkout-a"
B="$WORK/elsewhere/checkout-b"
DISK_CACHE="$WORK/disk-cache"
cleanup() {
    local ws
    for ws in "$A" "$B"; do
        retire_workspace "$ws"
    done
    if [[ "${KEEP_SCRATCH:-}" == 1 ]]; then
        echo "checkouts kept: $A $B"
    else
        rm -rf "$WORK"
    fi
}
trap cleanup EXIT

# The checkouts: what git would commit now, plus this machine's offline
# overrides. B is copied from A, so both hold the same bytes.
copy_checkout "$A"
mkdir -p "$(dirname "$B")"
cp -R "$A" "$B"

# summarize LOG: prints "executed hits" for the pet actions, then one line
# per mnemonic, and writes the executed spawns to LOG.executed.
summarize() {
    python3 - "$1" "$REPO_ROOT/tests/integration" <<'PY'
import sys
sys.dont_write_bytecode = True  # no __pycache__ in the checkout
sys.path.insert(0, sys.argv[2])
import execlog
path = sys.argv[1]
spawns = execlog.load(path)
counts = {}
executed = []
for s in spawns:
    m = s.get("mnemonic", "?")
    hit = bool(s.get("remoteCacheHit"))
    c = counts.setdefault(m, [0, 0])
    c[1 if hit else 0] += 1
    if not hit:
        executed.append("%s %s" % (m, " ".join(execlog.outputs(s))))
pet = [c for m, c in counts.items() if m.startswith("Pet")]
print("%d %d" % (sum(c[0] for c in pet), sum(c[1] for c in pet)))
for m in sorted(counts):
    print("    %-22s executed %3d   disk cache hits %3d" % (m, counts[m][0], counts[m][1]))
with open(path + ".executed", "w") as f:
    f.write("\n".join(executed) + ("\n" if executed else ""))
PY
}

# build WS NAME: builds //assets/... in WS with the shared disk cache.
build() {
    local ws=$1 name=$2 start end
    start=$(date +%s.%N)
    if ! (cd "$ws" && bazel build --disk_cache="$DISK_CACHE" \
        --execution_log_json_file="$WORK/$name.json" //assets/...) >"$WORK/$name.log" 2>&1; then
        fail "$name: bazel build //assets/... failed"
        tail -n 20 "$WORK/$name.log" | sed 's/^/    | /'
        return 1
    fi
    end=$(date +%s.%N)
    printf '%s: built //assets/... in %.1f s (%s)\n' "$name" "$(echo "$end - $start" | bc)" \
        "$(grep -o '[0-9]* processes:.*' "$WORK/$name.log" | tail -n 1)"
}

# 1. A cold, B from the cache.
seed_toolchain "$A"
seed_toolchain "$B"
build "$A" "A (cold disk cache)"
read -r a_exec a_hits < <(summarize "$WORK/A (cold disk cache).json" | sed -n 1p)
summarize "$WORK/A (cold disk cache).json" | tail -n +2
if ((a_exec > 0)); then
    pass "A executed its $a_exec pet actions ($a_hits from the cache)"
else
    fail "A executed no pet action: the disk cache was not cold"
fi
a_archives=$(grep -c '^PetpackArchive ' "$WORK/A (cold disk cache).json.executed" || true)
if ((a_archives == 1)); then
    pass "A executed 1 PetpackArchive (the sample pet)"
else
    fail "A executed $a_archives PetpackArchive actions, want 1 (//assets/petpack:pet_tabby)"
fi

build "$B" "B (other path, same cache)"
read -r b_exec b_hits < <(summarize "$WORK/B (other path, same cache).json" | sed -n 1p)
summarize "$WORK/B (other path, same cache).json" | tail -n +2
if ((b_exec == 0 && b_hits == a_exec + a_hits)); then
    pass "B, at another path, executed 0 pet actions: all $b_hits were disk cache hits"
else
    fail "B executed $b_exec pet actions ($b_hits cache hits; A had $((a_exec + a_hits)))"
    grep '^Pet' "$WORK/B (other path, same cache).json.executed" | sed 's/^/    executed: /' || true
fi
other=$(grep -vc '^Pet' "$WORK/B (other path, same cache).json.executed" || true)
echo "    B executed $other non-pet actions"

# 2. Byte-identical outputs.
a_pack="$A/bazel-bin/assets/pet/assets/pet.pack"
b_pack="$B/bazel-bin/assets/pet/assets/pet.pack"
if cmp -s "$a_pack" "$b_pack"; then
    pass "the packs of A and B are byte-identical ($(wc -c <"$a_pack" | tr -d ' ') bytes, sha256 $(sha256sum "$a_pack" | cut -c1-16)...)"
else
    fail "the packs of A and B differ: $(cmp "$a_pack" "$b_pack" 2>&1 || true)"
fi
a_petpack="$A/bazel-bin/assets/petpack/pet_tabby.petpack"
b_petpack="$B/bazel-bin/assets/petpack/pet_tabby.petpack"
if [[ ! -f "$a_petpack" || ! -f "$b_petpack" ]]; then
    fail "the sample pet's archive is missing: $a_petpack or $b_petpack"
elif cmp -s "$a_petpack" "$b_petpack"; then
    pass "the sample pet archives of A and B are byte-identical ($(wc -c <"$a_petpack" | tr -d ' ') bytes, sha256 $(sha256sum "$a_petpack" | cut -c1-16)...)"
else
    fail "the sample pet archives of A and B differ: $(cmp "$a_petpack" "$b_petpack" 2>&1 || true)"
fi
list_outputs() {
    (cd "$1/bazel-bin/assets" && find . -type f ! -name '*.params' ! -path '*.runfiles*' ! -name '*runfiles_manifest' | sort)
}
same=0 differ=()
while read -r f; do
    if cmp -s "$A/bazel-bin/assets/$f" "$B/bazel-bin/assets/$f"; then
        same=$((same + 1))
    else
        differ+=("$f")
    fi
done < <(list_outputs "$A")
if [[ "$(list_outputs "$A")" != "$(list_outputs "$B")" ]]; then
    fail "A and B have different output files under bazel-bin/assets"
elif ((${#differ[@]})); then
    fail "outputs that differ between A and B: ${differ[*]}"
else
    pass "all $same outputs under bazel-bin/assets are byte-identical in A and B"
fi

# 3. One sprite changes in B.
cp "$B/assets/pet/sprites/attentive.png" "$B/assets/pet/sprites/curious.png"
build "$B" "B (curious.png changed)"
log="$WORK/B (curious.png changed).json"
read -r c_exec c_hits < <(summarize "$log" | sed -n 1p)
summarize "$log" | tail -n +2
sed 's/^/    executed: /' "$log.executed"
allowed='^(PetRuntimeCopy [^ ]*/assets/pet/assets/pet/sprites/curious\.png|PetPack [^ ]*/assets/pet/assets/pet\.pack( [^ ]*/assets/pet/pack\.warnings)?|PetPackCc .*pack_cc\.[ch]( .*)?|GoCompilePkg .*pack_go.*|CppCompile .*pack_cc.*|CppArchive .*pack_cc.*|CppLink .*pack_cc.*)$'
unexpected=$(grep -Ev "$allowed" "$log.executed" || true)
for need in 'PetRuntimeCopy .*sprites/curious\.png' '^PetPack .*pet\.pack' '^PetPackCc '; do
    grep -Eq "$need" "$log.executed" || fail "the changed sprite did not rerun $need"
done
if [[ -n "$unexpected" ]]; then
    fail "the changed sprite reran actions that do not depend on it: $(echo "$unexpected" | tr '\n' ';')"
else
    pass "changing curious.png reran only its dependents: $c_exec pet actions ($(cut -d' ' -f1 "$log.executed" | sort | uniq -c | awk '{printf "%s%s x%s", sep, $2, $1; sep=", "}')); PetManifestCheck, the other 4 sprite copies and PetpackArchive did not run"
fi
if cmp -s "$a_pack" "$b_pack"; then
    fail "the pack did not change with the sprite"
else
    pass "the pack changed with the sprite ($(cmp "$a_pack" "$b_pack" 2>&1 | head -n 1 | sed 's/.*differ: //'))"
fi

# 4. One frame of the sample pet changes in B.
b_petpack_before=$(sha256sum "$b_petpack" | cut -d' ' -f1)
cp "$B/assets/petpack/frames/idle/0005.png" "$B/assets/petpack/frames/idle/0001.png"
build "$B" "B (idle frame 0001 changed)"
log="$WORK/B (idle frame 0001 changed).json"
summarize "$log" | tail -n +2
sed 's/^/    executed: /' "$log.executed"
# The archive's PetpackArchive, and the PetBundle of //assets/petpack:bundle,
# whose inventory holds the archive's digest.
pet_reran=$(grep '^Pet' "$log.executed" || true)
# The player's and the QA's outputs are directories; the log may name them
# or their files.
n_archive=$(grep -c '^PetpackArchive [^ ]*/assets/petpack/pet_tabby\.petpack$' <<<"$pet_reran" || true)
n_player=$(grep -Ec '^PetpackPlayer [^ ]*/assets/petpack/pet_tabby_player(/[^ ]*)?( |$)' <<<"$pet_reran" || true)
n_qa=$(grep -Ec '^PetpackQA [^ ]*/assets/petpack/pet_tabby_qa(/[^ ]*)?( |$)' <<<"$pet_reran" || true)
n_bundle=$(grep -c '^PetBundle [^ ]*/assets/petpack/bundle_gen/' <<<"$pet_reran" || true)
n_pet=$(grep -c . <<<"$pet_reran" || true)
if ((n_archive == 1 && n_player == 1 && n_qa == 1 && n_bundle == 1 && n_pet == 4)); then
    pass "changing idle/0001.png reran exactly 4 pet actions, the sample pet's PetpackArchive, its player's PetpackPlayer, its PetpackQA and the bundle's PetBundle"
else
    fail "changing idle/0001.png reran these pet actions, want only the PetpackArchive of pet_tabby, the PetpackPlayer of its player, its PetpackQA and the PetBundle of :bundle: $(echo "$pet_reran" | cut -c1-200 | tr '\n' ';')"
fi
if [[ "$(sha256sum "$b_petpack" | cut -d' ' -f1)" == "$b_petpack_before" ]]; then
    fail "the sample pet archive did not change with the frame"
else
    pass "the sample pet archive changed with the frame ($(cmp "$a_petpack" "$b_petpack" 2>&1 | head -n 1 | sed 's/.*differ: //'))"
fi

if ((failures)); then
    echo "FAIL: cache and determinism: $failures check(s) failed"
    exit 1
fi
echo "PASS: cache and determinism"
