"""firmware_image: a bare-metal ELF linked with the target C toolchain, and its map file.

A cc_binary cannot declare the linker's map file as an output (and
cc_common.link on Bazel 4.2.3 takes no additional outputs), so this rule runs
the link itself, with the command line the C toolchain's features give the
"c++-link-executable" action (-mcpu, -mthumb, --gc-sections, ...), over the
static archives of its cc_library deps.
"""

load("@bazel_tools//tools/build_defs/cc:action_names.bzl", "ACTION_NAMES")
load("@bazel_tools//tools/cpp:toolchain_utils.bzl", "find_cpp_toolchain")

# cc_common and CcInfo are Bazel's own here: the offline rules_cc of Bazel
# 4.2.3 is a stub without cc/common.
# buildifier: disable=native-cc-common
# buildifier: disable=native-cc-info
def _firmware_image_impl(ctx):
    cc_toolchain = find_cpp_toolchain(ctx)
    feature_configuration = cc_common.configure_features(
        ctx = ctx,
        cc_toolchain = cc_toolchain,
        requested_features = ctx.features,
        unsupported_features = ctx.disabled_features,
    )
    elf = ctx.actions.declare_file(ctx.label.name + ".elf")
    map_file = ctx.actions.declare_file(ctx.label.name + ".map")
    script = ctx.file.linker_script

    linking_context = cc_common.merge_cc_infos(
        cc_infos = [dep[CcInfo] for dep in ctx.attr.deps],
    ).linking_context
    archives = []
    for linker_input in linking_context.linker_inputs.to_list():
        for library in linker_input.libraries:
            archive = library.static_library or library.pic_static_library
            if archive == None:
                fail("%s: %s has no static library to link" % (ctx.label, linker_input.owner))
            archives.append(archive)

    variables = cc_common.create_link_variables(
        feature_configuration = feature_configuration,
        cc_toolchain = cc_toolchain,
        # No C runtime start-up: the image brings its own (startup.c).
        user_link_flags = ["-nostartfiles", "-T", script.path, "-Wl,-Map=" + map_file.path] + ctx.attr.linkopts,
        output_file = elf.path,
        is_using_linker = True,
        is_linking_dynamic_library = False,
    )
    command_line = cc_common.get_memory_inefficient_command_line(
        feature_configuration = feature_configuration,
        action_name = ACTION_NAMES.cpp_link_executable,
        variables = variables,
    )
    env = cc_common.get_environment_variables(
        feature_configuration = feature_configuration,
        action_name = ACTION_NAMES.cpp_link_executable,
        variables = variables,
    )
    args = ctx.actions.args()
    args.add_all(command_line)

    # A group, so archives may refer to each other in any order.
    args.add("-Wl,--start-group")
    args.add_all(archives)
    args.add("-Wl,--end-group")
    ctx.actions.run(
        executable = cc_common.get_tool_for_action(
            feature_configuration = feature_configuration,
            action_name = ACTION_NAMES.cpp_link_executable,
        ),
        arguments = [args],
        env = env,
        inputs = depset(archives + [script], transitive = [cc_toolchain.all_files]),
        outputs = [elf, map_file],
        mnemonic = "FirmwareLink",
        progress_message = "Linking firmware image %s" % elf.short_path,
    )
    return [
        DefaultInfo(files = depset([elf, map_file])),
        OutputGroupInfo(elf = depset([elf]), map = depset([map_file])),
    ]

# buildifier: disable=native-cc-info
firmware_image = rule(
    implementation = _firmware_image_impl,
    doc = """Links cc_library deps into a bare-metal ELF `<name>.elf` with its linker map `<name>.map`.

Linked with `-nostartfiles` and the given linker script: one of the deps
provides the vector table and reset handler, and the script must keep them
(KEEP, EXTERN). Build it with the target's C toolchain selected, e.g.
`--config=cortex_m3`.""",
    attrs = {
        "deps": attr.label_list(
            doc = "cc_library targets whose archives make up the image.",
            providers = [CcInfo],
            mandatory = True,
        ),
        "linker_script": attr.label(
            doc = "The GNU ld script placing the image in the board's memory.",
            allow_single_file = [".ld"],
            mandatory = True,
        ),
        "linkopts": attr.string_list(
            doc = "More flags for the link, after the toolchain's.",
        ),
        "_cc_toolchain": attr.label(default = "@bazel_tools//tools/cpp:current_cc_toolchain"),
    },
    fragments = ["cpp"],
    toolchains = ["@bazel_tools//tools/cpp:toolchain_type"],
)

def _board_tools_impl(ctx):
    cc_toolchain = find_cpp_toolchain(ctx)
    return [platform_common.TemplateVariableInfo({
        "NM": cc_toolchain.nm_executable,
        "OBJCOPY": cc_toolchain.objcopy_executable,
    })]

board_tools = rule(
    implementation = _board_tools_impl,
    doc = """$(NM) and $(OBJCOPY) of the C toolchain resolved for the target platform.

On Bazel 4.2.3, `@bazel_tools//tools/cpp:current_cc_toolchain` in a genrule's
`toolchains` gives the host toolchain's tools even with C toolchain
resolution on; this rule asks the resolved toolchain itself.""",
    attrs = {
        "_cc_toolchain": attr.label(default = "@bazel_tools//tools/cpp:current_cc_toolchain"),
    },
    fragments = ["cpp"],
    toolchains = ["@bazel_tools//tools/cpp:toolchain_type"],
)
