"""pet_bundle: a closed bundled pet inventory and its seed binary."""

load("@io_bazel_rules_go//go:def.bzl", "go_binary", "go_library")
load("//rules:providers.bzl", "PetpackInfo")
load(":tags.bzl", "with_tag")

def _pet_bundle_gen_impl(ctx):
    lib = ctx.actions.declare_file(ctx.label.name + "/inventory.go")
    main = ctx.actions.declare_file(ctx.label.name + "/seed_main.go")
    copies = []
    args = ctx.actions.args()
    args.add("--package", ctx.attr.package_name or ctx.attr.importpath.split("/")[-1].replace("-", "_").replace(".", "_"))
    args.add("--importpath", ctx.attr.importpath)
    args.add("--workspace", ctx.workspace_name)
    args.add("--lib", lib)
    args.add("--main", main)
    seen = {}
    entries = []
    for a in ctx.attr.archives:
        info = a[PetpackInfo]
        if info.pet_id in seen:
            fail("%s: pet ID %s is bundled twice (%s and %s)" % (ctx.label, info.pet_id, seen[info.pet_id], a.label))
        seen[info.pet_id] = a.label
        copy = ctx.actions.declare_file(ctx.label.name + "/files/" + info.pet_id + ".petpack")
        copies.append(copy)
        entries.append("%s=%s=%s" % (info.pet_id, info.archive.path, copy.path))
    if not copies:
        fail("%s: archives is empty" % ctx.label)

    # The flags come before the entries: the tool's flag parsing stops at
    # the first positional argument.
    args.add("--dir", copies[0].short_path.rpartition("/")[0])
    args.add_all(entries)
    ctx.actions.run(
        executable = ctx.executable._petbundle,
        arguments = [args],
        inputs = [a[PetpackInfo].archive for a in ctx.attr.archives],
        outputs = [lib, main] + copies,
        mnemonic = "PetBundle",
        progress_message = "Writing the bundled inventory %s" % ctx.label,
    )
    return [
        DefaultInfo(files = depset(copies), runfiles = ctx.runfiles(files = copies)),
        OutputGroupInfo(inventory = depset([lib]), seed_main = depset([main])),
    ]

pet_bundle_gen = rule(
    implementation = _pet_bundle_gen_impl,
    doc = """The `PetBundle` action of `pet_bundle`: the archives copied to
`<name>/files/<id>.petpack` (the default output and runfiles), the inventory
library's source (output group `inventory`) and the seed binary's main
(output group `seed_main`).""",
    attrs = {
        "archives": attr.label_list(
            doc = "`petpack_archive` or `petpack_import` targets; each pet ID at most once.",
            mandatory = True,
            providers = [PetpackInfo],
        ),
        "importpath": attr.string(
            doc = "The inventory library's Go import path.",
            mandatory = True,
        ),
        "package_name": attr.string(
            doc = "The inventory library's Go package name; default: the last element of `importpath`.",
        ),
        "_petbundle": attr.label(
            default = Label("//tools/cmd/petbundle"),
            executable = True,
            cfg = "exec",
        ),
    },
)

def pet_bundle(name, archives, importpath, package_name = None, **kwargs):
    """A closed inventory of bundled pets and the binary that seeds it.

    Creates `<name>` (a `go_library` at `importpath`: `Pets`, the IDs and
    SHA-256 digests of the archives), `<name>_seed` (a `go_binary` over
    `runtime/library`: `bazel run //pkg:<name>_seed -- --root ROOT
    [--from DIR]`, carrying the archives in its runfiles) and `<name>_gen`
    (the action writing both). The generic `petasset` binary has no
    inventory and no seed verb: only the build that made the archives can
    say which pets are bundled.

    Args:
      name: the inventory library's name.
      archives: `petpack_archive` or `petpack_import` targets.
      importpath: the inventory library's Go import path (it exists only in
        Bazel builds, like `pet_asset_pack_go_library`'s).
      package_name: its Go package name; default the last element of
        `importpath`.
      **kwargs: `visibility`, `tags`, passed to every target.
    """
    kwargs = with_tag(kwargs)
    pet_bundle_gen(
        name = name + "_gen",
        archives = archives,
        importpath = importpath,
        package_name = package_name,
        **kwargs
    )
    native.filegroup(
        name = name + "_inventory_src",
        srcs = [":" + name + "_gen"],
        output_group = "inventory",
        **kwargs
    )
    native.filegroup(
        name = name + "_seed_src",
        srcs = [":" + name + "_gen"],
        output_group = "seed_main",
        **kwargs
    )
    go_library(
        name = name,
        srcs = [":" + name + "_inventory_src"],
        importpath = importpath,
        deps = [Label("//runtime/library")],
        **kwargs
    )
    go_binary(
        name = name + "_seed",
        srcs = [":" + name + "_seed_src"],
        data = [":" + name + "_gen"],
        deps = [
            ":" + name,
            Label("//runtime/library/bundleseed"),
        ],
        **kwargs
    )
