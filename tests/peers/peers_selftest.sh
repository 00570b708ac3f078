#!/usr/bin/env bash
# ctest peers.selftest: bench/peers.py --self-test against the built filterlab binary (numpy only, no
# CUDA): the kernel port, the reference and the JSON the report reads. Usage: peers_selftest.sh FILTERLAB
set -euo pipefail
filterlab="${1:?usage: peers_selftest.sh PATH/TO/filterlab}"
peers="$(cd "$(dirname "$0")/../../bench" && pwd)/peers.py"
# The first python3 that has numpy: a python3 earlier on PATH (pyenv, a venv) may lack Debian's python3-numpy.
for python in python3 /usr/bin/python3; do
  if command -v "$python" >/dev/null 2>&1 && "$python" -c "import numpy" >/dev/null 2>&1; then
    exec "$python" "$peers" --self-test --filterlab "$filterlab" --validation
  fi
done
echo "peers.selftest: no python3 with numpy here (scripts/install-deps.sh installs python3-numpy)" >&2
exit 1
