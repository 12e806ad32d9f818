"""Providers of rules_pet: what one pet rule hands to the next.

`PetManifestInfo` comes from `pet_manifest`; `PetAssetPackInfo` from `pet_asset_pack`.
Load them through `//rules:defs.bzl`, the public API, which re-exports them.
"""

PetManifestInfo = provider(
    doc = """A validated `manifest pet 1` and the images it names.

Produced by `pet_manifest`. The images keep their manifest-relative paths
below `asset_root`, so a consumer stages them as `<image path minus
asset_root>`; the manifest contract (section 7) resolves image paths against
the manifest's own directory.""",
    fields = {
        "asset_root": """String: the manifest's directory as a runfiles-style
            path (`File.short_path`, `""` at a repository root, `../repo/...`
            in an external repository), e.g. `assets/pet`. Every image lies
            below it.""",
        "images": "Depset of Files: the `.png` images given to `pet_manifest`, all below `asset_root`.",
        "manifest": "File: the `.petasset` manifest.",
        "validation": """File: the stamp written by the `PetManifestCheck` action
            (`petasset manifest check`). Add it to the inputs of any action that
            must run only on an accepted manifest.""",
    },
)

PetAssetPackInfo = provider(
    doc = "A PETP embedded pack built by `pet_asset_pack` from a `PetManifestInfo`.",
    fields = {
        "manifest_info": "PetManifestInfo: the manifest and images the pack was built from.",
        "pack": "File: the pack (`assets/pet.pack` below the package's output directory unless `out` says otherwise).",
        "warnings": "File: the `PetPack` action's warnings, one `FILE[:LINE]: RULE: message` a line; empty when there are none.",
    },
)

PetRuntimeAssetsInfo = provider(
    doc = """A runtime copy of an asset set (manifest contract section 11),
produced by `pet_runtime_assets`.""",
    fields = {
        "files": "Depset of Files: the copied manifest and images.",
        "manifest": "File: the copied manifest, `<root>/manifest.petasset`.",
        "manifest_info": "PetManifestInfo: the source set the copy was made from.",
        "root": """String: the runfiles-style path (`short_path`) of the
            copy's directory, e.g. `assets/pet/assets/pet`; the desktop reader
            is pointed at it.""",
    },
)

PetpackInfo = provider(
    doc = """A validated `.petpack` V3 archive, built by `petpack_archive` or verified by `petpack_import`.""",
    fields = {
        "archive": "File: the archive, `<pet_id>.petpack` in the package's output directory (`<name>/<pet_id>.petpack` for `petpack_import`); the action that wrote it (`PetpackArchive`, `PetpackImport`) validated it before publishing it.",
        "pet_id": "String: the manifest `id`, the package's logical identity (`^pet_[a-z0-9]+$`).",
        "quality": "String: `low`, `standard` or `high`; every frame is that tier's exact canvas (192x208, 384x416, 576x624). None for a `petpack_import` not given `quality`.",
        "spec": "File: the JSON spec the action read (every input by its path); for tools that want to know what went in. None for `petpack_import`.",
    },
)

PetpackQAInfo = provider(
    doc = "A motion-QA directory made by `petpack_qa` (`apc.pet-motion-qa.v1`).",
    fields = {
        "archive": "File: the `.petpack` the QA audited.",
        "dir": "File (a directory): `report.json`, `keyframes.png`, `previews/`, `frames/` and `index.html`.",
    },
)
