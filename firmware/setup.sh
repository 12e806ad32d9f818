#!/usr/bin/env bash
# Installs what the firmware reader's tests, fuzzers and benchmark need, from
# Debian's packages: clang and its sanitizer/libFuzzer runtime
# (libclang-rt-N-dev for the installed clang N), gcc-multilib for the 32-bit
# build (and qemu-user where the kernel runs no 32-bit binaries), zlib1g-dev
# and lib32z1-dev for zlib's crc32(): the benchmark's reference and, in both
# widths, the CRC platform hook the tests route through it. Idempotent: when
# everything is there it only asks dpkg, which takes well under a second.
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
    if [[ -z $updated ]]; then
        $SUDO apt-get update -qq
        updated=1
    fi
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
}

install clang gcc-multilib zlib1g-dev lib32z1-dev
# shellcheck source=firmware/i386.sh
source "$(dirname "${BASH_SOURCE[0]}")/i386.sh"
runner32=native
if ! i386_native; then
    install qemu-user
    runner32=qemu-i386
fi
# The runtime (ASan, UBSan, libFuzzer) must match the clang just installed.
major=$(clang -dumpversion | cut -d. -f1)
install "libclang-rt-${major}-dev"

echo "firmware/setup: ready (gcc $(gcc -dumpversion), clang $(clang -dumpversion), gcc-multilib, zlib1g-dev, lib32z1-dev, libclang-rt-${major}-dev; -m32 runs $runner32)"
