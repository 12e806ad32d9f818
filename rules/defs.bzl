"""Public API of rules_pet: pet assets as ordinary Bazel targets.

This file only re-exports; the rules live in `//rules/private`. Load
everything from here:

```starlark
load(
    "@rules_pet//rules:defs.bzl",
    "pet_bundle",
    "pet_manifest",
    "pet_pack",
    "pet_pack_cc_library",
    "pet_pack_golden_test",
    "pet_pack_go_library",
    "pet_runtime_assets",
    "pet_runtime_assets_test",
    "petpack_archive",
    "petpack_golden_test",
    "petpack_production_test",
    "petpack_qa",
    "petpack_player",
    "petpack_timing",
)
```

See the README ("Using the rules") for every rule, attribute and provider.
"""

load("//rules:providers.bzl", _PetManifestInfo = "PetManifestInfo", _PetPackInfo = "PetPackInfo", _PetRuntimeAssetsInfo = "PetRuntimeAssetsInfo", _PetpackInfo = "PetpackInfo", _PetpackQAInfo = "PetpackQAInfo")
load("//rules:toolchain.bzl", _PET_TOOLCHAIN_TYPE = "PET_TOOLCHAIN_TYPE", _pet_toolchain = "pet_toolchain")
load("//rules/private:bundle.bzl", _pet_bundle = "pet_bundle")
load("//rules/private:cc.bzl", _pet_pack_cc_library = "pet_pack_cc_library")
load("//rules/private:go.bzl", _pet_pack_go_library = "pet_pack_go_library")
load("//rules/private:golden.bzl", _pet_pack_golden_test = "pet_pack_golden_test", _petpack_golden_test = "petpack_golden_test")
load("//rules/private:manifest.bzl", _pet_manifest = "pet_manifest")
load("//rules/private:motion_qa.bzl", _petpack_production_test = "petpack_production_test", _petpack_qa = "petpack_qa")
load("//rules/private:pack.bzl", _pet_pack = "pet_pack")
load("//rules/private:petpack.bzl", _petpack_archive = "petpack_archive", _petpack_timing = "petpack_timing")
load("//rules/private:petpack_player.bzl", _petpack_player = "petpack_player")
load("//rules/private:runtime_assets.bzl", _pet_runtime_assets = "pet_runtime_assets", _pet_runtime_assets_test = "pet_runtime_assets_test")

PetManifestInfo = _PetManifestInfo
PetPackInfo = _PetPackInfo
PetRuntimeAssetsInfo = _PetRuntimeAssetsInfo
PetpackInfo = _PetpackInfo
PetpackQAInfo = _PetpackQAInfo
PET_TOOLCHAIN_TYPE = _PET_TOOLCHAIN_TYPE

pet_bundle = _pet_bundle
pet_manifest = _pet_manifest
pet_runtime_assets = _pet_runtime_assets
pet_runtime_assets_test = _pet_runtime_assets_test
pet_pack = _pet_pack
pet_pack_golden_test = _pet_pack_golden_test
pet_pack_cc_library = _pet_pack_cc_library
pet_pack_go_library = _pet_pack_go_library
pet_toolchain = _pet_toolchain
petpack_archive = _petpack_archive
petpack_golden_test = _petpack_golden_test
petpack_production_test = _petpack_production_test
petpack_qa = _petpack_qa
petpack_player = _petpack_player
petpack_timing = _petpack_timing
