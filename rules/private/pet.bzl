"""Whole-pet macros: an asset set (`pet_asset_set`) or a `.petpack` pet (`petpack_set`) in a few lines."""

load(":cc.bzl", "pet_asset_pack_cc_library")
load(":go.bzl", "pet_asset_pack_go_library")
load(":golden.bzl", "golden_or_missing")
load(":motion_qa.bzl", "production_or_missing")
load(":petpack.bzl", "ACTIONS")
load(":public.bzl", "pet_asset_pack", "pet_desktop", "pet_manifest", "pet_runtime_assets", "pet_runtime_assets_test", "petpack_archive", "petpack_player", "petpack_qa")
load(":tags.bzl", "tagged")

def _overlap(a, b):
    return a == b or a.startswith(b + "/") or b.startswith(a + "/")

def check_collisions(macro, name, outputs = {}, prefixes = {}):
    """Fails at loading time when an output or prefix collides with an earlier target's.

    Bazel reports two rules writing one file only when both are built, and a
    rule cannot see its siblings; a macro can, through
    `native.existing_rules()`. Only targets declared earlier in the BUILD
    file are seen.

    Args:
      macro: the macro's name and target, for the message.
      name: the target that will write `outputs` (skipped when found).
      outputs: kind -> output path below the package, e.g.
        `{"pet_asset_pack": "pet.pack"}`.
      prefixes: kind -> runtime-copy directory below the package.
    """
    for r in native.existing_rules().values():
        kind = r["kind"]
        if r["name"] == name:
            continue
        other = None
        if kind == "pet_asset_pack":
            other = r.get("out") or "assets/pet.pack"
        elif kind == "petpack_archive":
            other = r.get("out") or r.get("pet_id", "") + ".petpack"
        if other != None:
            for want in outputs.values():
                if want == other:
                    fail("%s %s: its output %s collides with that of %s :%s; give one of them another name" % (macro, name, want, kind, r["name"]))
        if kind == "pet_runtime_assets":
            other = (r.get("prefix") or "assets/pet").strip("/")
            for want in prefixes.values():
                if _overlap(want, other):
                    fail("%s %s: its runtime copy %s/ collides with that of pet_runtime_assets :%s (%s/); give one of them another prefix" % (macro, name, want, r["name"], other))

def pet_asset_set(
        name,
        manifest = "manifest.petasset",
        images = None,
        prefix = None,
        golden = None,
        cc_symbol = None,
        go_importpath = None,
        visibility = None,
        tags = None):
    """A whole PETP asset set: manifest, runtime copy, pack, golden and embeddings.

    Creates, with names derived from `name`:

    - `<name>_manifest`: `pet_manifest` of `manifest` and `images`;
    - `<name>_runtime` and `<name>_runtime_test`: the runtime copy in
      `<prefix>/` below the package's output directory, and its test;
    - `<name>_pack`: `pet_asset_pack`, written to `<name>.pack`;
    - `<name>_golden` (and `<name>_golden.update`): the golden test against
      `<golden>`; when that file is not checked in yet, a test that fails
      printing `bazel run //pkg:<name>_golden.update`, which creates it;
    - `<name>_cc`: `pet_asset_pack_cc_library` (`#include "pkg/<name>_cc.h"`);
    - `<name>_go`: `pet_asset_pack_go_library`, when `go_importpath` is given;
    - `<name>_desktop`: `pet_desktop` of the pack (`bazel run` shows it).

    Every target is tagged `rules_pet`. At loading time the macro fails when
    the pack's output or the runtime prefix collides with one of a target
    declared earlier in the package, naming both.

    Args:
      name: the set's name, e.g. `fox`.
      manifest: the `.petasset` file; default `manifest.petasset`.
      images: the images it names; default every `.png` below the
        manifest's directory's `sprites/`.
      prefix: the runtime copy's directory; default `name`.
      golden: the checked-in golden pack; default `<name>.pack.golden`.
      cc_symbol: the C array's name; default `<name>_pack`.
      go_importpath: the Go import path of the embedding; no Go library
        without it.
      visibility: for every target.
      tags: added to every target, after `rules_pet`.
    """
    tags = tagged(tags)
    prefix = (prefix or name).strip("/")
    pack_out = name + ".pack"
    check_collisions("pet_asset_set", name + "_pack", outputs = {"pack": pack_out})
    check_collisions("pet_asset_set", name + "_runtime", prefixes = {"runtime": prefix})
    if images == None:
        mdir = manifest.rpartition("/")[0]
        images = native.glob([(mdir + "/" if mdir else "") + "sprites/*.png"])
    common = {"tags": tags, "visibility": visibility}
    pet_manifest(name = name + "_manifest", manifest = manifest, images = images, **common)
    pet_runtime_assets(name = name + "_runtime", manifest = ":" + name + "_manifest", prefix = prefix, **common)
    pet_runtime_assets_test(name = name + "_runtime_test", size = "small", assets = ":" + name + "_runtime", **common)
    pet_asset_pack(name = name + "_pack", manifest = ":" + name + "_manifest", out = pack_out, **common)
    golden_or_missing(name + "_golden", ":" + name + "_pack", golden or pack_out + ".golden", dict(size = "small", **common))
    pet_asset_pack_cc_library(name = name + "_cc", pack = ":" + name + "_pack", symbol = cc_symbol or name + "_pack", **common)
    if go_importpath:
        pet_asset_pack_go_library(name = name + "_go", pack = ":" + name + "_pack", importpath = go_importpath, **common)
    pet_desktop(name = name + "_desktop", pack = ":" + name + "_pack", **common)

