"""Repository macros for WORKSPACE users of rules_pet.

Bzlmod users get the same dependencies from MODULE.bazel (`bazel_dep`) and
need nothing from this file.
"""

load("@bazel_tools//tools/build_defs/repo:http.bzl", "http_archive")
load("@bazel_tools//tools/build_defs/repo:utils.bzl", "maybe")

def rules_pet_dependencies():
    """Declares the external repositories that rules_pet's rules need.

    Call it near the top of WORKSPACE, before loading anything from
    `@io_bazel_rules_go` or `@bazel_gazelle`:

        load("@rules_pet//rules:repositories.bzl", "rules_pet_dependencies")

        rules_pet_dependencies()

    It declares, each only if the workspace has not declared it already
    (`maybe`): `io_bazel_rules_go` v0.34.0, `bazel_gazelle` v0.26.0,
    `bazel_skylib` 1.0.3 and `platforms` 0.0.2. rules_go v0.34 is the newest
    release that still accepts Bazel 4.2; skylib and platforms are the
    versions Bazel 4.2.3 itself bundles (and Debian packages). The caller then
    runs `go_rules_dependencies()`, registers a Go toolchain and calls
    `gazelle_dependencies()` as usual.
    """
    maybe(
        http_archive,
        name = "io_bazel_rules_go",
        sha256 = "16e9fca53ed6bd4ff4ad76facc9b7b651a89db1689a2877d6fd7b82aa824e366",
        urls = [
            "https://mirror.bazel.build/github.com/bazelbuild/rules_go/releases/download/v0.34.0/rules_go-v0.34.0.zip",
            "https://github.com/bazelbuild/rules_go/releases/download/v0.34.0/rules_go-v0.34.0.zip",
        ],
    )
    maybe(
        http_archive,
        name = "bazel_gazelle",
        sha256 = "501deb3d5695ab658e82f6f6f549ba681ea3ca2a5fb7911154b5aa45596183fa",
        urls = [
            "https://mirror.bazel.build/github.com/bazelbuild/bazel-gazelle/releases/download/v0.26.0/bazel-gazelle-v0.26.0.tar.gz",
            "https://github.com/bazelbuild/bazel-gazelle/releases/download/v0.26.0/bazel-gazelle-v0.26.0.tar.gz",
        ],
    )
    maybe(
        http_archive,
        name = "bazel_skylib",
        sha256 = "1c531376ac7e5a180e0237938a2536de0c54d93f5c278634818e0efc952dd56c",
        urls = [
            "https://mirror.bazel.build/github.com/bazelbuild/bazel-skylib/releases/download/1.0.3/bazel-skylib-1.0.3.tar.gz",
            "https://github.com/bazelbuild/bazel-skylib/releases/download/1.0.3/bazel-skylib-1.0.3.tar.gz",
        ],
    )
    maybe(
        http_archive,
        name = "platforms",
        sha256 = "48a2d8d343863989c232843e01afc8a986eb8738766bfd8611420a7db8f6f0c3",
        urls = [
            "https://mirror.bazel.build/github.com/bazelbuild/platforms/releases/download/0.0.2/platforms-0.0.2.tar.gz",
            "https://github.com/bazelbuild/platforms/releases/download/0.0.2/platforms-0.0.2.tar.gz",
        ],
    )

# buildifier: disable=unnamed-macro
def rules_pet_register_toolchains():
    """Registers rules_pet's default petasset toolchain (WORKSPACE users).

    The default builds `petasset` from source with rules_go
    (`@rules_pet//rules/toolchain:from_source`). Call it after
    `go_register_toolchains()`:

        load("@rules_pet//rules:repositories.bzl", "rules_pet_register_toolchains")

        rules_pet_register_toolchains()

    To use a prebuilt `petasset` instead, register your own `toolchain()` of
    type `@rules_pet//rules/toolchain:type` before this call (see
    `@rules_pet//rules:toolchain.bzl`), or do not call it at all. Bzlmod users
    need nothing: rules_pet's MODULE.bazel registers the same toolchain.
    """
    native.register_toolchains(str(Label("//rules/toolchain:from_source")))
