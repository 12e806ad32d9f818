#!/usr/bin/env bash
# Runs its arguments: the release tool and its flags, which the BUILD file
# gives as runfiles paths (an sh_test or sh_binary needs a script of its own).
set -euo pipefail
exec "$@"
