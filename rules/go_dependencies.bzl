"""The Go modules rules_pet's tools are built from (WORKSPACE users).

Its own file because it loads `@bazel_gazelle`, which only exists once
`rules_pet_dependencies()` (in `repositories.bzl`) has declared it: a
WORKSPACE loads this file after that call. Bzlmod users need nothing from
here: rules_pet's MODULE.bazel takes the same modules from its go.mod.
"""

load("@bazel_gazelle//:deps.bzl", "go_repository")
load("@bazel_tools//tools/build_defs/repo:utils.bzl", "maybe")

# The versions of go.mod; tools/test.sh checks that the two agree.
GO_MODULES = {
    "org_golang_x_image": struct(
        importpath = "golang.org/x/image",
        # The last release whose go.mod accepts Go 1.19 (rules_go v0.34's SDK).
        version = "v0.24.0",
        sum = "h1:AN7zRgVsbvmTfNyqIbbOraYL8mSwcKncEj8ofjgzcMQ=",
    ),
}

def rules_pet_go_dependencies():
    """Declares the Go modules the petasset tool imports.

    `petasset` decodes the WebP previews of `.petpack` archives with
    `golang.org/x/image/webp`, so a workspace that builds the toolchain from
    source needs that module as `@org_golang_x_image`. Call it after
    `rules_pet_dependencies()` and before `gazelle_dependencies()` (which
    `go_repository` needs, and which would otherwise declare older versions
    of some modules first):

        load("@rules_pet//rules:go_dependencies.bzl", "rules_pet_go_dependencies")

        rules_pet_go_dependencies()

        gazelle_dependencies(go_sdk = "go_sdk")

    Each module is declared only if the workspace has not declared it
    already (`maybe`), so a workspace may pin its own version.
    """
    for name, m in GO_MODULES.items():
        maybe(
            go_repository,
            name = name,
            importpath = m.importpath,
            sum = m.sum,
            version = m.version,
        )
