"""pet_pack: the converter from a validated manifest to a PETP pack."""

load("//rules:providers.bzl", "PetManifestInfo", "PetPackInfo")
load("//rules:toolchain.bzl", "PET_TOOLCHAIN_TYPE")
load(":common.bzl", "petasset_tool")

def _pet_pack_impl(ctx):
    info = ctx.attr.manifest[PetManifestInfo]
    out = ctx.attr.out or "assets/pet.pack"
    if out.startswith("/") or ".." in out.split("/"):
        fail("pet_pack %s: out %r must be a path below the package, such as \"assets/pet.pack\"" % (ctx.label, ctx.attr.out))
    pack = ctx.actions.declare_file(out)

    args = ctx.actions.args()
    args.add_all(["pack", "build", "--manifest", info.manifest, "--out", pack])
    ctx.actions.run(
        executable = petasset_tool(ctx).petasset,
        arguments = [args],
        # The stamp orders this action after an accepted PetManifestCheck; the
        # tool reads the manifest and resolves images against its directory.
        inputs = depset([info.manifest, info.validation], transitive = [info.images]),
        outputs = [pack],
        mnemonic = "PetPack",
        progress_message = "Building pet pack %s" % pack.short_path,
    )
    return [
        DefaultInfo(files = depset([pack]), runfiles = ctx.runfiles(files = [pack])),
        PetPackInfo(pack = pack, manifest_info = info),
    ]

pet_pack = rule(
    implementation = _pet_pack_impl,
    doc = """Converts an asset set to a PETP embedded pack (the `PetPack` action:
`petasset pack build --manifest <manifest> --out <pack>`).

The action runs only after the manifest's `PetManifestCheck` accepted it, and
reads the manifest and its images alone, so the pack is the same bytes on
every machine and checkout path. Provides `PetPackInfo`.""",
    attrs = {
        "manifest": attr.label(
            doc = "A `pet_manifest` target.",
            mandatory = True,
            providers = [PetManifestInfo],
        ),
        "out": attr.string(
            doc = "The pack's path below the package's output directory; default `assets/pet.pack`.",
        ),
    },
    provides = [PetPackInfo],
    toolchains = [PET_TOOLCHAIN_TYPE],
)
