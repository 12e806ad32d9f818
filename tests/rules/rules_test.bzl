"""Analysis tests of rules_pet: providers, outputs, actions and failures.

Positive tests look at the canonical targets of //assets/pet; the failure
tests and the extra fixtures are targets of this package tagged `manual`, so
`bazel build //...` never builds them (analysis of them fails on purpose).
"""

load("@bazel_skylib//lib:unittest.bzl", "analysistest", "asserts")
load("//rules:defs.bzl", "PetManifestInfo", "PetPackInfo", "PetRuntimeAssetsInfo", "PetpackInfo", "PetpackQAInfo", "pet_bundle", "pet_manifest", "pet_pack", "pet_pack_cc_library", "pet_pack_go_library", "petpack_archive", "petpack_import", "petpack_player", "petpack_production_test", "petpack_qa", "petpack_timing")

_SPRITES = ["attentive", "curious", "fallback", "happy", "idle"]

def _short_paths(files):
    return sorted([f.short_path for f in files])

def _actions_with(env, mnemonic):
    return [a for a in analysistest.target_actions(env) if a.mnemonic == mnemonic]

def _flag_values(argv, flag):
    return [argv[i + 1] for i in range(len(argv) - 1) if argv[i] == flag]

# --- pet_manifest ------------------------------------------------------------

def _manifest_info_test_impl(ctx):
    env = analysistest.begin(ctx)
    target = analysistest.target_under_test(env)
    info = target[PetManifestInfo]
    asserts.equals(env, "assets/pet/manifest.petasset", info.manifest.short_path)
    asserts.true(env, info.manifest.is_source, "the manifest is the source file")
    asserts.equals(env, "assets/pet", info.asset_root)
    asserts.equals(env, ["assets/pet/sprites/%s.png" % s for s in _SPRITES], _short_paths(info.images.to_list()))
    asserts.equals(env, "assets/pet/manifest.petasset.ok", info.validation.short_path)
    asserts.false(env, info.validation.is_source, "the stamp is generated")
    asserts.equals(env, [info.validation], target[DefaultInfo].files.to_list())

    checks = _actions_with(env, "PetManifestCheck")
    asserts.equals(env, 1, len(checks), "one PetManifestCheck action")
    if checks:
        argv = checks[0].argv
        asserts.equals(env, ["manifest", "check", "--stamp", info.validation.path], argv[1:5])
        asserts.equals(env, ["sprites/%s.png" % s for s in _SPRITES], _flag_values(argv, "--declared"))
        asserts.equals(env, info.manifest.path, argv[-1], "the manifest is the last argument")
        asserts.equals(env, [info.validation], checks[0].outputs.to_list())

        # Only the manifest (and the tool): sprite pixels never rerun the check.
        inputs = [f for f in checks[0].inputs.to_list() if f.extension in ("png", "petasset")]
        asserts.equals(env, [info.manifest], inputs)
    return analysistest.end(env)

manifest_info_test = analysistest.make(_manifest_info_test_impl)

def _analysis_failure_test_impl(ctx):
    env = analysistest.begin(ctx)
    for message in [ctx.attr.message] + ctx.attr.more:
        asserts.expect_failure(env, message)
    return analysistest.end(env)

analysis_failure_test = analysistest.make(
    _analysis_failure_test_impl,
    expect_failure = True,
    attrs = {
        "message": attr.string(doc = "A part of the expected failure message.", mandatory = True),
        "more": attr.string_list(doc = "Further parts of it (a label is printed differently by Bazel 4 and 7, so give its package and name apart)."),
    },
)

# --- pet_runtime_assets ------------------------------------------------------

