"""The Go modules rules_pet's tools are built from (WORKSPACE users).

Its own file because it loads `@bazel_gazelle`, which only exists once
`rules_pet_dependencies()` (in `repositories.bzl`) has declared it: a
WORKSPACE loads this file after that call. Bzlmod users need nothing from
here: rules_pet's MODULE.bazel takes the same modules from its go.mod.
"""

load("@bazel_gazelle//:deps.bzl", "go_repository")
load("@bazel_tools//tools/build_defs/repo:utils.bzl", "maybe")

# The versions of go.mod; tools/test.sh checks that the two agree.
GO_MODULES = {
    "org_golang_x_image": struct(
        importpath = "golang.org/x/image",
        # The last release whose go.mod accepts Go 1.19 (rules_go v0.34's SDK).
        version = "v0.24.0",
        sum = "h1:AN7zRgVsbvmTfNyqIbbOraYL8mSwcKncEj8ofjgzcMQ=",
    ),
    "org_modernc_sqlite": struct(
        importpath = "modernc.org/sqlite",
        # The pet library's SQLite driver, pure Go (v1.29.0 and later want Go 1.20).
        version = "v1.28.0",
        sum = "h1:Zx+LyDDmXczNnEQdvPuEfcFVA2ZPyaD7UCZDjef3BHQ=",
    ),
    "org_modernc_libc": struct(
        importpath = "modernc.org/libc",
        # What modernc.org/sqlite v1.28.0 is built from.
        version = "v1.29.0",
        sum = "h1:tTFRFq69YKCF2QyGNuRUQxKBm1uZZLubf6Cjh/pVHXs=",
    ),
    "org_modernc_mathutil": struct(
        importpath = "modernc.org/mathutil",
        version = "v1.6.0",
        sum = "h1:fRe9+AmYlaej+64JsEEhoWuAYBkOtQiMEU7n/XgfYi4=",
    ),
    "org_modernc_memory": struct(
        importpath = "modernc.org/memory",
        version = "v1.7.2",
        sum = "h1:Klh90S215mmH8c9gO98QxQFsY+W451E8AnzjoE2ee1E=",
    ),
    "com_github_dustin_go_humanize": struct(
        importpath = "github.com/dustin/go-humanize",
        version = "v1.0.1",
        sum = "h1:GzkhY7T5VNhEkwH0PVJgjz+fX1rhBrR7pRT3mDkpeCY=",
    ),
    "com_github_google_uuid": struct(
        importpath = "github.com/google/uuid",
        version = "v1.3.0",
        sum = "h1:t6JiXgmwXMjEs8VusXIJk2BXHsn+wx8BZdTaoZ5fu7I=",
    ),
    "com_github_mattn_go_isatty": struct(
        importpath = "github.com/mattn/go-isatty",
        version = "v0.0.16",
        sum = "h1:bq3VjFmv/sOjHtdEhmkEV4x1AJtvUvOJ2PFAZ5+peKQ=",
    ),
    "com_github_jezek_xgb": struct(
        importpath = "github.com/jezek/xgb",
        # The desktop pet's X11 client (pet_desktop, runtime/desktop/x11):
        # pure Go, so petdesk links statically with CGO_ENABLED=0.
        version = "v1.1.1",
        sum = "h1:bE/r8ZZtSv7l9gk6nU0mYx51aXrvnyb44892TwSaqS4=",
    ),
    "com_github_remyoudompheng_bigfft": struct(
        importpath = "github.com/remyoudompheng/bigfft",
        version = "v0.0.0-20230129092748-24d4a6f8daec",
        sum = "h1:W09IVJc94icq4NjY3clb7Lk8O1qJ8BdBEF8z0ibU0rE=",
    ),
}

def rules_pet_go_dependencies():
    """Declares the Go modules the petasset tool imports.

    `petasset` decodes the WebP previews of `.petpack` archives with
    `golang.org/x/image/webp`, and its `library` verbs keep the pet library
    in SQLite through the pure-Go `modernc.org/sqlite` (and the modules it
    is built from), so a workspace that builds the toolchain from source
    needs those modules (`@org_golang_x_image`, `@org_modernc_sqlite`, ...).
    `pet_desktop`'s `petdesk` speaks X11 through the pure-Go
    `github.com/jezek/xgb` (`@com_github_jezek_xgb`).
    `golang.org/x/sys`, which they also import, is the one rules_go declares. Call it after
    `rules_pet_dependencies()` and before `gazelle_dependencies()` (which
    `go_repository` needs, and which would otherwise declare older versions
    of some modules first):

        load("@rules_pet//rules:go_dependencies.bzl", "rules_pet_go_dependencies")

        rules_pet_go_dependencies()

        gazelle_dependencies(go_sdk = "go_sdk")

    Each module is declared only if the workspace has not declared it
    already (`maybe`), so a workspace may pin its own version.
    """
    for name, m in GO_MODULES.items():
        maybe(
            go_repository,
            name = name,
            # Gazelle's map of these repositories to their import paths
            # (it cannot read this loop).
            build_config = Label("//rules:go_dependencies.workspace"),
            importpath = m.importpath,
            sum = m.sum,
            version = m.version,
        )
