#!/usr/bin/env bash
# #36/#37: fxaa's two methods and taa's statistics methods at 4K (the built-in auto tables), and what
# the tonemap costs with each curve and with automatic exposure; the copy floor in each bench.
set -u
for f in .gl/*.deb; do dpkg -x "$f" /; done; ldconfig
export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
w=/tmp/gw; mkdir -p $w/new $OUT/g
tar xzf dist/gw/new11.tar.gz -C $w/new
R=$w/new/run.sh
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv,noheader > $OUT/g/clocks.txt
$R bench --filter fxaa --sizes 3840x2160 --precision fp16,fp32 --frames 50 --no-error --json $OUT/g/fxaa.json > $OUT/g/fxaa.txt 2>&1
$R bench --filter taa --sizes 3840x2160 --precision fp16,fp32 --frames 30 --no-error --json $OUT/g/taa.json > $OUT/g/taa.txt 2>&1
for t in aces agx; do
  $R run --headless --size 3840x2160 --frames 100 --warmup 20 --chain copy --tonemap $t --timings $OUT/g/tonemap-$t.json > $OUT/g/tonemap-$t.txt 2>&1
done
$R run --headless --size 3840x2160 --frames 100 --warmup 20 --chain copy --exposure auto --timings $OUT/g/exposure-auto.json > $OUT/g/exposure-auto.txt 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv,noheader >> $OUT/g/clocks.txt
cd $OUT && tar czf g.tar.gz g && rm -rf g
