#!/usr/bin/env bash
# Runs a Python test script with the first python3 that imports the given modules: a python3 earlier
# on PATH (pyenv, a venv) may lack Debian's python3-numpy and python3-skimage, which
# scripts/install-deps.sh installs for /usr/bin/python3.
#   python_with.sh MODULE[,MODULE...] SCRIPT [ARGS...]
set -euo pipefail
modules="${1:?usage: python_with.sh MODULES SCRIPT [ARGS...]}"
shift
imports="import ${modules}"
for python in python3 /usr/bin/python3; do
  if command -v "$python" >/dev/null 2>&1 && "$python" -c "$imports" >/dev/null 2>&1; then
    exec "$python" "$@"
  fi
done
echo "no python3 here imports ${modules} (scripts/install-deps.sh installs them)" >&2
exit 1