def _runtime_assets_test_impl(ctx):
    env = analysistest.begin(ctx)
    target = analysistest.target_under_test(env)
    want = ["assets/pet/assets/pet/manifest.petasset"] + [
        "assets/pet/assets/pet/sprites/%s.png" % s
        for s in _SPRITES
    ]
    asserts.equals(env, want, _short_paths(target[DefaultInfo].files.to_list()))
    info = target[PetRuntimeAssetsInfo]
    asserts.equals(env, "assets/pet/assets/pet", info.root)
    asserts.equals(env, "assets/pet/assets/pet/manifest.petasset", info.manifest.short_path)
    asserts.equals(env, "assets/pet/manifest.petasset", info.manifest_info.manifest.short_path)

    # One copy action per image, each reading exactly its source.
    copies = _actions_with(env, "PetRuntimeCopy")
    images = [w for w in want if w.endswith(".png")]
    asserts.equals(env, len(images), len(copies), "one PetRuntimeCopy action per image")
    pairs = sorted([
        (a.inputs.to_list()[0].short_path, a.outputs.to_list()[0].short_path)
        for a in copies
        if len(a.inputs.to_list()) == 1 and len(a.outputs.to_list()) == 1
    ])
    asserts.equals(env, sorted([(w.replace("assets/pet/assets/pet/", "assets/pet/"), w) for w in images]), pairs)

    # The manifest is copied by the check itself, which no flag can skip:
    # `petasset manifest check --copy OUT --declared IMAGE... MANIFEST`.
    checks = _actions_with(env, "PetRuntimeManifest")
    asserts.equals(env, 1, len(checks), "one PetRuntimeManifest action")
    if checks:
        argv = checks[0].argv
        asserts.equals(env, ["manifest", "check", "--copy", info.manifest.path], argv[1:5])
        asserts.equals(env, ["sprites/%s.png" % s for s in sorted(_SPRITES)], _flag_values(argv, "--declared"))
        asserts.equals(env, info.manifest_info.manifest.path, argv[-1])
        asserts.equals(env, [info.manifest], checks[0].outputs.to_list())
    return analysistest.end(env)

runtime_assets_test = analysistest.make(_runtime_assets_test_impl)

# --- pet_pack ----------------------------------------------------------------

def _pack_test_impl(ctx):
    env = analysistest.begin(ctx)
    target = analysistest.target_under_test(env)
    info = target[PetPackInfo]
    asserts.equals(env, ctx.attr.want_pack, info.pack.short_path)
    asserts.equals(env, [info.pack], target[DefaultInfo].files.to_list())
    asserts.equals(env, "assets/pet/manifest.petasset", info.manifest_info.manifest.short_path)
    asserts.equals(env, [info.warnings], target[OutputGroupInfo].warnings.to_list())

    packs = _actions_with(env, "PetPack")
    asserts.equals(env, 1, len(packs), "one PetPack action")
    if packs:
        argv = packs[0].argv

        # The action checks the manifest itself: no stamp of a separate
        # check, which Bazel 4 would not rerun, is among its inputs.
        asserts.equals(env, ["pack", "build", "--manifest", info.manifest_info.manifest.path, "--out", info.pack.path, "--warnings", info.warnings.path], argv[1:9])
        asserts.equals(env, ["sprites/%s.png" % s for s in sorted(_SPRITES)], _flag_values(argv, "--declared"))
        inputs = packs[0].inputs.to_list()
        asserts.false(env, info.manifest_info.validation in inputs, "PetPack does not wait for the manifest check's stamp")
        asserts.equals(
            env,
            ["assets/pet/sprites/%s.png" % s for s in _SPRITES],
            _short_paths([f for f in inputs if f.extension == "png"]),
        )
    return analysistest.end(env)

pack_test = analysistest.make(_pack_test_impl, attrs = {"want_pack": attr.string(doc = "The pack's expected short_path.")})

# --- --//rules:strict ----------------------------------------------------------

def _strict_pack_test_impl(ctx):
    env = analysistest.begin(ctx)
    target = analysistest.target_under_test(env)
    info = target[PetPackInfo]

    # The strict stamp joins the default outputs, so `bazel build` runs it.
    asserts.equals(env, [info.pack.short_path, "assets/pet/pack.strict.ok"], [f.short_path for f in target[DefaultInfo].files.to_list()])
    checks = _actions_with(env, "PetStrict")
    asserts.equals(env, 1, len(checks), "one PetStrict action under strict")
    if checks:
        asserts.equals(env, [info.warnings], checks[0].inputs.to_list())

    # The producing action is the lenient one, byte for byte.
    packs = _actions_with(env, "PetPack")
    if packs:
        asserts.equals(env, ["pack", "build", "--manifest", info.manifest_info.manifest.path, "--out", info.pack.path, "--warnings", info.warnings.path], packs[0].argv[1:9])
    return analysistest.end(env)

