"""petpack_import: a `.petpack` made by another producer, verified in an action."""

load("//rules:providers.bzl", "PetpackInfo")
load("//rules:toolchain.bzl", "PET_TOOLCHAIN_TYPE")
load(":common.bzl", "petasset_tool")

_EXT = ".petpack"

def _is_pet_id(s):
    # The manifest's `^pet_[a-z0-9]+$`.
    if not s.startswith("pet_") or len(s) == len("pet_"):
        return False
    for c in s[len("pet_"):].elems():
        if not (c.isdigit() or (c.isalpha() and c.islower())):
            return False
    return True

# The PetpackImport action. The validator refuses a symbolic link, and a
# sandbox makes every input one, so it verifies a real copy; the copy
# becomes the output only after `petpack verify` accepted it and its
# identity matched, so a consumer of the archive can never see an
# unverified one (no validation action, which Bazel 4.2.3 would skip
# without a flag).
_IMPORT = """set -eu
tool=$1 src=$2 out=$3 warnings=$4 id=$5 quality=$6 label=$7
tmp="$out.unverified"
log="$out.log"
rm -f "$out" "$tmp" "$log"
cp -L -- "$src" "$tmp"
chmod 644 "$tmp"
# Findings name the file verified: say the source instead of the copy.
name_src() { sed "s|^$tmp:|$src:|" "$log"; }
if ! "$tool" petpack verify "$tmp" >"$log" 2>&1; then
    name_src >&2
    echo "petpack_import $label: $src is not a valid .petpack (the validator's errors above); nothing was imported" >&2
    rm -f "$tmp" "$log"
    exit 1
fi
name_src | grep ': warning: ' >"$warnings" || true
"$tool" petpack inspect --json "$tmp" >"$log"
got_id=$(sed -n 's/^  "id": "\\(.*\\)",$/\\1/p' "$log")
got_quality=$(sed -n 's/^  "quality": "\\(.*\\)",$/\\1/p' "$log")
rm -f "$log"
if [ "$got_id" != "$id" ]; then
    echo "petpack_import $label: $src holds pet $got_id, not pet_id $id; set pet_id = \\"$got_id\\"" >&2
    rm -f "$tmp"
    exit 1
fi
if [ -n "$quality" ] && [ "$got_quality" != "$quality" ]; then
    echo "petpack_import $label: $src is of quality $got_quality, not $quality" >&2
    rm -f "$tmp"
    exit 1
fi
mv -f -- "$tmp" "$out"
"""

def _petpack_import_impl(ctx):
    src = ctx.file.src
    pet_id = ctx.attr.pet_id
    if not pet_id:
        stem = src.basename[:-len(_EXT)] if src.basename.endswith(_EXT) else ""
        if not _is_pet_id(stem):
            fail("petpack_import %s: src %s is not named <pet_id>.petpack (the contract's name); set pet_id to the archive's manifest id" % (ctx.label, src.short_path))
        pet_id = stem
    elif not _is_pet_id(pet_id):
        fail("petpack_import %s: pet_id %r is not a manifest id (^pet_[a-z0-9]+$)" % (ctx.label, pet_id))

    # In a directory of the target's own name: the contract's file name,
    # and no clash with `src` when that is `<pet_id>.petpack` in this package.
    archive = ctx.actions.declare_file(ctx.label.name + "/" + pet_id + _EXT)
    warnings = ctx.actions.declare_file(ctx.label.name + ".warnings")
    tool = petasset_tool(ctx).petasset
    ctx.actions.run_shell(
        inputs = [src],
        tools = [tool],
        outputs = [archive, warnings],
        command = _IMPORT,
        arguments = [
            tool.executable.path,
            src.path,
            archive.path,
            warnings.path,
            pet_id,
            ctx.attr.quality,
            str(ctx.label),
        ],
        mnemonic = "PetpackImport",
        progress_message = "Verifying and importing %s" % src.short_path,
    )
    return [
        DefaultInfo(files = depset([archive]), runfiles = ctx.runfiles(files = [archive])),
        PetpackInfo(archive = archive, pet_id = pet_id, quality = ctx.attr.quality or None, spec = None),
        OutputGroupInfo(warnings = depset([warnings])),
    ]

petpack_import = rule(
    implementation = _petpack_import_impl,
    doc = """A `.petpack` V3 archive made by another producer, for the rules that
consume `petpack_archive`'s (`pet_bundle`, `petpack_qa`, `petpack_player`,
`petpack_production_test`, `petpack_golden_test`).

The `PetpackImport` action runs `petasset petpack verify` on a copy of
`src`, then checks that its manifest `id` is `pet_id` (and its quality
`quality`, when given); only then does the copy become the output,
`<name>/<pet_id>.petpack`, byte for byte `src`. An archive the contract
rejects fails the build of every target that uses it, printing the
validator's `FILE: PATH: RULE: message` lines, on every Bazel version and
with no flag (there is no separate validation action to skip).

Provides `PetpackInfo` with `archive`, `pet_id`, `quality` (None unless
given) and `spec` None (no spec went in). The validator's warnings go to
`<name>.warnings` (output group `warnings`; empty when there are none).""",
    attrs = {
        "pet_id": attr.string(
            doc = "The archive's manifest `id`, checked by the action; default: `src`'s file name without `.petpack`, which the contract names `<pet_id>.petpack`.",
        ),
        "quality": attr.string(
            doc = "The archive's tier, checked by the action when given: `low`, `standard` or `high`. Empty: not checked, and `PetpackInfo.quality` is None.",
            values = ["", "low", "standard", "high"],
        ),
        "src": attr.label(
            doc = "The `.petpack` archive to import: a checked-in file or another rule's output.",
            allow_single_file = True,
            mandatory = True,
        ),
    },
    provides = [PetpackInfo],
    toolchains = [PET_TOOLCHAIN_TYPE],
)
