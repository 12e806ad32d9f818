# Sourced by tools/bazel/setup_bazel7.sh and tools/bazel/bazel7: where the
# Debian sid root that runs Bazel 7 lives, and how a command runs inside it.
#
# Bazel 7.7.1 is Debian sid's bazel-bootstrap, which needs a newer glibc and
# libstdc++ than the bookworm host has, so it runs in a sid root file system
# (debootstrap) under the offline stack's cache. in_root enters it in a
# private mount namespace: every mount it makes (/proc, /sys, /dev, the
# checkout) belongs to that namespace and vanishes with its last process,
# however that process ends (a trap cannot run on SIGKILL; this needs none).
# A Bazel server started inside keeps its namespace until it exits
# (startup --max_idle_secs in the Bazel 7 bazelrc bounds that); later calls
# join it (tools/bazel/bazel7).

RULES_PET_CACHE_DIR=${RULES_PET_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/rules_pet}
# The cache as an absolute path: it is bind-mounted at the same path inside.
mkdir -p "$RULES_PET_CACHE_DIR"
RULES_PET_CACHE_DIR=$(cd "$RULES_PET_CACHE_DIR" && pwd -P)
BAZEL7_DIR="$RULES_PET_CACHE_DIR/bazel7"
# The sid root, and (outside it, at the same path inside and outside) Bazel 7's
# output user root and disk cache, so paths Bazel prints are valid on the host.
SID_ROOT="$BAZEL7_DIR/root"
BAZEL7_OUT="$BAZEL7_DIR/out"
# Inside the root: the offline modules, the Go SDK and the bazelrc files.
BAZEL7_OPT=/opt/rules_pet
BAZEL7_RC="$BAZEL7_OPT/bazel7.bazelrc"
# Written last by setup_bazel7.sh: the root is complete.
SID_ROOT_READY="$SID_ROOT/.rules_pet/ready"

# in_root [--mount DIR]... [--cwd DIR] [--join PID] -- CMD [ARG]...: runs CMD
# in the sid root with /proc, /sys, /dev and each DIR (bind-mounted at its own
# path) in a private mount namespace, with a clean environment. With --join,
# in the mount namespace of process PID (a Bazel server started by an earlier
# call), adding only the mounts it lacks: a Bazel client refuses a server
# whose working directory it sees elsewhere, which a server in another
# namespace's chroot always is.
in_root() {
    local mounts=() cwd=/ enter=(unshare --mount --propagation private)
    while (($#)); do
        case $1 in
        --mount) mounts+=("$(cd "$2" && pwd -P)"); shift 2 ;;
        --cwd) cwd=$2; shift 2 ;;
        --join) enter=(nsenter "--mount=/proc/$2/ns/mnt"); shift 2 ;;
        --) shift; break ;;
        *) echo "in_root: unknown option $1" >&2; return 2 ;;
        esac
    done
    # shellcheck disable=SC2016 # expanded by the inner bash
    "${enter[@]}" -- bash -euc '
        root=$1 n=$2 cwd=$3
        shift 3
        mountpoint -q "$root/proc" || mount -t proc proc "$root/proc"
        mountpoint -q "$root/sys" || mount --rbind /sys "$root/sys"
        mountpoint -q "$root/dev" || mount --rbind /dev "$root/dev"
        for ((i = 0; i < n; i++)); do
            mkdir -p "$root$1"
            mountpoint -q "$root$1" || mount --rbind "$1" "$root$1"
            shift
        done
        cp -L /etc/resolv.conf "$root/etc/resolv.conf" 2>/dev/null || true
        exec chroot "$root" /usr/bin/env -i HOME=/root USER=root LOGNAME=root \
            PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
            LANG=C.UTF-8 TERM="${TERM:-dumb}" ${CI:+CI="$CI"} \
            /bin/sh -c "cd \"\$0\" && exec \"\$@\"" "$cwd" "$@"
    ' in_root "$SID_ROOT" "${#mounts[@]}" "$cwd" "${mounts[@]}" "$@"
}