# The setting's label goes through Label() so it names this repository's
# //rules:strict under Bzlmod too, where a plain string resolves in skylib's.
strict_pack_test = analysistest.make(_strict_pack_test_impl, config_settings = {str(Label("//rules:strict")): True})

def _lenient_pack_test_impl(ctx):
    env = analysistest.begin(ctx)
    asserts.equals(env, [], _actions_with(env, "PetStrict"), "no PetStrict action without --//rules:strict")
    return analysistest.end(env)

lenient_pack_test = analysistest.make(_lenient_pack_test_impl)

# --- pet_pack_cc_library, pet_pack_go_library ---------------------------------

def _pack_cc_source_test_impl(ctx):
    env = analysistest.begin(ctx)
    target = analysistest.target_under_test(env)
    asserts.equals(env, ["assets/pet/pack_cc.c", "assets/pet/pack_cc.h"], _short_paths(target[DefaultInfo].files.to_list()))
    actions = _actions_with(env, "PetPackCc")
    asserts.equals(env, 1, len(actions), "one PetPackCc action")
    if actions:
        argv = actions[0].argv
        asserts.equals(env, ["pack", "cc"], argv[1:3])
        asserts.equals(env, ["pet_asset_pack"], _flag_values(argv, "--symbol"))
        asserts.equals(env, ["pack_cc.h"], _flag_values(argv, "--include"))
        asserts.equals(env, ["assets/pet/assets/pet.pack"], [f.short_path for f in actions[0].inputs.to_list() if f.extension == "pack"])
    return analysistest.end(env)

pack_cc_source_test = analysistest.make(_pack_cc_source_test_impl)

def _pack_go_source_test_impl(ctx):
    env = analysistest.begin(ctx)
    target = analysistest.target_under_test(env)
    asserts.equals(env, ["assets/pet/pack_go_src.go"], _short_paths(target[DefaultInfo].files.to_list()))

    # Same package: the pack is embedded where pet_pack wrote it, no copy.
    asserts.equals(env, ["assets/pet/assets/pet.pack"], _short_paths(target[OutputGroupInfo].embedsrcs.to_list()))
    writes = _actions_with(env, "FileWrite")
    asserts.equals(env, 1, len(writes), "the .go file is written at analysis, by no tool")
    if writes:
        asserts.true(env, "//go:embed assets/pet.pack\nvar Pack []byte\n" in writes[0].content, "the //go:embed line")
        asserts.true(env, "\npackage assetpack\n" in writes[0].content, "the package clause")
    return analysistest.end(env)

pack_go_source_test = analysistest.make(_pack_go_source_test_impl)

def _pack_go_source_elsewhere_test_impl(ctx):
    env = analysistest.begin(ctx)
    target = analysistest.target_under_test(env)

    # A pack of another package is copied next to the generated file.
    asserts.equals(env, ["tests/rules/pack_go_elsewhere_src/pet.pack"], _short_paths(target[OutputGroupInfo].embedsrcs.to_list()))
    copies = _actions_with(env, "PetPackGoCopy")
    asserts.equals(env, 1, len(copies), "one PetPackGoCopy action")
    if copies:
        asserts.equals(env, ["assets/pet/assets/pet.pack"], _short_paths(copies[0].inputs.to_list()))
    writes = _actions_with(env, "FileWrite")
    if writes:
        asserts.true(env, "//go:embed pack_go_elsewhere_src/pet.pack\n" in writes[0].content, "the //go:embed line")
        asserts.true(env, "\npackage elsewhere\n" in writes[0].content, "the package clause from the import path")
    return analysistest.end(env)

pack_go_source_elsewhere_test = analysistest.make(_pack_go_source_elsewhere_test_impl)

# --- petpack_archive ---------------------------------------------------------

# Held to runtime/petpack/model by //tests/actiontables.
_ACTIONS = ["idle", "thinking", "tool", "waiting", "done", "failed", "acknowledge", "drag_left", "drag_right"]

