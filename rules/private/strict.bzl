"""Strict mode: a check that reads a rule's warnings file (private to rules_pet).

`--//rules:strict` selects an extra action; it never changes a producing
action's command line or inputs, so strict and lenient builds share every
cached output but the stamp.
"""

load("@bazel_skylib//rules:common_settings.bzl", "BuildSettingInfo")

STRICT_ATTRS = {
    "_strict": attr.label(
        default = Label("//rules:strict"),
        providers = [BuildSettingInfo],
    ),
}

def strict_stamps(ctx, warnings, what):
    """Returns the strict check's stamp in a list, or an empty list when not strict.

    Under `--//rules:strict` the `PetStrict` action fails, printing every
    line of `warnings`, when the file is not empty; otherwise it writes
    `<name>.strict.ok`. The caller adds the returned files to its default
    outputs, so a plain `bazel build` of the target runs the check.

    Args:
      ctx: the rule context of a rule with `STRICT_ATTRS`.
      warnings: the warnings `File` (one warning a line, empty when none).
      what: what was checked, for messages, e.g. "pet_asset_pack //pkg:pack".

    Returns:
      `[stamp]` under strict, `[]` otherwise.
    """
    if not ctx.attr._strict[BuildSettingInfo].value:
        return []
    stamp = ctx.actions.declare_file(ctx.label.name + ".strict.ok")
    ctx.actions.run_shell(
        inputs = [warnings],
        outputs = [stamp],
        command = """if [ -s "$1" ]; then
    sed 's/^/error (--\\/\\/rules:strict): /' "$1" >&2
    echo "$3: warnings are errors under --//rules:strict (see $1)" >&2
    exit 1
fi
: >"$2"
""",
        arguments = [warnings.path, stamp.path, what],
        mnemonic = "PetStrict",
        progress_message = "Checking %s for warnings (--//rules:strict)" % what,
    )
    return [stamp]
