"""Analysis tests of `pet_desktop`: the launcher, its runfiles and the failures."""

load("@bazel_skylib//lib:unittest.bzl", "analysistest", "asserts")
load("//rules:defs.bzl", "pet_desktop")

def _desktop_test_impl(ctx):
    env = analysistest.begin(ctx)
    target = analysistest.target_under_test(env)
    name = target.label.name
    exe = target[DefaultInfo].files_to_run.executable
    asserts.equals(env, "tests/rules/%s.desktop.sh" % name, exe.short_path)

    writes = [a for a in analysistest.target_actions(env) if a.mnemonic == "FileWrite"]
    asserts.equals(env, 1, len(writes))
    script = writes[0].content
    asserts.true(env, ctx.attr.want_flag in script, "the launcher passes %s: %s" % (ctx.attr.want_flag, script))
    asserts.true(env, "tools/cmd/petdesk/" in script, "the launcher runs petdesk: %s" % script)

    runfiles = [f.short_path for f in target[DefaultInfo].default_runfiles.files.to_list()]
    asserts.true(env, ctx.attr.want_data in runfiles, "%s is in the runfiles: %s" % (ctx.attr.want_data, runfiles))
    asserts.true(env, len([p for p in runfiles if p.endswith("/petdesk")]) == 1, "petdesk is in the runfiles: %s" % runfiles)
    return analysistest.end(env)

desktop_test = analysistest.make(_desktop_test_impl, attrs = {
    "want_data": attr.string(doc = "A runfile the pet needs, by short_path."),
    "want_flag": attr.string(doc = "The petdesk flag the launcher passes for the pet."),
})

def _desktop_failure_test_impl(ctx):
    env = analysistest.begin(ctx)
    asserts.expect_failure(env, ctx.attr.want_message)
    return analysistest.end(env)

desktop_failure_test = analysistest.make(_desktop_failure_test_impl, expect_failure = True, attrs = {
    "want_message": attr.string(doc = "Text the analysis error must contain."),
})

def desktop_test_suite(name):
    """Declares the `pet_desktop` fixtures and their analysis tests.

    Args:
      name: the name of the `test_suite` holding every test.
    """
    pet_desktop(name = "desktop_pack", pack = "//assets/pet:pack", tags = ["manual"])
    pet_desktop(name = "desktop_runtime", runtime_assets = "//assets/pet:runtime", scale = 2, tags = ["manual"])
    pet_desktop(name = "desktop_archive", archive = "//assets/petpack:pet_tabby", managed = True, tags = ["manual"])
    pet_desktop(name = "desktop_none", tags = ["manual"])
    pet_desktop(name = "desktop_two", pack = "//assets/pet:pack", archive = "//assets/petpack:pet_tabby", tags = ["manual"])
    pet_desktop(name = "desktop_not_a_pack", pack = "//assets/petpack:pet_tabby", tags = ["manual"])
    tests = {
        "_pack": (":desktop_pack", "--pack", "assets/pet/assets/pet.pack"),
        "_runtime": (":desktop_runtime", "--runtime", "assets/pet/assets/pet/manifest.petasset"),
        "_archive": (":desktop_archive", "--managed", "assets/petpack/pet_tabby.petpack"),
    }
    for suffix, (fixture, flag, data) in tests.items():
        desktop_test(name = name + suffix, target_under_test = fixture, want_flag = flag, want_data = data)
    failures = {
        "_none": (":desktop_none", "give exactly one of pack, runtime_assets and archive (got none)"),
        "_two": (":desktop_two", "give exactly one of pack, runtime_assets and archive (got pack, archive)"),
        "_not_a_pack": (":desktop_not_a_pack", "PetAssetPackInfo"),
    }
    for suffix, (fixture, message) in failures.items():
        desktop_failure_test(name = name + suffix, target_under_test = fixture, want_message = message)
    native.test_suite(name = name, tests = [name + s for s in tests.keys() + failures.keys()])