def _petpack_archive_test_impl(ctx):
    env = analysistest.begin(ctx)
    target = analysistest.target_under_test(env)
    info = target[PetpackInfo]
    asserts.equals(env, "tests/rules/pet_rules01.petpack", info.archive.short_path)
    asserts.equals(env, "pet_rules01", info.pet_id)
    asserts.equals(env, "low", info.quality)
    asserts.equals(env, [info.archive], target[DefaultInfo].files.to_list())

    actions = _actions_with(env, "PetpackArchive")
    asserts.equals(env, 1, len(actions), "one PetpackArchive action")
    if actions:
        argv = actions[0].argv
        asserts.equals(env, ["petpack", "assemble", "--spec", info.spec.path, "--out", info.archive.path], argv[1:])
        inputs = actions[0].inputs.to_list()
        asserts.true(env, info.spec in inputs, "the action reads its spec")
        asserts.equals(
            env,
            ["assets/pet/sprites/%s.png" % s for s in _SPRITES] + ["tests/rules/testdata/manifest.txt"],
            _short_paths([f for f in inputs if f.extension in ("png", "txt")]),
        )
    writes = [a for a in analysistest.target_actions(env) if a.mnemonic == "FileWrite"]
    asserts.equals(env, 1, len(writes), "the spec is written by the rule")
    if writes:
        spec = json.decode(writes[0].content)
        asserts.equals(env, _ACTIONS, [st["name"] for st in spec["states"]], "states in the contract's order")
        asserts.equals(env, None, spec["states"][0]["timing"], "idle keeps the default timing")
        asserts.equals(env, [260, 300], spec["states"][1]["timing"]["frame_durations_ms"])
        asserts.equals(env, "burst_then_idle", spec["states"][1]["timing"]["playback"]["mode"])
        asserts.equals(env, "tests/rules/testdata/manifest.txt", spec["prompt"])
        asserts.equals(env, "rules_pet-petpack_archive", spec["producer"]["generator"], "the default generator")
        asserts.equals(env, "external", spec["producer"]["provenance"], "the default provenance")
        asserts.equals(env, None, spec["producer"]["preview_only"], "preview_only left out unless given")
        asserts.equals(env, "A cat.", spec["producer"]["description"])
    return analysistest.end(env)

petpack_archive_test = analysistest.make(_petpack_archive_test_impl)

def _petpack_fixture(name, **kwargs):
    sprites = ["//assets/pet:sprites/%s.png" % s for s in _SPRITES]
    attrs = dict(
        pet_id = "pet_rules01",
        display_name = "Rules Cat",
        style = "flat",
        quality = "low",
        created_at = "2026-01-02T03:04:05Z",
        description = "A cat.",
        prompt = "testdata/manifest.txt",
        tags = ["manual"],
    )
    attrs.update({a: sprites for a in _ACTIONS})
    attrs.update(kwargs)
    petpack_archive(name = name, **attrs)

# --- petpack_qa ---------------------------------------------------------------

def _petpack_qa_test_impl(ctx):
    env = analysistest.begin(ctx)
    target = analysistest.target_under_test(env)
    info = target[PetpackQAInfo]
    asserts.equals(env, ctx.attr.want_archive or "tests/rules/pet_rules01.petpack", info.archive.short_path)
    asserts.equals(env, "tests/rules/" + target.label.name, info.dir.short_path)
    asserts.equals(env, [info.dir], target[DefaultInfo].files.to_list())

    actions = _actions_with(env, "PetpackQA")
    asserts.equals(env, 1, len(actions), "one PetpackQA action")
    if actions:
        argv = actions[0].argv
        want = ["petpack", "qa", info.archive.path, "--out", info.dir.path]
        for s in ctx.attr.want_states:
            want += ["--state", s]
        if ctx.attr.want_baseline:
            baseline = [f for f in actions[0].inputs.to_list() if f.short_path == ctx.attr.want_baseline]
            asserts.equals(env, 1, len(baseline), "the baseline archive is an input of the action")
            want += ["--baseline", baseline[0].path if baseline else ctx.attr.want_baseline]
        asserts.equals(env, want, argv[1:])
        asserts.equals(
            env,
            sorted([info.archive.short_path] + ([ctx.attr.want_baseline] if ctx.attr.want_baseline else [])),
            _short_paths([f for f in actions[0].inputs.to_list() if f.extension == "petpack"]),
            "the archives the action reads",
        )
        asserts.equals(env, [info.dir], actions[0].outputs.to_list())
    return analysistest.end(env)

