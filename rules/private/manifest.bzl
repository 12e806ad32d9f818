"""pet_manifest: a `manifest pet 1` and its images, validated in an action."""

load("//rules:providers.bzl", "PetManifestInfo")
load("//rules:toolchain.bzl", "PET_TOOLCHAIN_TYPE")
load(":common.bzl", "dirname", "manifest_relative_paths", "petasset_tool", "relative_to")

def _fail(ctx, msg):
    fail("pet_manifest %s: %s" % (ctx.label, msg))

def _pet_manifest_impl(ctx):
    manifest = ctx.file.manifest
    if manifest.extension != "petasset":
        _fail(ctx, "manifest %s is not a .petasset file; a pet manifest is named like manifest.petasset" % manifest.short_path)
    if not ctx.files.images:
        _fail(ctx, "images is empty: list every .png the manifest names, e.g. images = glob([\"sprites/*.png\"]); a missing image would otherwise only show at run time")

    asset_root = dirname(manifest.short_path)
    for image in ctx.files.images:
        if image.extension != "png":
            _fail(ctx, "image %s is not a .png file" % image.short_path)
        if relative_to(image.short_path, asset_root) == None:
            _fail(ctx, "image %s is outside the manifest's directory %s; the manifest resolves image paths against its own directory (contract section 7)" % (
                image.short_path,
                asset_root or "(the repository root)",
            ))
        if image.root.path != manifest.root.path:
            _fail(ctx, "image %s and manifest %s must both be source files or both be generated in the same configuration" % (image.short_path, manifest.short_path))

    info = PetManifestInfo(
        manifest = manifest,
        images = depset(ctx.files.images),
        asset_root = asset_root,
        validation = ctx.actions.declare_file(ctx.label.name + ".petasset.ok"),
    )

    args = ctx.actions.args()
    args.add_all(["manifest", "check", "--stamp", info.validation])
    for _, rel in manifest_relative_paths(info):
        args.add("--declared", rel)
    args.add(manifest)
    ctx.actions.run(
        executable = petasset_tool(ctx).petasset,
        arguments = [args],
        # Only the manifest: the declared paths are checked as strings, so a
        # sprite's pixels never rerun this action.
        inputs = [manifest],
        outputs = [info.validation],
        mnemonic = "PetManifestCheck",
        progress_message = "Checking pet manifest %s" % manifest.short_path,
    )

    return [
        DefaultInfo(files = depset([info.validation])),
        info,
    ]

pet_manifest = rule(
    implementation = _pet_manifest_impl,
    doc = """A pet asset set's manifest and the images it names.

The `PetManifestCheck` action runs `petasset manifest check --stamp ...
--declared <image>... <manifest>`: a manifest the contract rejects, or one
naming an image that is not among `images`, fails the build with the tool's
`FILE:LINE: RULE: message`. Building the target builds the stamp only.

Analysis fails at once when `manifest` is not a `.petasset` file, `images`
is empty, or an image is not a `.png` or lies outside the manifest's
directory.

Provides `PetManifestInfo` for `pet_runtime_assets` and `pet_asset_pack`.""",
    attrs = {
        "images": attr.label_list(
            doc = """The images the manifest names (`.png` files below the
                manifest's directory, usually `glob(["sprites/*.png"])`). Each
                keeps its manifest-relative path, e.g. `sprites/idle.png`.""",
            allow_files = True,
        ),
        "manifest": attr.label(
            doc = "The `manifest pet 1` file, e.g. `manifest.petasset`.",
            mandatory = True,
            allow_single_file = True,
        ),
    },
    provides = [PetManifestInfo],
    toolchains = [PET_TOOLCHAIN_TYPE],
)
