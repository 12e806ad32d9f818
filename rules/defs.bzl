"""Public API of rules_pet: pet assets as ordinary Bazel targets.

This file only re-exports; the rules live in `//rules/private`. Load
everything from here:

```starlark
load(
    "@rules_pet//rules:defs.bzl",
    "pet_asset_pack",
    "pet_asset_pack_cc_library",
    "pet_asset_pack_go_library",
    "pet_asset_pack_golden_test",
    "pet_asset_set",
    "pet_bundle",
    "pet_manifest",
    "pet_runtime_assets",
    "pet_runtime_assets_test",
    "petpack_archive",
    "petpack_golden_test",
    "petpack_import",
    "petpack_player",
    "petpack_production_test",
    "petpack_qa",
    "petpack_set",
    "petpack_timing",
)
```

`pet_asset_set` and `petpack_set` declare a whole pet in a few lines;
`petpack_import` brings in a `.petpack` another producer made.

Every target these rules and macros create is tagged `rules_pet`
(`bazel query 'attr(tags, rules_pet, //...)'`): each rule is exported as a
macro of its own name that adds the tag (`rules/private/public.bzl`), so
`kind()` still names the rule.

Words: a "pack" (`pet_asset_pack*`, `PetAssetPackInfo`) is the PETP embedded
asset pack of the firmware; a "petpack" (`petpack_*`, `Petpack*Info`) is the
`.petpack` V3 archive of the desktop app. See docs/rules.md.
"""

load("//rules:providers.bzl", _PetAssetPackInfo = "PetAssetPackInfo", _PetManifestInfo = "PetManifestInfo", _PetRuntimeAssetsInfo = "PetRuntimeAssetsInfo", _PetpackInfo = "PetpackInfo", _PetpackQAInfo = "PetpackQAInfo")
load("//rules:toolchain.bzl", _PET_TOOLCHAIN_TYPE = "PET_TOOLCHAIN_TYPE", _pet_toolchain = "pet_toolchain")
load("//rules/private:bundle.bzl", _pet_bundle = "pet_bundle")
load("//rules/private:cc.bzl", _pet_asset_pack_cc_library = "pet_asset_pack_cc_library")
load("//rules/private:go.bzl", _pet_asset_pack_go_library = "pet_asset_pack_go_library")
load("//rules/private:golden.bzl", _pet_asset_pack_golden_test = "pet_asset_pack_golden_test", _petpack_golden_test = "petpack_golden_test")
load("//rules/private:motion_qa.bzl", _petpack_production_test = "petpack_production_test")
load("//rules/private:pet.bzl", _pet_asset_set = "pet_asset_set", _petpack_set = "petpack_set")
load("//rules/private:petpack.bzl", _petpack_timing = "petpack_timing")
load("//rules/private:public.bzl", _pet_asset_pack = "pet_asset_pack", _pet_desktop = "pet_desktop", _pet_manifest = "pet_manifest", _pet_runtime_assets = "pet_runtime_assets", _pet_runtime_assets_test = "pet_runtime_assets_test", _petpack_archive = "petpack_archive", _petpack_import = "petpack_import", _petpack_player = "petpack_player", _petpack_qa = "petpack_qa")

PetAssetPackInfo = _PetAssetPackInfo
PetManifestInfo = _PetManifestInfo
PetRuntimeAssetsInfo = _PetRuntimeAssetsInfo
PetpackInfo = _PetpackInfo
PetpackQAInfo = _PetpackQAInfo
PET_TOOLCHAIN_TYPE = _PET_TOOLCHAIN_TYPE

pet_asset_pack = _pet_asset_pack
pet_asset_pack_cc_library = _pet_asset_pack_cc_library
pet_asset_pack_go_library = _pet_asset_pack_go_library
pet_asset_pack_golden_test = _pet_asset_pack_golden_test
pet_asset_set = _pet_asset_set
pet_bundle = _pet_bundle
pet_desktop = _pet_desktop
pet_manifest = _pet_manifest
pet_runtime_assets = _pet_runtime_assets
pet_runtime_assets_test = _pet_runtime_assets_test
pet_toolchain = _pet_toolchain
petpack_archive = _petpack_archive
petpack_golden_test = _petpack_golden_test
petpack_import = _petpack_import
petpack_player = _petpack_player
petpack_production_test = _petpack_production_test
petpack_qa = _petpack_qa
petpack_set = _petpack_set
petpack_timing = _petpack_timing

# --- Deprecated aliases -------------------------------------------------------
# The old names of the PETP side, which a reader confused with the .petpack
# side (PetPackInfo vs PetpackInfo, pet_pack_golden_test vs
# petpack_golden_test). They are the same rules and provider under the old
# name, kept for one release and then removed; see CHANGELOG.md. Everything
# above this line is the current API; tests/rules/public_names_test.sh
# checks that no two current names differ only in case or underscores.

PetPackInfo = _PetAssetPackInfo  # deprecated: PetAssetPackInfo
pet_pack = _pet_asset_pack  # deprecated: pet_asset_pack
pet_pack_cc_library = _pet_asset_pack_cc_library  # deprecated: pet_asset_pack_cc_library
pet_pack_go_library = _pet_asset_pack_go_library  # deprecated: pet_asset_pack_go_library
pet_pack_golden_test = _pet_asset_pack_golden_test  # deprecated: pet_asset_pack_golden_test
