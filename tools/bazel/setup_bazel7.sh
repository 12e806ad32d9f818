#!/usr/bin/env bash
# Prepares Bazel 7.7.1 with Bzlmod, offline, for tools/bazel/bazel7.
#
# The machine reaches Debian's archive and the Go module proxy only, and its
# bookworm cannot run a Bazel newer than 4.2.3. Debian sid packages Bazel
# 7.7.1 (bazel-bootstrap), so this script makes a sid root file system with
# debootstrap under the offline cache and installs Bazel 7 and the tools the
# tests run into it, then lays out what the Bazel Central Registry and the Go
# download site would give an online user:
#   rules_go v0.50.1, gazelle v0.39.1   the Go module proxy (gazelle vendored)
#   the Go SDK 1.21.13                  the proxy's golang.org/toolchain module,
#                                       plus misc/wasm/wasm_exec.js from
#                                       bookworm-backports' golang-1.21-src
#   protobuf, zlib, buildozer,          empty stand-in modules: bazel_tools
#   apple_support                       depends on them, nothing here uses them
# and writes the Bazel 7 offline bazelrc (overrides only; MODULE.bazel stays
# what an online user resolves from the registry). Debian's own
# /etc/bazel/bazelrc in the root already points platforms, rules_cc,
# rules_java, bazel_skylib, ... at the packaged modules.
#
# Nothing on the host changes: debootstrap is unpacked from its .deb into the
# cache, apt runs only inside the root, the backports .deb is fetched there
# with a temporary source list. Mounts live in a private mount namespace
# (tools/bazel/sid_root.sh) and vanish with it, even when this is killed.
# Each step is skipped when its result is already there: a rerun takes about
# a second. Takes about 5 minutes and 3 GB from nothing.
#
# Usage: tools/bazel/setup_bazel7.sh
# Environment:
#   RULES_PET_CACHE          cache directory (default ${XDG_CACHE_HOME:-$HOME/.cache}/rules_pet);
#                            the root is $RULES_PET_CACHE/bazel7/root
#   RULES_PET_DEBIAN_MIRROR  Debian mirror (default: the host's apt sources)
#   GO                       go used to fetch modules (default: go on PATH)
set -euo pipefail
start=$SECONDS

RULES_GO_VERSION=v0.50.1
GAZELLE_VERSION=v0.39.1
GO_SDK_VERSION=1.21.13
# Bump when a step below changes what it makes (each step's stamp holds one):
# ROOT_RECIPE for the root and its packages (minutes to redo), RECIPE for
# the modules, the Go SDK and the bazelrc (seconds).
ROOT_RECIPE=1
RECIPE=2
# What the tests run inside Bazel: the C compiler of the host C toolchain,
# git (go_deps), the Cortex-M3 board's QEMU (its compiler, binutils and newlib below),
# Chromium for the player and QA tests, the MIME tools the .petpack MIME
# test asks, and the X servers and tools of the desktop pet's tests.
PACKAGES=(bazel-bootstrap ca-certificates git gcc g++ libc6-dev
    qemu-system-arm
    chromium shared-mime-info xdg-utils libglib2.0-bin
    xvfb xdotool openbox xsettingsd)

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=tools/bazel/sid_root.sh
source "$here/sid_root.sh"
OPT="$SID_ROOT$BAZEL7_OPT"
done_steps=()

die() {
    echo "setup_bazel7: $*" >&2
    exit 1
}
[[ $(id -u) -eq 0 ]] || die "needs root (debootstrap, chroot and mount namespaces)"
for tool in unshare chroot dpkg-deb apt-get; do
    command -v "$tool" >/dev/null || die "$tool is not on PATH"
done
GO=${GO:-$(command -v go || echo /usr/local/go/bin/go)}
[[ -x "$GO" ]] || die "no go command at $GO (set GO=/path/to/go)"

# stamp_ok FILE KEY: the step that writes FILE last has run for KEY.
stamp_ok() { [[ "$(cat "$1" 2>/dev/null)" == "$2" ]]; }
stamp() { mkdir -p "$(dirname "$1")" && echo "$2" >"$1"; }
log_tail() { tail -n 15 "$1" | sed 's/^/    /' >&2; }