petpack_qa_test = analysistest.make(_petpack_qa_test_impl, attrs = {
    "want_archive": attr.string(doc = "The audited archive's expected short_path; default the fixture's."),
    "want_baseline": attr.string(doc = "The baseline archive's expected short_path; empty for none."),
    "want_states": attr.string_list(doc = "The expected --state values, in order."),
})

# --- petpack_import ------------------------------------------------------------

def _petpack_import_test_impl(ctx):
    env = analysistest.begin(ctx)
    target = analysistest.target_under_test(env)
    info = target[PetpackInfo]
    asserts.equals(env, "tests/rules/import_tabby/pet_tabby.petpack", info.archive.short_path)
    asserts.equals(env, "pet_tabby", info.pet_id)
    asserts.equals(env, "low", info.quality)
    asserts.equals(env, None, info.spec, "no spec went in")
    asserts.equals(env, [info.archive], target[DefaultInfo].files.to_list())

    # The archive consumers read is the verifying action's own output: no
    # validation action (which Bazel 4.2.3 skips without a flag) guards it.
    actions = _actions_with(env, "PetpackImport")
    asserts.equals(env, 1, len(actions), "one PetpackImport action")
    if actions:
        argv = actions[0].argv
        script = " ".join(argv)
        asserts.true(env, "\"$tool\" petpack verify \"$tmp\"" in script, "the action runs petpack verify")
        asserts.true(env, "mv -f -- \"$tmp\" \"$out\"" in script, "the verified copy becomes the output")
        asserts.true(env, info.archive in actions[0].outputs.to_list(), "the action writes the archive")
        asserts.equals(
            env,
            ["assets/petpack/pet_tabby.petpack.golden"],
            _short_paths([f for f in actions[0].inputs.to_list() if f.short_path.startswith("assets/")]),
            "the action reads the source archive",
        )
        asserts.equals(env, ["pet_tabby", "low"], argv[-3:-1], "the identity the action checks")
    return analysistest.end(env)

petpack_import_test = analysistest.make(_petpack_import_test_impl)

# --- the suite ---------------------------------------------------------------

def _add(test, name, **kwargs):
    test(name = name, size = "small", **kwargs)
    return ":" + name

