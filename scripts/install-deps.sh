#!/usr/bin/env bash
# Installs the Debian 12 or 13 packages filterlab builds, tests and runs with (the same names in
# both). A no-op when everything is present already. Everything the build needs is named, down to
# make: a bare Debian (debootstrap minbase) has no make, and neither g++ nor cmake pulls it in
# without recommends. scripts/check-bare-debian.sh runs the README's commands in such a root.
#   scripts/install-deps.sh          what the build and the tests need
#   scripts/install-deps.sh --fuzz   also clang and libFuzzer (scripts/fuzz.sh)
set -euo pipefail

packages=(
  cmake make g++ pkg-config git
  libvulkan-dev mesa-vulkan-drivers vulkan-validationlayers vulkan-tools
  glslc libshaderc-dev glslang-dev spirv-tools libvkfft-dev
  libglfw3-dev libimgui-dev libglm-dev libstb-dev libspng-dev zlib1g-dev libturbojpeg0-dev libopenexr-dev libtinygltf-dev
  libgtest-dev nlohmann-json3-dev xvfb xauth chromium python3-numpy python3-skimage
  python3-jsonschema  # tests/schemas/check_schemas.py: schemas/ against what filterlab writes
  assimp-testmodels  # glTF test scenes, good and bad, read where the package puts them (tests/gpu/gltf_test.cpp)
  libglvnd0 libglx0 libegl1 libgl1 libgles2 libopengl0
)
# libFuzzer and the sanitizers' runtimes for clang-N are in libclang-rt-N-dev, which
# libclang-common-N-dev only recommends: named here. clang-14 where the release has it (Debian 12,
# what the fuzz targets were written with), else clang-19 (Debian 13 has no clang-14).
if [ "${1:-}" = "--fuzz" ]; then
  clang=19
  if apt-cache show clang-14 >/dev/null 2>&1; then clang=14; fi
  packages+=("clang-$clang" "libclang-rt-$clang-dev")
fi

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
  echo "install-deps: all ${#packages[@]} packages present"
  exit 0
fi

sudo=""
if [ "$(id -u)" -ne 0 ]; then sudo="sudo"; fi
echo "install-deps: installing ${missing[*]}"
$sudo apt-get update -qq
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
