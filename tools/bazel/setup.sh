#!/usr/bin/env bash
# Prepares this machine to build and test rules_pet with Bazel offline.
#
# The checked-in WORKSPACE.bazel is the ordinary form (pinned http_archives and
# go_register_toolchains), which needs GitHub and the Go download site. This
# machine reaches only Debian's packages and the Go module proxy, so this script
# assembles the same repositories from those two registries in a cache directory
# outside the checkout, and writes `.bazelrc.offline` (git-ignored, try-imported
# by .bazelrc) with one `--override_repository` per repository. Bazel then never
# runs the http_archive/go_download_sdk rules those names would otherwise use.
#
# Usage: tools/bazel/setup.sh                    (idempotent; a rerun takes well under a second)
#        tools/bazel/setup.sh --workspace DIR    also set up the user workspace DIR
#        tools/bazel/setup.sh --workspace DIR --no-rules-pet-override
#                                                the same, with rules_pet left to DIR's own
#                                                http_archive (found by its sha256 in a
#                                                --distdir or the repository cache)
#
# With --workspace, the workspace DIR (one that depends on rules_pet, like
# e2e/smoke or the README's WORKSPACE snippet) gets `.bazelrc.rules_pet`:
# the same overrides, one that points `rules_pet` at this checkout, and the
# quiet processwrapper-sandbox strategy this repository's .bazelrc uses.
# DIR/.bazelrc gets `try-import %workspace%/.bazelrc.rules_pet` if it has no
# such line yet. The fragment holds this machine's paths: git-ignore it.
# Environment:
#   RULES_PET_CACHE  cache directory (default ${XDG_CACHE_HOME:-$HOME/.cache}/rules_pet)
#   GO               go (>= 1.20) used to fetch modules and build buildifier
#                    (default: go on PATH, else /usr/local/go/bin/go)
set -euo pipefail

RULES_GO_VERSION=v0.34.0       # newest rules_go that accepts Bazel 4.2.3
GAZELLE_VERSION=v0.26.0
BUILDIFIER_VERSION=v0.0.0-20260904073137-eaa4d125b423
GO_SDK_ROOT=/usr/lib/go-1.19   # Debian golang-1.19-go: still ships pkg/<os>_<arch>/*.a
APT_PACKAGES=(bazel-bootstrap bazel-bootstrap-source bazel-skylib bazel-platforms golang-1.19-go)
# The cache test reads Bazel's execution log with python3 and adds times
# with bc: installed here, before anything needs them.
APT_PACKAGES+=(python3 bc)
# The remote-cache test serves Bazel's HTTP cache with nginx (WebDAV PUT);
# the remote-execution test compiles Bazel's remote worker with javac.
APT_PACKAGES+=(nginx default-jdk-headless)
# The .petpack MIME test (//dev/petpackmime:mime_test) installs the
# shared-mime-info package and asks GIO for the sample pet's type.
APT_PACKAGES+=(shared-mime-info xdg-utils libglib2.0-bin)
# The desktop pet tests run petdesk under Xvfb (openbox for managed mode,
# xdotool for input, xsettingsd for the desktop's Reduce Motion setting).
APT_PACKAGES+=(xvfb xdotool openbox xsettingsd)
DEBIAN_SKYLIB=/usr/share/bazel/tools/skylib
DEBIAN_PLATFORMS=/usr/share/bazel/tools/platforms
MOCK_REPOS=/usr/src/bazel-bootstrap/mock_repos
RECIPE=3                       # bump when a prepare_* step below changes

REPO_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
CACHE=${RULES_PET_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/rules_pet}
REPOS="$CACHE/repos"
RC_FILE="$REPO_ROOT/.bazelrc.offline"
done_steps=()

die() {
    echo "setup: $*" >&2
    exit 1
}

