# Sourced by firmware/test.sh and firmware/fuzz.sh: the flag lists of
# firmware/warnings.bzl, which firmware/BUILD.bazel loads, as bash arrays.
# c99_copts and strict_warnings hold exactly the quoted lines of the two
# Starlark lists.
_flags_list() { # NAME: the quoted items of the Starlark list NAME
    sed -n "/^$1 = \[/,/^]/s/^ *\"\\(.*\\)\",\$/\\1/p" "$(dirname "${BASH_SOURCE[0]}")/warnings.bzl"
}
mapfile -t c99_copts < <(_flags_list C99_COPTS)
mapfile -t strict_warnings < <(_flags_list STRICT_WARNINGS)
if [[ ${#c99_copts[@]} -eq 0 || ${#strict_warnings[@]} -eq 0 ]]; then
    echo "firmware/flags.sh: no flags read from firmware/warnings.bzl" >&2
    exit 2
fi
