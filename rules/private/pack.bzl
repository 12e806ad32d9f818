"""pet_asset_pack: the converter from a validated manifest to a PETP pack."""

load("//rules:providers.bzl", "PetAssetPackInfo", "PetManifestInfo")
load("//rules:toolchain.bzl", "PET_TOOLCHAIN_TYPE")
load(":common.bzl", "manifest_relative_paths", "petasset_tool")
load(":strict.bzl", "STRICT_ATTRS", "strict_stamps")

def _pet_pack_impl(ctx):
    info = ctx.attr.manifest[PetManifestInfo]
    out = ctx.attr.out or "assets/pet.pack"
    if out.startswith("/") or ".." in out.split("/"):
        fail("pet_asset_pack %s: out %r must be a path below the package, such as \"assets/pet.pack\"" % (ctx.label, ctx.attr.out))
    pack = ctx.actions.declare_file(out)
    warnings = ctx.actions.declare_file(ctx.label.name + ".warnings")

    args = ctx.actions.args()
    args.add_all(["pack", "build", "--manifest", info.manifest, "--out", pack, "--warnings", warnings])
    for _, rel in manifest_relative_paths(info):
        args.add("--declared", rel)
    ctx.actions.run(
        executable = petasset_tool(ctx).petasset,
        arguments = [args],
        # The tool checks the manifest itself (as `manifest check` does), so
        # a rejected manifest fails this action and leaves no pack, whether
        # or not validation actions run. It resolves images against the
        # manifest's directory.
        inputs = depset([info.manifest], transitive = [info.images]),
        outputs = [pack, warnings],
        mnemonic = "PetPack",
        progress_message = "Building pet pack %s" % pack.short_path,
    )
    strict = strict_stamps(ctx, warnings, "pet_asset_pack %s" % ctx.label)
    return [
        DefaultInfo(files = depset([pack] + strict), runfiles = ctx.runfiles(files = [pack])),
        PetAssetPackInfo(pack = pack, manifest_info = info, warnings = warnings),
        OutputGroupInfo(warnings = depset([warnings])),
    ]

pet_asset_pack = rule(
    implementation = _pet_pack_impl,
    doc = """Converts an asset set to a PETP embedded pack (the `PetPack` action:
`petasset pack build --manifest <manifest> --out <pack>`).

The action checks the manifest itself (the same rules as `PetManifestCheck`,
including an image not among `pet_manifest`'s `images`), so a rejected
manifest fails the build and leaves no pack on every Bazel version. It reads
the manifest and its images alone, so the pack is the same bytes on every
machine and checkout path.

Warnings go to `<name>.warnings` (output group `warnings`; empty when there
are none): `image_unused` for an image no role shows or a declared image the
manifest does not name. Under `--//rules:strict` the `PetStrict` check of
that file joins the default outputs, so `bazel build` fails on a warning.
Provides `PetAssetPackInfo`.""",
    attrs = dict({
        "manifest": attr.label(
            doc = "A `pet_manifest` target.",
            mandatory = True,
            providers = [PetManifestInfo],
        ),
        "out": attr.string(
            doc = "The pack's path below the package's output directory; default `assets/pet.pack`.",
        ),
    }, **STRICT_ATTRS),
    provides = [PetAssetPackInfo],
    toolchains = [PET_TOOLCHAIN_TYPE],
)
