#!/usr/bin/env bash
# The test pet_asset_set generates when the golden is not checked in must
# fail, and say how to create the golden, instead of Bazel's "missing input
# file" before any test code runs.
set -u
if out=$("$1" 2>&1); then
    echo "FAIL: the missing-golden test passed: $out"
    exit 1
fi
want="bazel run //examples/pet:nogolden_golden.update"
if [[ "$out" != *"examples/pet/nogolden.pack.golden does not exist"* || "$out" != *"$want"* ]]; then
    echo "FAIL: the missing-golden test failed without naming the golden and '$want':"
    echo "$out"
    exit 1
fi
echo "PASS: the missing-golden test fails with: $(tr '\n' ' ' <<<"$out")"
