#!/usr/bin/env bash
# Installs what the firmware reader's tests, fuzzers and benchmark need, from
# Debian's packages: clang and its sanitizer/libFuzzer runtime
# (libclang-rt-N-dev for the installed clang N), gcc-multilib for the 32-bit
# build (and qemu-user where the kernel runs no 32-bit binaries), zlib1g-dev
# and lib32z1-dev for zlib's crc32(): the benchmark's reference and, in both
# widths, the CRC platform hook the tests route through it; for the Cortex-M3 board
# (firmware/board) gcc-arm-none-eabi, newlib and qemu-system-arm; for the
# big-endian tests (firmware/bigendian.sh) clang's s390x target over Debian's
# s390x cross libc, libgcc and binutils, run under qemu-user (about 120 MiB
# to download on a fresh machine). Idempotent: when everything is there it
# only asks dpkg, which takes well under a second.
#
# Usage: firmware/setup.sh
set -euo pipefail

SUDO=
if [[ $(id -u) -ne 0 ]]; then
    SUDO=sudo
fi

installed() {
    [[ $(dpkg-query -W -f='${Status}' "$1" 2>/dev/null) == "install ok installed" ]]
}

updated=
install() {
    local missing=()
    for p in "$@"; do
        installed "$p" || missing+=("$p")
    done
    [[ ${#missing[@]} -eq 0 ]] && return 0
    echo "firmware/setup: installing ${missing[*]}"
    local apt_start=$SECONDS
    if [[ -z $updated ]]; then
        $SUDO apt-get update -qq
        updated=1
    fi
    # These packages sit next to gcc-multilib (the -m32 builds), which
    # Debian's gcc-s390x-linux-gnu would remove: refuse any install that
    # removes a package rather than find out later.
    local removed
    removed=$(apt-get -s install --no-install-recommends "${missing[@]}" | awk '$1 == "Remv" { print $2 }')
    if [[ -n $removed ]]; then
        echo "firmware/setup: installing ${missing[*]} would remove $(echo $removed); not installing" >&2
        exit 1
    fi
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
    # tools/test.sh reports the apt installs on their own line.
    [[ -z "${RULES_PET_APT_SECONDS_FILE:-}" ]] || echo "$((SECONDS - apt_start))" >>"$RULES_PET_APT_SECONDS_FILE"
}

install clang gcc-multilib zlib1g-dev lib32z1-dev
install gcc-arm-none-eabi binutils-arm-none-eabi libnewlib-arm-none-eabi qemu-system-arm
# qemu-user everywhere: the big-endian tests need qemu-s390x on every
# machine, not only where the kernel runs no 32-bit x86 binaries.
install qemu-user libc6-dev-s390x-cross libgcc-12-dev-s390x-cross binutils-s390x-linux-gnu
# shellcheck source=firmware/i386.sh
source "$(dirname "${BASH_SOURCE[0]}")/i386.sh"
runner32=native
if ! i386_native; then
    runner32=qemu-i386
fi
# The runtime (ASan, UBSan, libFuzzer) must match the clang just installed.
major=$(clang -dumpversion | cut -d. -f1)
install "libclang-rt-${major}-dev"

echo "firmware/setup: ready (gcc $(gcc -dumpversion), clang $(clang -dumpversion), gcc-multilib, zlib1g-dev, lib32z1-dev, libclang-rt-${major}-dev; -m32 runs $runner32;" \
    "arm-none-eabi-gcc $(arm-none-eabi-gcc -dumpversion), qemu-system-arm, s390x cross libc, qemu-s390x)"
