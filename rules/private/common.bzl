"""Helpers shared by the pet rules (private to rules_pet)."""

load("//rules:toolchain.bzl", "PET_TOOLCHAIN_TYPE")

def petasset_tool(ctx):
    """Returns the resolved petasset toolchain's ToolchainInfo.

    Args:
      ctx: the rule context of a rule with `toolchains = [PET_TOOLCHAIN_TYPE]`.

    Returns:
      The `platform_common.ToolchainInfo` of `pet_toolchain`.
    """
    return ctx.toolchains[PET_TOOLCHAIN_TYPE]

def dirname(path):
    """Returns the directory part of a slash-separated path ("" for none).

    Args:
      path: a path such as `assets/pet/manifest.petasset`.

    Returns:
      The path up to its last slash, e.g. `assets/pet`.
    """
    i = path.rfind("/")
    return path[:i] if i >= 0 else ""

def relative_to(path, root):
    """Returns `path` relative to the directory `root`, or None if outside.

    Args:
      path: a slash-separated path.
      root: a directory path, "" for the top.

    Returns:
      The remainder of `path` below `root`, or None.
    """
    if root == "":
        return path
    if path.startswith(root + "/"):
        return path[len(root) + 1:]
    return None

def manifest_relative_paths(manifest_info):
    """Lists the images of a PetManifestInfo with their manifest-relative paths.

    Args:
      manifest_info: a `PetManifestInfo`.

    Returns:
      A list of `(File, "sprites/idle.png")` pairs sorted by the path.
    """
    by_path = {}
    for image in manifest_info.images.to_list():
        by_path[relative_to(image.short_path, manifest_info.asset_root)] = image
    return [(by_path[rel], rel) for rel in sorted(by_path.keys())]

def shell_quote(s):
    """Quotes a string for a POSIX shell.

    Args:
      s: any string.

    Returns:
      `s` in single quotes, safe to paste into a script.
    """
    return "'" + s.replace("'", "'\\''") + "'"

def runfiles_path(f):
    """The path of a File relative to the main repository's runfiles directory.

    Tests and `bazel run` targets start in that directory, so this path works
    for files of the main and of external repositories alike.

    Args:
      f: a File in the runfiles.

    Returns:
      `f.short_path`, which starts with `../<repo>/` for external files.
    """
    return f.short_path

def c_identifier(name):
    """Turns a target name into a C identifier (non-alphanumerics become `_`).

    Args:
      name: a target name such as `pet-pack.cc`.

    Returns:
      A valid C identifier such as `pet_pack_cc`.
    """
    out = []
    for i in range(len(name)):
        c = name[i]
        out.append(c if c.isalnum() or c == "_" else "_")
    s = "".join(out)
    if not s or s[0].isdigit():
        s = "_" + s
    return s
