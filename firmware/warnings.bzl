"""The C reader's compiler flags, in one place.

firmware/BUILD.bazel loads these lists; firmware/test.sh and firmware/fuzz.sh
read the same lines (one quoted flag per line) with sed, so the three cannot
drift apart.
"""

# What every C file here is compiled with.
C99_COPTS = [
    "-std=c99",
    "-Wall",
    "-Wextra",
    "-pedantic",
]

# What the reader itself is held to beyond C99_COPTS, always with -Werror.
STRICT_WARNINGS = [
    "-Wconversion",
    "-Wsign-conversion",
    "-Wshadow",
    "-Wcast-qual",
    "-Wcast-align",
    "-Wstrict-prototypes",
    "-Wmissing-prototypes",
    "-Wundef",
    "-Wpointer-arith",
    "-Wwrite-strings",
]
