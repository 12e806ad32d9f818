"""The `pet_toolchain` rule (private to rules_pet; load it from `//rules:toolchain.bzl`).

It lives here so that `//rules:toolchain.bzl` can export a macro of the same
name that adds the `rules_pet` tag, while `kind()` still says `pet_toolchain`.
"""

def _pet_toolchain_impl(ctx):
    default = ctx.attr.petasset[DefaultInfo]
    return [
        platform_common.ToolchainInfo(
            petasset = default.files_to_run,
            petasset_runfiles = default.default_runfiles,
        ),
        # `bazel build` of the toolchain builds the tool as the pet rules
        # use it, for the execution platform (tests/integration/cache_test.sh
        # takes it from a shared disk cache that way).
        DefaultInfo(files = default.files),
    ]

pet_toolchain = rule(
    implementation = _pet_toolchain_impl,
    doc = """Declares a `petasset` executable as a toolchain of type
`@rules_pet//rules/toolchain:type`.

Provides `platform_common.ToolchainInfo` with two fields:

- `petasset`: the tool's `FilesToRunProvider`; pass it as `executable` to
  `ctx.actions.run`.
- `petasset_runfiles`: the tool's runfiles, for test rules that run the tool
  from their own runfiles.

Building the target builds the tool for the execution platform (its
default outputs are the tool's). Wrap it in a native `toolchain()` and
register that.""",
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
