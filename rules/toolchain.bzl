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

load("//rules/private:tags.bzl", "with_tag")
load("//rules/private:toolchain.bzl", _pet_toolchain = "pet_toolchain")

# The label of the petasset toolchain type, `@rules_pet//rules/toolchain:type`,
# as a string: put it in a rule's `toolchains` and read the tool from
# `ctx.toolchains[PET_TOOLCHAIN_TYPE]` (see `pet_toolchain`).
PET_TOOLCHAIN_TYPE = str(Label("//rules/toolchain:type"))

def pet_toolchain(name, **kwargs):
    """The `pet_toolchain` rule (rules/private/toolchain.bzl) with the `rules_pet` tag added.

    Args:
      name: the target's name.
      **kwargs: the rule's attributes (`petasset`) and common ones (`tags`,
        `visibility`, ...).
    """
    _pet_toolchain(name = name, **with_tag(kwargs))
