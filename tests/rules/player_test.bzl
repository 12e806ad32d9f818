"""Analysis tests of `petpack_player`: outputs, the assembling action, runfiles and a failure."""

load("@bazel_skylib//lib:unittest.bzl", "analysistest", "asserts")
load("//rules:defs.bzl", "petpack_player")

def _player_test_impl(ctx):
    env = analysistest.begin(ctx)
    target = analysistest.target_under_test(env)
    files = sorted([f.short_path for f in target[DefaultInfo].files.to_list()])
    asserts.equals(env, ["tests/rules/player_fixture", "tests/rules/player_fixture.serve.sh"], files)
    asserts.equals(env, "tests/rules/player_fixture.serve.sh", target[DefaultInfo].files_to_run.executable.short_path)
    asserts.equals(env, ["tests/rules/player_fixture"], [f.short_path for f in target[OutputGroupInfo].site.to_list()])

    actions = [a for a in analysistest.target_actions(env) if a.mnemonic == "PetpackPlayer"]
    asserts.equals(env, 1, len(actions))
    action = actions[0]
    asserts.equals(
        env,
        sorted(["index.html", "player.css", "player.js", "player.wasm", "wasm_exec.js", "pet_tabby.petpack"]),
        sorted([f.basename for f in action.inputs.to_list()]),
    )

    # Each input goes to its fixed name: the page fetches these.
    argv = action.argv
    by_name = {}
    for i in range(len(argv) - 1):
        if argv[i + 1] in ["player.wasm", "wasm_exec.js", "pet.petpack", "index.html"]:
            by_name[argv[i + 1]] = argv[i].split("/")[-1]
    asserts.equals(env, {
        "index.html": "index.html",
        "pet.petpack": "pet_tabby.petpack",
        "player.wasm": "player.wasm",
        "wasm_exec.js": "wasm_exec.js",
    }, by_name)

    runfiles = [f.short_path for f in target[DefaultInfo].default_runfiles.files.to_list()]
    asserts.true(env, "tests/rules/player_fixture" in runfiles, "the directory is in the runfiles")
    asserts.true(env, len([p for p in runfiles if p.endswith("/petserve")]) == 1, "petserve is in the runfiles: %s" % runfiles)
    return analysistest.end(env)

player_test = analysistest.make(_player_test_impl)

def _player_failure_test_impl(ctx):
    env = analysistest.begin(ctx)
    asserts.expect_failure(env, "PetpackInfo")
    return analysistest.end(env)

player_failure_test = analysistest.make(_player_failure_test_impl, expect_failure = True)

def player_test_suite(name):
    """Declares the `petpack_player` fixtures and their analysis tests.

    Args:
      name: the name of the `test_suite` holding both tests.
    """
    petpack_player(
        name = "player_fixture",
        archive = "//assets/petpack:pet_tabby",
        tags = ["manual"],
    )
    petpack_player(
        name = "player_not_a_petpack",
        archive = "//assets/petpack:frames",
        tags = ["manual"],
    )
    player_test(name = name + "_outputs", target_under_test = ":player_fixture")
    player_failure_test(name = name + "_not_a_petpack", target_under_test = ":player_not_a_petpack")
    native.test_suite(name = name, tests = [name + "_outputs", name + "_not_a_petpack"])