def petpack_set(
        name,
        pet_id,
        quality,
        frames = "frames",
        golden = None,
        review = None,
        visibility = None,
        tags = None,
        **kwargs):
    """A whole `.petpack` pet: archive, golden, motion QA, production gate and player.

    Creates, with names derived from `name`:

    - `<name>`: `petpack_archive` written to `<name>.petpack`, each action's
      frames from `<frames>/<action>/*.png` (sorted: the playing order);
    - `<name>_golden` (and `.update`): the golden test against `<golden>`, or,
      when that is not checked in yet, a test that fails printing the update
      command that creates it;
    - `<name>_qa`: `petpack_qa`;
    - `<name>_production` (and `.update`): `petpack_production_test` against
      `<review>`, or, when that is not checked in yet, a test that fails
      printing the update command that writes it;
    - `<name>_player`: `petpack_player`;
    - `<name>_desktop`: `pet_desktop` of the archive (`bazel run` shows it).

    Every target is tagged `rules_pet`. At loading time the macro fails when
    the archive's output collides with that of an earlier target in the
    package, naming both.

    Args:
      name: the pet's target name; the archive is `<name>.petpack`.
      pet_id: the manifest `id`.
      quality: `low`, `standard` or `high`.
      frames: the directory holding one folder of frames per action.
      golden: the checked-in golden archive; default `<name>.petpack.golden`.
      review: the checked-in motion review; default `<name>.motion-review.json`.
      visibility: for every target.
      tags: added to every target, after `rules_pet`.
      **kwargs: the other attributes of `petpack_archive` (`display_name`,
        `created_at`, `prompt`, `style`, `timing`, ...).
    """
    tags = tagged(tags)
    out = name + ".petpack"
    check_collisions("petpack_set", name, outputs = {"archive": out})
    common = {"tags": tags, "visibility": visibility}
    action_frames = {a: native.glob([frames + "/" + a + "/*.png"]) for a in ACTIONS}
    kwargs.update(action_frames)
    petpack_archive(name = name, pet_id = pet_id, quality = quality, out = out, **dict(kwargs, **common))
    golden_or_missing(name + "_golden", ":" + name, golden or out + ".golden", dict(size = "small", **common))
    petpack_qa(name = name + "_qa", archive = ":" + name, **common)
    production_or_missing(name + "_production", ":" + name, ":" + name + "_qa", review or name + ".motion-review.json", dict(size = "small", **common))
    petpack_player(name = name + "_player", archive = ":" + name, **common)
    pet_desktop(name = name + "_desktop", archive = ":" + name, **common)
