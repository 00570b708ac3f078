#!/usr/bin/env bash
# Sourced by run.sh and experiment-unroll.sh: the loader and NVIDIA's ICD, and both bundles unpacked
# into $w/new and $w/old (old: the binary and SPIR-V of 0564a95, sharing new's libraries and layers).
for f in .gl/*.deb; do dpkg -x "$f" /; done
ldconfig
export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
w=/tmp/gw
mkdir -p $w/new $w/old
tar xzf dist/gw/new.tar.gz -C $w/new
tar xzf dist/gw/old.tar.gz -C $w/old
cp -r $w/new/lib $w/new/layers $w/new/run.sh $w/old/
