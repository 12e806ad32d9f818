#!/usr/bin/env bash
# Boots a board image in QEMU's mps2-an385 with semihosting and checks what
# it prints: every line but the stack high-water mark must equal the host
# demo's lines for the same pack, byte for byte, the first must begin with
# FIRST, and the image must exit with STATUS.
#
# Usage: qemu_test.sh ELF EXPECTED_LINES STATUS FIRST
#   EXPECTED_LINES "-": a faulting image, which prints exactly one line
#   (beginning with FIRST) and no stack mark, since it never returns.
set -euo pipefail
elf=$1
expected=$2
want_status=$3
first=$4
tmp=${TEST_TMPDIR:-$(mktemp -d)}
fail() {
    echo "FAIL $elf: $*" >&2
    echo "--- output:" >&2
    cat "$tmp/out" >&2 || true
    exit 1
}

command -v qemu-system-arm >/dev/null || fail "qemu-system-arm not found; run firmware/setup.sh"
# Semihosting output arrives on stderr, QEMU's own complaints too: both
# are captured, so nothing unexpected passes unseen. The image exits by
# itself within a second or two; the timeout only stops a hung image, and
# ends well inside Bazel's 60 s for a small test, so this message is seen.
status=0
timeout 40 qemu-system-arm -M mps2-an385 -nographic -monitor none \
    -semihosting-config enable=on,target=native -kernel "$elf" >"$tmp/out" 2>&1 || status=$?
((status != 124)) || fail "no exit within 40 s"
((status == want_status)) || fail "exit status $status, want $want_status"

if [[ $expected == - ]]; then
    [[ $(wc -l <"$tmp/out") == 1 && $(cat "$tmp/out") == "$first"* ]] || fail "want one line beginning with '$first'"
    echo "PASS: $(cat "$tmp/out"); exit status $status"
    exit 0
fi
stack=$(grep -E '^stack high-water [0-9]+ of [0-9]+ bytes$' "$tmp/out" || true)
[[ $(grep -c '^stack ' "$tmp/out" || true) == 1 && -n $stack ]] || fail "no single stack high-water line"
grep -v '^stack high-water ' "$tmp/out" >"$tmp/lines" || true
[[ $(head -n 1 "$tmp/lines") == "$first"* ]] || fail "the first line does not begin with '$first'"
diff -u "$expected" "$tmp/lines" >&2 || fail "the board's lines differ from the host demo's ($expected)"
echo "PASS: $(wc -l <"$tmp/lines") lines equal to the host demo's; $stack"
