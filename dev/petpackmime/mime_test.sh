#!/usr/bin/env bash
# mime_test.sh XML PLIST SAMPLE.petpack: the shared-mime-info package makes
# GIO name the sample pet application/vnd.agentpet.petpack+zip whatever the
# extension's case, leaves a plain .zip alone, and the plist parses with
# the exported UTI. The tools come from tools/bazel/setup.sh.
set -euo pipefail

xml=$1 plist=$2 sample=$3
want=application/vnd.agentpet.petpack+zip
fail() { echo "FAIL: $*" >&2; exit 1; }
for tool in update-mime-database gio python3; do
    command -v "$tool" >/dev/null ||
        fail "$tool is not installed (tools/bazel/setup.sh installs shared-mime-info, libglib2.0-bin, python3)"
done

tmp=$(mktemp -d "${TEST_TMPDIR:-/tmp}/mime.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/data/mime/packages" "$tmp/empty" "$tmp/files"
cp "$xml" "$tmp/data/mime/packages/"
update-mime-database "$tmp/data/mime" 2>/dev/null
for name in x.petpack X.PETPACK Pet.PetPack plain.zip; do
    cp "$sample" "$tmp/files/$name"
done

# type DATA_HOME FILE: the content type GIO gives FILE with the system's
# database and DATA_HOME's.
type() {
    XDG_DATA_HOME=$1 XDG_DATA_DIRS=/usr/share gio info -a standard::content-type "$2" |
        sed -n 's/^ *standard::content-type: //p'
}

# Without the package the sample is a ZIP archive: what the package changes.
got=$(type "$tmp/empty" "$tmp/files/x.petpack")
[[ "$got" == application/zip ]] || fail "without the package x.petpack is '$got', want application/zip"
for name in x.petpack X.PETPACK Pet.PetPack; do
    got=$(type "$tmp/data" "$tmp/files/$name")
    [[ "$got" == "$want" ]] || fail "$name is '$got', want $want"
done
got=$(type "$tmp/data" "$tmp/files/plain.zip")
[[ "$got" == application/zip ]] || fail "plain.zip is '$got' with the package, want application/zip"

python3 - "$plist" <<'PY'
import plistlib, sys
with open(sys.argv[1], "rb") as f:
    doc = plistlib.load(f)
[t] = doc["UTExportedTypeDeclarations"]
assert t["UTTypeIdentifier"] == "dev.agentpet.petpack", t
assert t["UTTypeConformsTo"] == ["public.data"], t
tags = t["UTTypeTagSpecification"]
assert tags["public.filename-extension"] == ["petpack"], tags
assert tags["public.mime-type"] == ["application/vnd.agentpet.petpack+zip"], tags
PY
echo "PASS: x.petpack, X.PETPACK, Pet.PetPack are $want; plain.zip stays application/zip; the plist exports dev.agentpet.petpack"