mkdir -p "$BAZEL7_DIR" "$BAZEL7_OUT"
tmps=()
cleanup() { ((${#tmps[@]} == 0)) || rm -rf "${tmps[@]}"; }
trap cleanup EXIT
trap 'exit 130' INT TERM HUP

# --- 1. the sid root -----------------------------------------------------------

# The host's Debian mirror: the first deb.debian.org-style URI of its sources.
mirror=${RULES_PET_DEBIAN_MIRROR:-$(
    cat /etc/apt/sources.list /etc/apt/sources.list.d/*.list /etc/apt/sources.list.d/*.sources 2>/dev/null |
        grep -oE '(https?|file)://[^ ]*/debian/?( |$)' | grep -v security | head -n 1 | tr -d ' ' || true
)}
[[ -n "$mirror" ]] || die "no Debian mirror in the host's apt sources (set RULES_PET_DEBIAN_MIRROR)"

root_key="sid $mirror r$ROOT_RECIPE"
if ! stamp_ok "$SID_ROOT/.rules_pet/debootstrap" "$root_key"; then
    # debootstrap itself, unpacked from the host archive's .deb (no install).
    dbs="$BAZEL7_DIR/debootstrap"
    if [[ ! -x "$dbs/usr/sbin/debootstrap" ]]; then
        d=$(mktemp -d "$BAZEL7_DIR/.tmp.deb.XXXXXX")
        tmps+=("$d")
        (cd "$d" && apt-get download debootstrap >"$d/log" 2>&1) ||
            { log_tail "$d/log"; die "cannot download debootstrap from the host's Debian archive"; }
        rm -rf "$dbs"
        dpkg-deb -x "$d"/debootstrap_*.deb "$dbs"
    fi
    echo "setup_bazel7: debootstrap --variant=minbase sid from $mirror (about 75 s)"
    rm -rf "$SID_ROOT" "$BAZEL7_DIR"/.tmp.root.*
    tmp_root=$(mktemp -d "$BAZEL7_DIR/.tmp.root.XXXXXX")
    tmps+=("$tmp_root")
    log="$BAZEL7_DIR/debootstrap.log"
    if ! DEBOOTSTRAP_DIR="$dbs/usr/share/debootstrap" unshare --mount --propagation private -- \
        "$dbs/usr/sbin/debootstrap" --variant=minbase sid "$tmp_root" "$mirror" >"$log" 2>&1; then
        log_tail "$log"
        [[ -f "$tmp_root/debootstrap/debootstrap.log" ]] && log_tail "$tmp_root/debootstrap/debootstrap.log"
        die "debootstrap of sid from $mirror failed (log: $log)"
    fi
    # The archive may be a dated snapshot: its Release files have expired.
    echo 'Acquire::Check-Valid-Until "false";' >"$tmp_root/etc/apt/apt.conf.d/99rules-pet-snapshot"
    echo 'APT::Install-Recommends "false";' >"$tmp_root/etc/apt/apt.conf.d/99rules-pet-norecommends"
    # Trust what the host trusts (a TLS-inspecting proxy's CA, say), or the
    # Go module proxy's TLS fails inside.
    mkdir -p "$tmp_root/usr/local/share/ca-certificates"
    cp /usr/local/share/ca-certificates/*.crt "$tmp_root/usr/local/share/ca-certificates/" 2>/dev/null || true
    stamp "$tmp_root/.rules_pet/debootstrap" "$root_key"
    mv "$tmp_root" "$SID_ROOT"
    done_steps+=("debootstrap: $SID_ROOT")
fi

pkg_key="${PACKAGES[*]} r$ROOT_RECIPE"
if ! stamp_ok "$SID_ROOT/.rules_pet/packages" "$pkg_key"; then
    echo "setup_bazel7: apt-get install in the root: ${PACKAGES[*]} (about 3.5 min)"
    rm -f "$SID_ROOT_READY"
    log="$BAZEL7_DIR/apt.log"
    if ! in_root -- sh -c '
        export DEBIAN_FRONTEND=noninteractive
        apt-get update -q &&
        apt-get install -y -q --no-install-recommends "$@" &&
        update-ca-certificates &&
        apt-get clean' apt "${PACKAGES[@]}" >"$log" 2>&1; then
        log_tail "$log"
        die "apt-get install in the sid root failed (log: $log)"
    fi
    stamp "$SID_ROOT/.rules_pet/packages" "$pkg_key"
    done_steps+=("apt in the root: ${PACKAGES[*]}")
fi

# fetch_debs SUITE PKG...: downloads PKG's .debs from SUITE of the mirror into
# the root's /tmp/rules_pet-debs/SUITE (printed, as the root sees it), with a
# temporary source list: neither the host's apt nor the root's sources change.
fetch_debs() {
    local suite=$1 d="/tmp/rules_pet-debs/$1" log="$BAZEL7_DIR/debs-$1.log"
    shift
    if ! in_root -- sh -euc '
        d=$1 mirror=$2 suite=$3
        shift 3
        rm -rf "$d"
        mkdir -p "$d/lists/partial" "$d/cache/archives/partial" "$d/parts"
        echo "deb $mirror $suite main" >"$d/sources.list"
        o="-o Dir::Etc::SourceList=$d/sources.list -o Dir::Etc::SourceParts=$d/parts"
        o="$o -o Dir::State::Lists=$d/lists -o Dir::Cache=$d/cache"
        apt-get $o update -q
        # PKG/SUITE: that suite'"'"'s version, not the root'"'"'s installed one.
        for p in "$@"; do set -- "$@" "$p/$suite"; shift; done
        cd "$d" && apt-get $o download "$@"
        ' fetch_debs "$d" "$mirror" "$suite" "$@" >"$log" 2>&1; then
        log_tail "$log"
        die "cannot download $* from $mirror $suite (log: $log)"
    fi
    echo "$d"
}

# Debian sid has no newlib for arm-none-eabi (only picolibc), which the
# Cortex-M3 board's C toolchain (firmware/toolchain) links, and bookworm's
# newlib breaks sid's gcc-arm-none-eabi 15: the root gets bookworm's compiler
# and newlib, the versions firmware/setup.sh installs on the host, so the
# board images are the same under both Bazels.
BOOKWORM_PACKAGES=(binutils-arm-none-eabi gcc-arm-none-eabi libnewlib-arm-none-eabi libnewlib-dev)
newlib_key="bookworm ${BOOKWORM_PACKAGES[*]} r$ROOT_RECIPE"
if ! stamp_ok "$SID_ROOT/.rules_pet/newlib" "$newlib_key"; then
    echo "setup_bazel7: bookworm's ${BOOKWORM_PACKAGES[*]} into the root (about 75 MB)"
    rm -f "$SID_ROOT_READY"
    d=$(fetch_debs bookworm "${BOOKWORM_PACKAGES[@]}")
    log="$BAZEL7_DIR/newlib.log"
    if ! in_root --cwd "$d" -- sh -c 'DEBIAN_FRONTEND=noninteractive apt-get install -y -q --allow-downgrades ./*.deb && apt-get clean' >"$log" 2>&1; then
        log_tail "$log"
        die "cannot install bookworm's ${BOOKWORM_PACKAGES[*]} in the root (log: $log)"
    fi
    rm -rf "${SID_ROOT:?}$d"
    stamp "$SID_ROOT/.rules_pet/newlib" "$newlib_key"
    done_steps+=("bookworm's ${BOOKWORM_PACKAGES[*]} in the root")
fi

# --- 2. modules and the Go SDK ---------------------------------------------------

GOMOD_WORKDIR=$BAZEL7_DIR
# shellcheck source=tools/bazel/gomodules.sh
source "$here/gomodules.sh"

# prepare NAME KEY: runs prepare_NAME TMPDIR unless $OPT/NAME was made for
# KEY; the result moves into place only when whole.
prepare() {
    local name=$1 key=$2 dest="$OPT/$1" tmp
    stamp_ok "$dest/.rules_pet_complete" "$key" && return 0
    rm -f "$SID_ROOT_READY"
    mkdir -p "$(dirname "$dest")"
    tmp=$(mktemp -d "$(dirname "$dest")/.tmp.${name##*/}.XXXXXX")
    tmps+=("$tmp")
    chmod 755 "$tmp"
    "prepare_${name//\//_}" "$tmp"
    echo "$key" >"$tmp/.rules_pet_complete"
    rm -rf "$dest"
    mv "$tmp" "$dest"
    done_steps+=("prepared $dest")
}

prepare_modules_rules_go() {
    copy_module "$(module_dir github.com/bazelbuild/rules_go "$RULES_GO_VERSION")" "$1"
}

prepare_modules_gazelle() {
    copy_module "$(module_dir github.com/bazelbuild/bazel-gazelle "$GAZELLE_VERSION")" "$1"
    # Gazelle builds its own tools in GOPATH mode, which needs vendor/ (module
    # zips leave it out); its go line must suit the Go 1.21 SDK.
    local out
    out=$(cd "$1" && GOWORK=off GOTOOLCHAIN=local GOFLAGS='' "$GO" mod edit -go=1.21.1 2>&1 &&
        GOWORK=off GOTOOLCHAIN=local GOFLAGS='' "$GO" mod vendor 2>&1) ||
        die "cannot vendor bazel-gazelle $GAZELLE_VERSION's dependencies through the Go module proxy: $out"
}

# A module nothing here uses but bazel_tools depends on: a name and no targets.
standin() {
    cat >"$1/MODULE.bazel" <<EOF
# Stand-in written by rules_pet's tools/bazel/setup_bazel7.sh: bazel_tools
# depends on this module, nothing in rules_pet's build uses it, and the Bazel
# Central Registry is out of reach.
module(name = "$2")
EOF
    echo "# Stand-in module (tools/bazel/setup_bazel7.sh): no targets." >"$1/BUILD.bazel"
}
prepare_modules_protobuf() { standin "$1" protobuf; }
prepare_modules_zlib() { standin "$1" zlib; }
prepare_modules_apple_support() { standin "$1" apple_support; }
prepare_modules_buildozer() {
    standin "$1" buildozer
    # bazel_tools: buildozer_binary.buildozer(...) + use_repo(buildozer_binary, "buildozer_binary").
    cat >"$1/buildozer_binary.bzl" <<'EOF'
"""Stand-in for buildozer's buildozer_binary extension: an empty repository."""

def _empty_repo_impl(rctx):
    rctx.file("BUILD.bazel", "# Stand-in (rules_pet tools/bazel/setup_bazel7.sh): no buildozer here.\n")

_empty_repo = repository_rule(implementation = _empty_repo_impl)

def _buildozer_binary_impl(_mctx):
    _empty_repo(name = "buildozer_binary")

buildozer_binary = module_extension(
    implementation = _buildozer_binary_impl,
    tag_classes = {"buildozer": tag_class(attrs = {
        "version": attr.string(),
        "sha256": attr.string_dict(),
    })},
)
EOF
}

# The repository go_sdk.download would make (rules_go go/private/sdk.bzl:
# _sdk_build_file): the SDK's files, ROOT, BUILD.bazel from BUILD.sdk.bazel
# and version.bzl.
prepare_go_sdk() {
    local goarch platform
    case $(uname -m) in
    x86_64) goarch=amd64 platform=x86_64 ;;
    aarch64) goarch=arm64 platform=aarch64 ;;
    *) die "no Go SDK mapping for $(uname -m)" ;;
    esac
    copy_module "$(module_dir golang.org/toolchain "v0.0.1-go$GO_SDK_VERSION.linux-$goarch")" "$1"
    chmod +x "$1"/bin/* "$1"/pkg/tool/*/*
    : >"$1/ROOT"
    # What go_download_sdk's repository has implicitly: a repository boundary.
    : >"$1/REPO.bazel"
    sed -e "s/{goos}/linux/g" -e "s/{goarch}/$goarch/g" -e 's/{exe}//g' \
        -e "s/{version}/$GO_SDK_VERSION/g" -e 's/{experiments}/["nocoverageredesign"]/g' \
        -e "s#{exec_compatible_with}#[\"@platforms//cpu:$platform\", \"@platforms//os:linux\"]#g" \
        "$OPT/modules/rules_go/go/private/BUILD.sdk.bazel" >"$1/BUILD.bazel"
    IFS=. read -r major minor patch <<<"$GO_SDK_VERSION"
    printf '\nMAJOR_VERSION = "%s"\nMINOR_VERSION = "%s"\nPATCH_VERSION = "%s"\nPRERELEASE_SUFFIX = ""\n' \
        "$major" "$minor" "$patch" >"$1/version.bzl"
    # The toolchain module leaves misc/ out; the player needs wasm_exec.js of
    # this Go. Debian bookworm-backports' golang-1.21-src has it: fetched inside
    # the root with a temporary source list (the host's apt stays as it is).
    local d deb js
    d=$(fetch_debs bookworm-backports golang-1.21-src)
    deb=$(cd "$SID_ROOT$d" && ls golang-1.21-src_*.deb)
    [[ "$deb" == golang-1.21-src_1.21.*.deb ]] || die "bookworm-backports gave $deb, not Go 1.21's sources"
    mkdir "$SID_ROOT$d/x"
    dpkg-deb -x "$SID_ROOT$d/$deb" "$SID_ROOT$d/x"
    js=$(find "$SID_ROOT$d/x" -path '*/misc/wasm/wasm_exec.js' -type f | head -n 1)
    [[ -n "$js" ]] || die "$deb has no misc/wasm/wasm_exec.js"
    mkdir -p "$1/misc/wasm"
    cp "$js" "$1/misc/wasm/wasm_exec.js"
    rm -rf "${SID_ROOT:?}$d"
}

