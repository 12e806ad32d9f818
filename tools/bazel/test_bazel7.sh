#!/usr/bin/env bash
# The Bazel 7.7.1 (Bzlmod) tests of rules_pet, run by tools/test.sh after
# tools/bazel/setup_bazel7.sh:
#   1. bazel test //...                  MODULE.bazel's graph, 0 failures
#   2. the goldens                       the canonical pack and the sample
#                                        .petpack built by Bazel 7 are the
#                                        checked-in goldens' bytes (cmp)
#   3. the Cortex-M3 board               bazel test --config=cortex_m3 ...
#   4. bazel run //:gazelle              Gazelle v0.39.1 changes no BUILD file
#   5. e2e/smoke                         the smoke module (local_path_override
#                                        on this checkout): bazel test //...
#   6. a user's Bzlmod workspace         tests/integration/bzlmod_test.sh
# Each prints its time. Usage: tools/bazel/test_bazel7.sh
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."
bazel7=tools/bazel/bazel7
# The Bazel 7 server lives in its own mount namespace: end it with the run.
trap '"$bazel7" shutdown >/dev/null 2>&1 || true' EXIT

t=$SECONDS
part() {
    echo "bazel7: $1 took $((SECONDS - t)) s"
    t=$SECONDS
}

"$bazel7" --version
"$bazel7" test //...
part "bazel test //..."

# The same bytes as Bazel 4.2.3: the golden tests passed above; say it with
# cmp on the outputs Bazel 7 built (the paths `build --show_result` prints;
# cquery's configuration is not the build's for these transitioned rules).
built=$("$bazel7" build --show_result=10 //assets/pet:pack //assets/petpack:pet_tabby 2>&1) ||
    { echo "$built" >&2; exit 1; }
golden() {
    local target=$1 suffix=$2 want=$3 got
    got=$(sed -n "/^Target ${target//\//\\/} up-to-date:/,/^[^ ]/p" <<<"$built" |
        sed -n 's/^  \(\/.*\)$/\1/p' | grep -F "$suffix" | head -n 1)
    [[ -n "$got" ]] || { echo "bazel7: bazel build printed no $suffix for $target" >&2; return 1; }
    cmp "$got" "$want"
    echo "bazel7: $target ($(wc -c <"$want") bytes) is byte-identical to $want"
}
golden //assets/pet:pack .pack tests/golden/pet.pack
golden //assets/petpack:pet_tabby .petpack assets/petpack/pet_tabby.petpack.golden
part "golden comparison"

"$bazel7" test --config=cortex_m3 //firmware/board/... //assets/pet:pack_cc
part "Cortex-M3 board tests"

before=$(git status --porcelain -- '*BUILD.bazel')
"$bazel7" run //:gazelle
after=$(git status --porcelain -- '*BUILD.bazel')
if [[ "$before" != "$after" ]]; then
    echo "bazel7: bazel run //:gazelle (Gazelle v0.39.1) changed BUILD files:" >&2
    git status --porcelain -- '*BUILD.bazel' >&2
    exit 1
fi
part "gazelle no-op"

"$bazel7" shutdown
(cd e2e/smoke && "../../$bazel7" test //... && "../../$bazel7" shutdown)
part "e2e/smoke"

tests/integration/bzlmod_test.sh
part "Bzlmod user workspace"
