"""The C toolchain config for Debian's gcc-arm-none-eabi and newlib.

Loaded from @bazel_tools (the offline rules_cc of Bazel 4.2.3 is a stub),
which Bazel 7+ still ships. The tools are Debian's, at fixed paths under
/usr/bin; firmware/setup.sh installs them.
"""

load("@bazel_tools//tools/build_defs/cc:action_names.bzl", "ACTION_NAMES")
load(
    "@bazel_tools//tools/cpp:cc_toolchain_config_lib.bzl",
    "feature",
    "flag_group",
    "flag_set",
    "tool_path",
    "with_feature_set",
)

_PREFIX = "/usr/bin/arm-none-eabi-"

_COMPILE_ACTIONS = [
    ACTION_NAMES.assemble,
    ACTION_NAMES.preprocess_assemble,
    ACTION_NAMES.c_compile,
    ACTION_NAMES.cpp_compile,
]

_LINK_ACTIONS = [
    ACTION_NAMES.cpp_link_executable,
    ACTION_NAMES.cpp_link_dynamic_library,
    ACTION_NAMES.cpp_link_nodeps_dynamic_library,
]

# buildifier: disable=native-cc-common
def _impl(ctx):
    # Both at compile and at link time: without them the driver picks
    # newlib's default multilib, ARM-state code that faults on a Cortex-M.
    cpu_flags = ["-mcpu=" + ctx.attr.cpu, "-mthumb"]
    features = [
        feature(
            name = "cpu",
            enabled = True,
            flag_sets = [
                flag_set(actions = _COMPILE_ACTIONS + _LINK_ACTIONS, flag_groups = [flag_group(flags = cpu_flags)]),
            ],
        ),
        # One section per function and object, so the linker's
        # --gc-sections drops whatever the image never reaches.
        feature(
            name = "default_compile_flags",
            enabled = True,
            flag_sets = [
                flag_set(
                    actions = _COMPILE_ACTIONS,
                    flag_groups = [flag_group(flags = [
                        "-ffunction-sections",
                        "-fdata-sections",
                        "-fno-common",
                        # Reproducible objects wherever the checkout is.
                        "-no-canonical-prefixes",
                        "-fno-canonical-system-headers",
                        "-Wno-builtin-macro-redefined",
                        "-D__DATE__=\"redacted\"",
                        "-D__TIMESTAMP__=\"redacted\"",
                        "-D__TIME__=\"redacted\"",
                    ])],
                ),
                flag_set(
                    actions = _COMPILE_ACTIONS,
                    flag_groups = [flag_group(flags = ["-g", "-Og"])],
                    with_features = [with_feature_set(features = ["dbg"])],
                ),
                flag_set(
                    actions = _COMPILE_ACTIONS,
                    flag_groups = [flag_group(flags = ["-Os", "-DNDEBUG"])],
                    with_features = [with_feature_set(features = ["opt"])],
                ),
            ],
        ),
        feature(
            name = "default_link_flags",
            enabled = True,
            flag_sets = [
                flag_set(
                    actions = _LINK_ACTIONS,
                    flag_groups = [flag_group(flags = ["-Wl,--gc-sections", "-no-canonical-prefixes"])],
                ),
            ],
        ),
        feature(name = "dbg"),
        feature(name = "opt"),
        feature(name = "fastbuild"),
    ]
    tools = ["ar", "cpp", "gcc", "gcov", "ld", "nm", "objcopy", "objdump", "strip"]
    return cc_common.create_cc_toolchain_config_info(
        ctx = ctx,
        toolchain_identifier = "arm-none-eabi-" + ctx.attr.cpu,
        host_system_name = "x86_64-linux-gnu",
        target_system_name = "arm-none-eabi",
        target_cpu = ctx.attr.cpu,
        target_libc = "newlib",
        compiler = "gcc",
        abi_version = "eabi",
        abi_libc_version = "newlib",
        features = features,
        tool_paths = [tool_path(name = t, path = _PREFIX + t) for t in tools],
        # Prefixes: Bazel accepts a header under any of them, so a newer
        # Debian gcc (another version directory) needs no change here.
        cxx_builtin_include_directories = [
            "/usr/lib/gcc/arm-none-eabi",
            "/usr/lib/arm-none-eabi/include",
            "/usr/include/newlib",
        ],
    )

arm_none_eabi_toolchain_config = rule(
    implementation = _impl,
    doc = "A CcToolchainConfigInfo for Debian's arm-none-eabi gcc and newlib, Thumb code for one Cortex-M CPU.",
    attrs = {
        "cpu": attr.string(
            doc = "The -mcpu value, e.g. `cortex-m3`.",
            mandatory = True,
        ),
    },
    provides = [CcToolchainConfigInfo],
)
