#!/usr/bin/env bash
# ctest peers.selftest: bench/peers.py --self-test against the built filterlab binary (numpy only, no
# CUDA): the kernel port, the reference and the JSON the report reads. Usage: peers_selftest.sh FILTERLAB
set -euo pipefail
filterlab="${1:?usage: peers_selftest.sh PATH/TO/filterlab}"
here="$(cd "$(dirname "$0")" && pwd)"
exec bash "$here/../python_with.sh" numpy "$here/../../bench/peers.py" --self-test --filterlab "$filterlab" --validation