USER_WS=
OVERRIDE_RULES_PET=1
while (($#)); do
    case $1 in
    --workspace)
        (($# >= 2)) || die "--workspace needs a directory"
        USER_WS=$2
        shift 2
        ;;
    --workspace=*)
        USER_WS=${1#--workspace=}
        shift
        ;;
    --no-rules-pet-override)
        OVERRIDE_RULES_PET=
        shift
        ;;
    -h | --help)
        sed -n '2,/^set -euo/p' "${BASH_SOURCE[0]}" | sed -n 's/^# \{0,1\}//p'
        exit 0
        ;;
    *) die "unknown argument '$1' (usage: setup.sh [--workspace DIR [--no-rules-pet-override]])" ;;
    esac
done
[[ -n "$USER_WS" || -n "$OVERRIDE_RULES_PET" ]] || die "--no-rules-pet-override needs --workspace DIR"
if [[ -n "$USER_WS" ]]; then
    [[ -d "$USER_WS" ]] || die "--workspace $USER_WS: no such directory"
    USER_WS=$(cd "$USER_WS" && pwd)
    [[ -f "$USER_WS/WORKSPACE" || -f "$USER_WS/WORKSPACE.bazel" || -f "$USER_WS/MODULE.bazel" ]] ||
        die "--workspace $USER_WS: not a Bazel workspace (no WORKSPACE, WORKSPACE.bazel or MODULE.bazel)"
fi

# --- 1. Debian packages ------------------------------------------------------

# apt_seconds SINCE: appends the seconds since SINCE ($SECONDS) to
# $RULES_PET_APT_SECONDS_FILE when set: tools/test.sh reports the apt
# installs on their own line, apart from the phase that ran them.
apt_seconds() {
    [[ -z "${RULES_PET_APT_SECONDS_FILE:-}" ]] || echo "$((SECONDS - $1))" >>"$RULES_PET_APT_SECONDS_FILE"
}

apt_missing=()
for pkg in "${APT_PACKAGES[@]}"; do
    if ! dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q 'ok installed'; then
        apt_missing+=("$pkg")
    fi
done
for f in /usr/bin/bazel "$DEBIAN_SKYLIB/WORKSPACE" "$DEBIAN_PLATFORMS/WORKSPACE" \
    "$MOCK_REPOS/rules_cc/WORKSPACE" "$GO_SDK_ROOT/bin/go"; do
    [[ -e "$f" ]] || { apt_missing=("${APT_PACKAGES[@]}"); break; }
