#!/usr/bin/env bash
# Packs a headless filterlab for a bare GPU server into dist/filterlab-bundle/ (and a .tar.gz):
# the binary (libstdc++ linked statically), its SPIR-V, the Vulkan loader and the Khronos
# validation layer, and run.sh which points the loader at them. The driver is the server's own.
#   scripts/bundle.sh                  a Release build of its own (build-bundle/)
#   scripts/bundle.sh --build-dir DIR  the build already made and tested there (build/ after
#                                      scripts/test.sh): no second compile; its libstdc++ is copied
#                                      with the other libraries. Shader changes validated on the GPU
#                                      from the tree the tests ran on.
set -euo pipefail
cd "$(dirname "$0")/.."
build=build-bundle
if [ "${1:-}" = --build-dir ]; then
  build="${2:?usage: scripts/bundle.sh [--build-dir DIR]}"
  cmake --build "$build" -j"$(nproc)" --target filterlab filterlab_copy_study
else
  ./scripts/install-deps.sh
  cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=Release -DFILTERLAB_TESTS=OFF -DFILTERLAB_STATIC_RUNTIME=ON >/dev/null
  cmake --build "$build" -j"$(nproc)" --target filterlab filterlab_copy_study
fi

out=dist/filterlab-bundle
rm -rf "$out"
mkdir -p "$out/lib" "$out/lib/fallback" "$out/layers"
cp "$build/filterlab" "$build/filterlab_copy_study" "$out/"
# A RelWithDebInfo build's debug information is most of its size, and the device call carries 64 MiB.
strip --strip-debug "$out/filterlab" "$out/filterlab_copy_study"
cp -r "$build/shaders" "$out/shaders"
find "$out/shaders" -name '*.d' -delete

# Every shared library the binary needs beyond glibc itself.
ldd "$build/filterlab" | awk '/=> \//{print $3}' | while read -r lib; do
  case "$(basename "$lib")" in
    libc.so*|libm.so*|libpthread.so*|libdl.so*|librt.so*|ld-linux*) ;;
    *) cp -L "$lib" "$out/lib/" ;;
  esac
done
# NVIDIA's Vulkan ICD (libGLX_nvidia.so.0) needs GLVND's vendor-neutral dispatch libraries at
# run time, which a server without a desktop stack lacks (seen on the H100 server: without them
# vk_icdGetInstanceProcAddr returns no vkCreateInstance). Debian's libglvnd0, libegl1, libglx0,
# libgl1, libgles2 and libopengl0 provide them.
for lib in libGLdispatch.so.0 libGLX.so.0 libEGL.so.1 libGL.so.1 libGLESv2.so.2 libOpenGL.so.0; do
  cp -L "/usr/lib/x86_64-linux-gnu/$lib" "$out/lib/"
done
# Validation layer, with its manifest pointing into the bundle.
layer=$(find /usr/lib -name libVkLayer_khronos_validation.so | head -1)
cp -L "$layer" "$out/layers/"
sed 's#"library_path": *"[^"]*"#"library_path": "./libVkLayer_khronos_validation.so"#' \
  /usr/share/vulkan/explicit_layer.d/VkLayer_khronos_validation.json > "$out/layers/VkLayer_khronos_validation.json"
# The layer needs libstdc++; used only where the server has none.
cp -L "$(g++ -print-file-name=libstdc++.so.6)" "$out/lib/fallback/"

cat > "$out/run.sh" <<'RUN'
#!/usr/bin/env bash
# Runs the bundled filterlab: ./run.sh info | ./run.sh run --headless ...
here="$(cd "$(dirname "$0")" && pwd)"
export LD_LIBRARY_PATH="$here/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
ldconfig -p 2>/dev/null | grep -q 'libstdc++.so.6 ' || export LD_LIBRARY_PATH="$LD_LIBRARY_PATH:$here/lib/fallback"
export VK_LAYER_PATH="$here/layers"
export XDG_RUNTIME_DIR="${XDG_RUNTIME_DIR:-/tmp}"
# A server without a loader package usually has no ICD manifest in the standard places.
if [ -z "${VK_DRIVER_FILES:-}${VK_ICD_FILENAMES:-}" ] && ! ls /usr/share/vulkan/icd.d/*.json /etc/vulkan/icd.d/*.json >/dev/null 2>&1; then
  for icd in /usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json /usr/share/vulkan/icd.d/nvidia_icd.json; do
    [ -f "$icd" ] && export VK_DRIVER_FILES="$icd" && break
  done
fi
# FILTERLAB_EXE=filterlab_copy_study runs the bundled copy study instead.
exec "$here/${FILTERLAB_EXE:-filterlab}" "$@"
RUN
chmod +x "$out/run.sh"
cp scripts/device-evidence.sh "$out/"
# The lab scene, for the validation run's scenes (device-evidence.sh OUT validation).
cp -r assets "$out/assets"
# The PyTorch/CuPy peers, timed on the same GPU in the same sitting (device-evidence.sh OUT peers).
mkdir -p "$out/bench"
cp bench/peers.py "$out/bench/"
rev=$(git rev-parse --short=12 HEAD 2>/dev/null || echo unknown)
[ -n "$(git status --porcelain --untracked-files=no 2>/dev/null)" ] && rev="$rev+dirty"
echo "$rev" > "$out/bench/REVISION"
tar -C dist -czf dist/filterlab-bundle.tar.gz filterlab-bundle
echo "bundle: $out ($(du -sh "$out" | cut -f1)); libraries: $(ls "$out/lib" | tr '\n' ' ')"