prepare modules/rules_go "$RULES_GO_VERSION r$RECIPE"
prepare modules/gazelle "$GAZELLE_VERSION r$RECIPE"
for m in protobuf zlib buildozer apple_support; do
    prepare "modules/$m" "stand-in r$RECIPE"
done
prepare go_sdk "$GO_SDK_VERSION $RULES_GO_VERSION r$RECIPE"

# --- 3. the Bazel 7 offline bazelrc -----------------------------------------------

goproxy=$(go_cmd env GOPROXY)
rc_tmp=$(mktemp "$OPT/.tmp.rc.XXXXXX")
tmps+=("$rc_tmp")
{
    echo "# Written by rules_pet's tools/bazel/setup_bazel7.sh; tools/bazel/bazel7 passes it"
    echo "# with --bazelrc. The offline replacements for what MODULE.bazel resolves from"
    echo "# the Bazel Central Registry (Debian's /etc/bazel/bazelrc covers the rest)."
    echo "startup --output_user_root=$BAZEL7_OUT/output_user_root"
    # The server lives in tools/bazel/bazel7's mount namespace: let it go.
    echo "startup --max_idle_secs=900"
    for m in rules_go gazelle protobuf zlib buildozer apple_support; do
        echo "common --override_module=$m=$BAZEL7_OPT/modules/$m"
    done
    # The SDKs go_sdk.download would fetch: rules_pet's (MODULE.bazel's
    # unnamed download, its canonical name when rules_pet is the root or a
    # dependency) and rules_go's default. All are the one Go 1.21.13 here.
    for sdk in rules_pet__download_0 go_default_sdk; do
        echo "common --override_repository=rules_go~~go_sdk~$sdk=$BAZEL7_OPT/go_sdk"
    done
    # The offline graph (stand-ins, local overrides) is not what an online
    # user resolves: no MODULE.bazel.lock is read or written (docs/setup.md).
    echo "common --lockfile_mode=off"
    echo "common --repo_env=GOPROXY=$goproxy"
    # No bazel-* symlinks: the checkout's belong to Bazel 4.2.3. Use
    # `tools/bazel/bazel7 info bazel-bin` (its paths are the host's too).
    echo "build --symlink_prefix=/"
    echo "build --disk_cache=$BAZEL7_OUT/disk_cache"
} >"$rc_tmp"
if cmp -s "$rc_tmp" "$OPT/bazel7.bazelrc"; then
    rm -f "$rc_tmp"
else
    chmod 644 "$rc_tmp"
    mv "$rc_tmp" "$OPT/bazel7.bazelrc"
    done_steps+=("wrote $OPT/bazel7.bazelrc")
fi

# --- 4. check ----------------------------------------------------------------------

if [[ ! -f "$SID_ROOT_READY" ]]; then
    version=$(in_root --mount "$BAZEL7_OUT" -- bazel --version 2>&1) ||
        die "bazel --version in the root failed: $version"
    [[ "$version" == "bazel 7.7.1"* ]] || die "the root's Bazel is '$version', not 7.7.1"
    stamp "$SID_ROOT_READY" "$version"
    done_steps+=("checked: $version")
fi

echo "setup_bazel7: Bazel 7 ready in $((SECONDS - start)) s (root: $SID_ROOT; run it with tools/bazel/bazel7)"
if ((${#done_steps[@]})); then
    printf 'setup_bazel7:   %s\n' "${done_steps[@]}"
else
    echo "setup_bazel7:   nothing to do, everything was already in place"
fi