def rules_test_suite(name):
    """Declares the fixtures and analysis tests of this package.

    Args:
      name: the name of the `test_suite` holding every test.
    """
    manual = ["manual"]

    # Failure fixtures.
    pet_manifest(
        name = "not_a_petasset",
        manifest = "testdata/manifest.txt",
        images = ["testdata/set/sprites/idle.png"],
        tags = manual,
    )
    pet_manifest(
        name = "images_missing",
        manifest = "testdata/set/manifest.petasset",
        tags = manual,
    )
    pet_manifest(
        name = "images_empty",
        manifest = "testdata/set/manifest.petasset",
        images = [],
        tags = manual,
    )
    pet_manifest(
        name = "image_not_png",
        manifest = "testdata/set/manifest.petasset",
        images = [
            "testdata/set/sprites/idle.png",
            "testdata/set/sprites/notes.txt",
        ],
        tags = manual,
    )
    pet_manifest(
        name = "image_outside_asset_root",
        manifest = "testdata/set/manifest.petasset",
        images = ["//assets/pet:sprites/idle.png"],
        tags = manual,
    )
    pet_pack(
        name = "pack_out_escapes",
        manifest = "//assets/pet:manifest",
        out = "../escape.pack",
        tags = manual,
    )
    pet_pack_cc_library(
        name = "cc_bad_symbol",
        pack = "//assets/pet:pack",
        symbol = "pet-pack",
        tags = manual,
    )

    # A pack with `out` set.
    pet_pack(
        name = "pack_custom_out",
        manifest = "//assets/pet:manifest",
        out = "custom/robot.pack",
        tags = manual,
    )

    # Built by `bazel build //...` too: rules_go must accept the embed of a
    # copied pack.
    pet_pack_go_library(
        name = "pack_go_elsewhere",
        importpath = "example.com/pet/elsewhere",
        pack = "//assets/pet:pack",
    )

    _petpack_fixture(
        name = "petpack_fixture",
        timing = {"thinking": petpack_timing([260, 300], "burst_then_idle", 1, entry_repeat_count = 3)},
    )
    _petpack_fixture(name = "petpack_timing_unknown_action", timing = {"sleep": petpack_timing([100, 100], "loop", 0)})
    _petpack_fixture(name = "petpack_motion_unknown_action", motions = {"sleep": "Curls up."})
    _petpack_fixture(name = "petpack_cover_twice", cover = "//assets/pet:sprites/idle.png", cover_frame = "idle/0")

    # Motion QA of the fixture: a subset of states, and against a baseline.
    petpack_qa(name = "qa_states", archive = ":petpack_fixture", states = ["tool", "idle"], tags = manual)
    petpack_qa(name = "qa_baseline", archive = ":petpack_fixture", baseline = "//assets/petpack:pet_tabby", tags = manual)

    # The production gate with a review that a genrule writes.
    native.genrule(
        name = "generated_review",
        outs = ["generated-review.json"],
        cmd = "echo '{}' >$@",
        tags = manual,
    )
    petpack_production_test(
        name = "production_generated_review",
        archive = ":petpack_fixture",
        qa = ":qa_states",
        review = ":generated_review",
        tags = manual,
    )

    # A second archive of pet ID pet_tabby (//assets/petpack:pet_tabby is
    # the first), and a bundle of both; a bundle of none.
    _petpack_fixture(name = "petpack_tabby_twin", pet_id = "pet_tabby")
    pet_bundle(
        name = "bundle_twice",
        archives = ["//assets/petpack:pet_tabby", ":petpack_tabby_twin"],
        importpath = "example.com/pet/twice",
        tags = manual,
    )
    pet_bundle(
        name = "bundle_empty",
        archives = [],
        importpath = "example.com/pet/empty",
        tags = manual,
    )

    # A .petpack made elsewhere (the checked-in golden), its motion QA (for
    # the analysis test) and a bundle of it (built by `bazel build //...`;
    # :import_bytes_test compares the bytes). The failures of the action
    # itself (a tampered archive, a wrong pet_id) are built by
    # tests/rules/import_fails.sh, outside `bazel test`.
    golden = "//assets/petpack:pet_tabby.petpack.golden"
    petpack_import(name = "import_tabby", src = golden, pet_id = "pet_tabby", quality = "low")
    petpack_qa(name = "import_tabby_qa", archive = ":import_tabby", states = ["idle"], tags = manual)
    pet_bundle(name = "import_bundle", archives = [":import_tabby"], importpath = "example.com/pet/imported")

    # The production gate and the player take the import like an archive:
    # the sample's checked-in review binds the import's QA report too.
    petpack_qa(name = "import_tabby_qa_all", archive = ":import_tabby")
    petpack_production_test(
        name = "import_production_test",
        size = "small",
        archive = ":import_tabby",
        qa = ":import_tabby_qa_all",
        review = "//assets/petpack:pet_tabby.motion-review.json",
    )
    petpack_player(name = "import_tabby_player", archive = ":import_tabby")
    petpack_import(name = "import_unnamed", src = golden, tags = manual)
    petpack_import(name = "import_bad_id", src = golden, pet_id = "Tabby", tags = manual)
    native.genrule(
        name = "tampered_petpack",
        srcs = [golden],
        outs = ["tampered/pet_tabby.petpack"],
        # One byte of a frame's stored data: its CRC-32 no longer matches.
        cmd = "cp $< $@ && chmod 644 $@ && printf X | dd of=$@ bs=1 seek=5000 conv=notrunc 2>/dev/null",
        tags = manual,
    )
    petpack_import(name = "import_tampered", src = ":tampered_petpack", tags = manual)
    petpack_import(name = "import_wrong_id", src = golden, pet_id = "pet_other", tags = manual)

    tests = []
    tests.append(_add(petpack_import_test, "petpack_import_test", target_under_test = ":import_tabby"))
    tests.append(_add(petpack_qa_test, "petpack_qa_import_test", target_under_test = ":import_tabby_qa", want_states = ["idle"], want_archive = "tests/rules/import_tabby/pet_tabby.petpack"))
    tests.append(_add(petpack_qa_test, "petpack_qa_states_test", target_under_test = ":qa_states", want_states = ["tool", "idle"]))
    tests.append(_add(petpack_qa_test, "petpack_qa_baseline_test", target_under_test = ":qa_baseline", want_baseline = "assets/petpack/pet_tabby.petpack"))
    tests.append(_add(petpack_archive_test, "petpack_archive_test", target_under_test = ":petpack_fixture"))
    tests.append(_add(manifest_info_test, "manifest_info_test", target_under_test = "//assets/pet:manifest"))
    tests.append(_add(runtime_assets_test, "runtime_assets_test", target_under_test = "//assets/pet:runtime"))
    tests.append(_add(pack_test, "pack_default_out_test", target_under_test = "//assets/pet:pack", want_pack = "assets/pet/assets/pet.pack"))
    tests.append(_add(pack_test, "pack_custom_out_test", target_under_test = ":pack_custom_out", want_pack = "tests/rules/custom/robot.pack"))
    tests.append(_add(strict_pack_test, "strict_pack_test", target_under_test = "//assets/pet:pack"))
    tests.append(_add(lenient_pack_test, "lenient_pack_test", target_under_test = "//assets/pet:pack"))
    tests.append(_add(pack_cc_source_test, "pack_cc_source_test", target_under_test = "//assets/pet:pack_cc_src"))
    tests.append(_add(pack_go_source_test, "pack_go_source_test", target_under_test = "//assets/pet:pack_go_src"))
    tests.append(_add(pack_go_source_elsewhere_test, "pack_go_source_elsewhere_test", target_under_test = ":pack_go_elsewhere_src"))

    for fixture, message in [
        ("not_a_petasset", "manifest tests/rules/testdata/manifest.txt is not a .petasset file"),
        ("images_missing", "images is empty: list every .png the manifest names"),
        ("images_empty", "images is empty: list every .png the manifest names"),
        ("image_not_png", "image tests/rules/testdata/set/sprites/notes.txt is not a .png file"),
        ("image_outside_asset_root", "image assets/pet/sprites/idle.png is outside the manifest's directory tests/rules/testdata/set"),
        ("pack_out_escapes", "out \"../escape.pack\" must be a path below the package"),
        ("cc_bad_symbol_src", "symbol \"pet-pack\" is not a C identifier"),
        ("petpack_timing_unknown_action", "timing names \"sleep\", which is not one of the nine actions"),
        ("petpack_motion_unknown_action", "motions names \"sleep\", which is not one of the nine actions"),
        ("petpack_cover_twice", "give cover or cover_frame, not both"),
        ("production_generated_review", "review tests/rules/generated-review.json must be a checked-in source file"),
        ("production_generated_review.update", "review tests/rules/generated-review.json must be a checked-in source file"),
        ("bundle_empty_gen", "tests/rules:bundle_empty_gen: archives is empty"),
        ("import_unnamed", "src assets/petpack/pet_tabby.petpack.golden is not named <pet_id>.petpack"),
        ("import_bad_id", "pet_id \"Tabby\" is not a manifest id"),
    ]:
        tests.append(_add(analysis_failure_test, fixture + "_fails_test", target_under_test = ":" + fixture, message = message))
    tests.append(_add(
        analysis_failure_test,
        "bundle_twice_gen_fails_test",
        target_under_test = ":bundle_twice_gen",
        message = "tests/rules:bundle_twice_gen: pet ID pet_tabby is bundled twice (",
        more = ["assets/petpack:pet_tabby and ", "tests/rules:petpack_tabby_twin)"],
    ))

    native.test_suite(name = name, tests = tests)
