# Sourced by firmware/setup.sh and firmware/test.sh: whether this kernel runs
# 32-bit x86 binaries. Some machines here have IA-32 emulation switched off
# (a -m32 program fails with "Exec format error"); there the -m32 builds
# run under qemu-user's qemu-i386, which setup.sh installs only then.

# i386_native: compiles and runs an empty -m32 program; true when it runs.
i386_native() {
    local dir rc=0
    dir=$(mktemp -d)
    printf 'int main(void) { return 0; }\n' >"$dir/probe.c"
    if gcc -m32 "$dir/probe.c" -o "$dir/probe" 2>/dev/null; then
        "$dir/probe" 2>/dev/null || rc=1
    else
        rc=1
    fi
    rm -rf "$dir"
    return $rc
}
