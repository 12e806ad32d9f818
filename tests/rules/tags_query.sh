#!/usr/bin/env bash
# Every target rules_pet creates carries the `rules_pet` tag: this compares
# `bazel query 'attr(tags, rules_pet, //...)'` with
#
#   - kind() of every rule kind the ruleset defines (each `NAME = rule(` in
#     rules/, read from the .bzl files, so a new kind is covered at once),
#     whatever loaded it; and
#   - attr(generator_function, ...) of every public name of
#     rules/defs.bzl, which catches the native kinds (go_library, cc_library,
#     filegroup, ...) the macros emit too;
#
# and prints, with its kind, each target in either set that lacks the tag.
# It runs Bazel itself (a query cannot run inside `bazel test`), so
# tools/test.sh runs it as a phase. e2e/ is outside //... (.bazelignore):
# its workspaces are separate. Nothing else is left out.
#
# Usage: tests/rules/tags_query.sh (from anywhere in the checkout)
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."

join() { paste -sd'|' -; }

# `name = rule(` at the top level of a .bzl file (the kind is the name).
kinds=$(find rules -name '*.bzl' -exec sed -n 's/^\([A-Za-z_][A-Za-z0-9_]*\) = rule($/\1/p' {} + | sort -u)
# The lowercase names defs.bzl exports, deprecated aliases included.
macros=$(sed -n 's/^\([a-z][a-z0-9_]*\) = _.*/\1/p' rules/defs.bzl | sort -u)
if [[ -z "$kinds" || -z "$macros" ]]; then
    echo "FAIL: found no rule kinds in rules/ or no public names in rules/defs.bzl" >&2
    exit 1
fi
echo "rule kinds ($(wc -l <<<"$kinds")): $(tr '\n' ' ' <<<"$kinds")"
echo "public names ($(wc -l <<<"$macros")): $(tr '\n' ' ' <<<"$macros")"

# A list attribute reads `[manual, rules_pet]` to attr().
tagged='attr(tags, "[\[ ]rules_pet[,\]]", //...)'
made="kind(\"^($(join <<<"$kinds")) rule\$\", //...) + attr(generator_function, \"^($(join <<<"$macros"))\$\", //...)"

query() { bazel query --noshow_progress --output=label_kind "$@"; }
total=$(query "$made" | wc -l)
untagged=$(query "($made) except $tagged")
if [[ -n "$untagged" ]]; then
    echo "FAIL: $(wc -l <<<"$untagged") of the $total targets rules_pet created lack the rules_pet tag:"
    sed 's/^/    /' <<<"$untagged"
    exit 1
fi
if ((total == 0)); then
    echo "FAIL: the queries found no target of rules_pet at all: the test would pass vacuously" >&2
    exit 1
fi
echo "PASS: all $total targets of rules_pet's $(wc -l <<<"$kinds") rule kinds and $(wc -l <<<"$macros") public names carry the rules_pet tag"
