"""The petasset toolchain: how pet rules find the `petasset` tool.

Every pet rule resolves the tool through the toolchain type
`@rules_pet//rules/toolchain:type` rather than through a fixed label, so a
team can swap the default (built from source with rules_go, see
`//rules/toolchain:BUILD.bazel`) for a prebuilt binary:

```starlark
# BUILD.bazel in your repository
load("@rules_pet//rules:toolchain.bzl", "pet_toolchain")

pet_toolchain(
    name = "petasset_prebuilt",
    petasset = "@petasset_linux_amd64//:petasset",  # an executable file
)

toolchain(
    name = "petasset_prebuilt_toolchain",
    exec_compatible_with = [
        "@platforms//os:linux",
        "@platforms//cpu:x86_64",
    ],
    toolchain = ":petasset_prebuilt",
    toolchain_type = "@rules_pet//rules/toolchain:type",
)
```

and register `//:petasset_prebuilt_toolchain` before rules_pet's own (in
WORKSPACE: before `rules_pet_register_toolchains()`; with Bzlmod:
`register_toolchains` in your MODULE.bazel, which takes precedence over the
ones a dependency registers).
"""

# The label of the petasset toolchain type, `@rules_pet//rules/toolchain:type`,
# as a string: put it in a rule's `toolchains` and read the tool from
# `ctx.toolchains[PET_TOOLCHAIN_TYPE]` (see `pet_toolchain`).
PET_TOOLCHAIN_TYPE = str(Label("//rules/toolchain:type"))

def _pet_toolchain_impl(ctx):
    default = ctx.attr.petasset[DefaultInfo]
    return [platform_common.ToolchainInfo(
        petasset = default.files_to_run,
        petasset_runfiles = default.default_runfiles,
    )]

pet_toolchain = rule(
    implementation = _pet_toolchain_impl,
    doc = """Declares a `petasset` executable as a toolchain of type
`@rules_pet//rules/toolchain:type`.

Provides `platform_common.ToolchainInfo` with two fields:

- `petasset`: the tool's `FilesToRunProvider`; pass it as `executable` to
  `ctx.actions.run`.
- `petasset_runfiles`: the tool's runfiles, for test rules that run the tool
  from their own runfiles.

Wrap it in a native `toolchain()` and register that.""",
    attrs = {
        "petasset": attr.label(
            doc = """The `petasset` executable: a `go_binary` (the default
                toolchain uses `@rules_pet//tools/cmd/petasset`) or a prebuilt
                executable file. Built for the execution platform.""",
            mandatory = True,
            executable = True,
            cfg = "exec",
            allow_files = True,
        ),
    },
)