done
if ((${#apt_missing[@]})); then
    apt_start=$SECONDS
    sudo=()
    [[ $(id -u) -eq 0 ]] || sudo=(sudo)
    apt_log=$(mktemp)
    if ! "${sudo[@]}" apt-get update -qq >"$apt_log" 2>&1; then
        die "cannot reach Debian's package archive (apt-get update): $(tail -n 3 "$apt_log")"
    fi
    if ! DEBIAN_FRONTEND=noninteractive "${sudo[@]}" apt-get install -y -qq "${apt_missing[@]}" >"$apt_log" 2>&1; then
        die "cannot install ${apt_missing[*]} from Debian's package archive: $(tail -n 3 "$apt_log")"
    fi
    rm -f "$apt_log"
    apt_seconds "$apt_start"
    done_steps+=("apt: installed ${apt_missing[*]}")
fi
for tool in python3 bc; do
    command -v "$tool" >/dev/null || die "$tool is not on PATH after installing it (tests/integration/cache_test.sh needs it)"
done
# Debian's Chromium, for the tests that drive a real headless browser
# (tools/petplayer; internal/testsupport/headless finds it). Without Recommends it
# is about 25 packages; once installed this is one dpkg-query.
if ! dpkg-query -W -f='${Status}' chromium 2>/dev/null | grep -q 'ok installed' || [[ ! -x /usr/bin/chromium ]]; then
    apt_start=$SECONDS
    sudo=()
    [[ $(id -u) -eq 0 ]] || sudo=(sudo)
    apt_log=$(mktemp)
    if ! "${sudo[@]}" apt-get update -qq >"$apt_log" 2>&1; then
        die "cannot reach Debian's package archive (apt-get update): $(tail -n 3 "$apt_log")"
    fi
    if ! DEBIAN_FRONTEND=noninteractive "${sudo[@]}" apt-get install -y -qq --no-install-recommends chromium >"$apt_log" 2>&1; then
        die "cannot install chromium from Debian's package archive: $(tail -n 3 "$apt_log")"
    fi
    rm -f "$apt_log"
    apt_seconds "$apt_start"
    done_steps+=("apt: installed chromium")
fi
for f in "$GO_SDK_ROOT"/pkg/tool "$GO_SDK_ROOT"/pkg/*_*/runtime.a; do
    [[ -e "$f" ]] || die "$GO_SDK_ROOT has no precompiled standard library ($f); rules_go $RULES_GO_VERSION needs it"
done

# --- 2. Go modules: rules_go, gazelle -----------------------------------------

GO=${GO:-$(command -v go || echo /usr/local/go/bin/go)}

GOMOD_WORKDIR=$CACHE
# shellcheck source=tools/bazel/gomodules.sh
source "$REPO_ROOT/tools/bazel/gomodules.sh"

# prepare NAME KEY: runs prepare_NAME TMPDIR unless $REPOS/NAME was already
# made for KEY; the result is moved into place only when it is whole, so an
# interrupted run leaves nothing half-made behind.
prepare() {
    local name=$1 key=$2 dest="$REPOS/$1" tmp
    [[ "$(cat "$dest/.rules_pet_complete" 2>/dev/null)" == "$key" ]] && return 0
    tmp=$(mktemp -d "$REPOS/.tmp.$name.XXXXXX")
    chmod 755 "$tmp"
    "prepare_$name" "$tmp"
    echo "$key" >"$tmp/.rules_pet_complete"
    rm -rf "$dest"
    mv "$tmp" "$dest"
    done_steps+=("prepared $dest")
}

prepare_rules_go() {
    local src
    src=$(module_dir github.com/bazelbuild/rules_go "$RULES_GO_VERSION")
    copy_module "$src" "$1"
    # go_context_data's request_nogo_transition only selects a nogo, and
    # rules_pet configures none. On Bazel 4.2.3 it doubles every Go standard
    # library a go_binary's go_transition asks for (pure, js/wasm): the
    # binary's link reaches go_context_data through go_transition and this
    # transition composed in one step, its libraries through the same two one
    # edge apart, and Bazel 4.2.3 hashes the steps into the output directory
    # (ST-...), so equal settings built the library twice. Without it both
    # paths meet in one configuration. Bazel 7's rules_go is not touched.
    local ctx="$1/go/private/context.bzl"
    perl -0pi -e 's/\n        "_whitelist_function_transition": attr\.label\(\n            default = "\@bazel_tools\/\/tools\/whitelists\/function_transition_whitelist",\n        \),\n(    \},\n    doc = """go_context_data gathers)/\n$1/; s/\n    cfg = request_nogo_transition,\n\)/\n)/' "$ctx"
    ! grep -q 'cfg = request_nogo_transition' "$ctx" && ! grep -q '_whitelist_function_transition' "$ctx" ||
        die "rules_go $RULES_GO_VERSION: go/private/context.bzl's go_context_data has no request_nogo_transition to remove"
}

prepare_gazelle() {
    local src
    src=$(module_dir github.com/bazelbuild/bazel-gazelle "$GAZELLE_VERSION")
    copy_module "$src" "$1"
    # Gazelle builds its own tools in GOPATH mode, which needs vendor/; module
    # zips leave it out.
    local out
    if ! out=$(cd "$1" && GOWORK=off GOTOOLCHAIN=local GOFLAGS='' "$GO" mod vendor 2>&1); then
        die "cannot reach the Go module proxy to vendor bazel-gazelle $GAZELLE_VERSION's dependencies: $out"
    fi
    # Debian's skylib 1.0.3 has no partials in unittest.suite, which this
    # test-suite macro passes; loading //internal would fail.
    sed -i 's/^gazelle_binary_test_suite()$/# gazelle_binary_test_suite()  # rules_pet setup.sh: needs bazel_skylib >= 1.1/' \
        "$1/internal/BUILD.bazel"
    grep -q '^# gazelle_binary_test_suite()' "$1/internal/BUILD.bazel" ||
        die "bazel-gazelle $GAZELLE_VERSION: internal/BUILD.bazel has no gazelle_binary_test_suite() call to disable"
}

prepare_remote_coverage_tools() {
    echo 'workspace(name = "remote_coverage_tools")' >"$1/WORKSPACE"
    cat >"$1/BUILD.bazel" <<'EOF'
# Stand-in written by rules_pet's tools/bazel/setup.sh: `bazel test` needs these
# two targets to exist even when coverage is off.
package(default_visibility = ["//visibility:public"])

filegroup(name = "coverage_report_generator")

filegroup(name = "lcov_merger")
EOF
}

# The same repository that go_local_sdk(name = "go_sdk", path = GO_SDK_ROOT)
# generates (rules_go go/private/sdk.bzl: _sdk_build_file + _local_sdk): an
# empty ROOT, BUILD.bazel from BUILD.sdk.bazel, and src/pkg/bin/lib symlinks.
prepare_go_sdk() {
    local platforms=("$GO_SDK_ROOT"/pkg/tool/*_*) platform
    if ((${#platforms[@]} != 1)) || [[ ! -d "${platforms[0]}" ]]; then
        die "cannot detect the platform of $GO_SDK_ROOT (pkg/tool holds: ${platforms[*]})"
    fi
    platform=${platforms[0]##*/}
    echo 'workspace(name = "go_sdk")' >"$1/WORKSPACE"
    : >"$1/ROOT"
    sed -e "s/{goos}/${platform%%_*}/g" -e "s/{goarch}/${platform#*_}/g" \
        -e 's/{exe}//g' -e 's/{rules_go_repo_name}/io_bazel_rules_go/g' \
        "$REPOS/rules_go/go/private/BUILD.sdk.bazel" >"$1/BUILD.bazel"
    local entry
    for entry in src pkg bin lib; do
        ln -s "$GO_SDK_ROOT/$entry" "$1/$entry"
    done
}

mkdir -p "$REPOS" "$CACHE/bin"
rm -rf "$REPOS"/.tmp.*
# install_file's temporary files, and prepare's, when a step fails.
cleanup_tmp() {
    rm -rf "$REPOS"/.tmp.* "$REPO_ROOT"/.bazelrc.offline.setup-tmp.*
    if [[ -n "$USER_WS" ]]; then rm -f "$USER_WS"/.bazelrc*.setup-tmp.*; fi
}
trap cleanup_tmp EXIT
prepare rules_go "$RULES_GO_VERSION r$RECIPE"
prepare gazelle "$GAZELLE_VERSION r$RECIPE"
prepare remote_coverage_tools "r$RECIPE"
prepare go_sdk "$GO_SDK_ROOT $RULES_GO_VERSION r$RECIPE"

# --- 3. buildifier ------------------------------------------------------------

BUILDIFIER="$CACHE/bin/buildifier"
if [[ ! -x "$BUILDIFIER" || ! -f "$CACHE/bin/.buildifier-$BUILDIFIER_VERSION" ]]; then
    if ! out=$(GOBIN="$CACHE/bin" go_cmd install "github.com/bazelbuild/buildtools/buildifier@$BUILDIFIER_VERSION" 2>&1); then
        die "cannot install buildifier $BUILDIFIER_VERSION through the Go module proxy with $GO (needs Go >= 1.20): $out"
    fi
    rm -f "$CACHE"/bin/.buildifier-*
    touch "$CACHE/bin/.buildifier-$BUILDIFIER_VERSION"
    done_steps+=("installed $BUILDIFIER")
fi

# --- 4. .bazelrc.offline ------------------------------------------------------

goproxy=$(go_cmd env GOPROXY)
overrides=(
    "io_bazel_rules_go=$REPOS/rules_go"
    "bazel_gazelle=$REPOS/gazelle"
    "bazel_skylib=$DEBIAN_SKYLIB"
    "platforms=$DEBIAN_PLATFORMS"
    "go_sdk=$REPOS/go_sdk"
    "rules_cc=$MOCK_REPOS/rules_cc"
    "rules_java=$MOCK_REPOS/rules_java"
    "rules_proto=$MOCK_REPOS/rules_proto"
    "remote_coverage_tools=$REPOS/remote_coverage_tools"
)
# overrides_rc: the lines both bazelrc files share.
overrides_rc() {
    # Bazel 4.2.3 accepts both options under `common` (checked with build,
    # test, run, query, cquery, fetch, info, clean, shutdown and help).
    for o in "${overrides[@]}"; do
        echo "common --override_repository=$o"
    done
    # go_repository fetches through the Go module proxy; pass the machine's.
    echo "common --repo_env=GOPROXY=$goproxy"
}

# install_file DEST: replaces DEST with stdin (temporary file, then rename)
# unless it already holds those bytes.
install_file() {
    local dest=$1 tmp
    tmp=$(mktemp "$dest.setup-tmp.XXXXXX")
    cat >"$tmp"
    if cmp -s "$tmp" "$dest"; then
        rm -f "$tmp"
    else
        chmod 644 "$tmp"
        sync "$tmp"
        mv "$tmp" "$dest"
        sync "$(dirname "$dest")"
        done_steps+=("wrote $dest")
    fi
}

install_file "$RC_FILE" < <(
    echo "# Written by tools/bazel/setup.sh for this machine; git-ignored, do not commit."
    echo "# Replaces the repositories WORKSPACE.bazel downloads with local copies."
    overrides_rc
)

if [[ -n "$USER_WS" ]]; then
    install_file "$USER_WS/.bazelrc.rules_pet" < <(
        echo "# Written by rules_pet's tools/bazel/setup.sh --workspace for this machine;"
        echo "# do not commit it. Replaces the repositories rules_pet's WORKSPACE macros"
        if [[ -n "$OVERRIDE_RULES_PET" ]]; then
            echo "# download with local copies, and rules_pet with the checkout $REPO_ROOT."
        else
            echo "# download with local copies (rules_pet itself comes from the workspace's own"
            echo "# http_archive)."
        fi
        overrides_rc
        if [[ -n "$OVERRIDE_RULES_PET" ]]; then
            echo "common --override_repository=rules_pet=$REPO_ROOT"
        fi
        # Debian's linux-sandbox prints debug lines for every action; the
        # process-wrapper sandbox is quiet and still gives each action an exec
        # root holding only its declared inputs.
        echo "build --spawn_strategy=processwrapper-sandbox"
    )
    import='try-import %workspace%/.bazelrc.rules_pet'
    if ! grep -qxF "$import" "$USER_WS/.bazelrc" 2>/dev/null; then
        install_file "$USER_WS/.bazelrc" < <(
            if [[ -s "$USER_WS/.bazelrc" ]]; then
                cat "$USER_WS/.bazelrc"
                [[ -z "$(tail -c 1 "$USER_WS/.bazelrc")" ]] || echo
            fi
            echo "# This machine's offline set-up of rules_pet (tools/bazel/setup.sh --workspace)."
            echo "$import"
        )
    fi
fi

# --- summary ------------------------------------------------------------------

echo "setup: ready for offline Bazel (cache: $CACHE)"
if ((${#done_steps[@]})); then
    printf 'setup:   %s\n' "${done_steps[@]}"
else
    echo "setup:   nothing to do, everything was already in place"
fi
echo "setup: buildifier: $BUILDIFIER"
if [[ -n "$USER_WS" ]]; then
    echo "setup: workspace $USER_WS: .bazelrc try-imports .bazelrc.rules_pet (git-ignore it)"
    echo "setup: next: cd $USER_WS && bazel build //..."
else
    echo "setup: next: bazel test //..."
fi
