#!/usr/bin/env python3
"""ctest metrics.compare_vs_skimage: `filterlab compare` against numpy and scikit-image.

MSE and max |a-b| are recomputed with numpy, SSIM with scikit-image's structural_similarity in
Wang et al.'s configuration (11x11 Gaussian window, sigma 1.5, population covariances, K1 = 0.01,
K2 = 0.03, L = 1: the mean over the windows that fit inside the image), which filterlab
implements on its own. Files: 8-bit RGB PNGs (three channels, no alpha), RGBA PNGs (colour premultiplied by alpha, alpha counted,
or not with --alpha off), 16-bit PNGs (read at 16 bits), and PFMs holding NaN and infinity (counted,
left out, exit 1). Usage: compare_vs_skimage.py PATH/TO/filterlab
"""
import json
import subprocess
import sys
import tempfile
from pathlib import Path

import numpy as np
from PIL import Image
from skimage.metrics import structural_similarity

FILTERLAB = sys.argv[1]
failures = []


# filterlab holds samples as float32: k / 255 and k / 65535 are each rounded by up to 2^-25 near 1.
FLOAT_STEP = 2.0 ** -23


def check(name, got, want, tol):
    if not abs(got - want) <= tol:
        failures.append(f"{name}: filterlab {got!r}, expected {want!r} (tolerance {tol})")


def compare(a, b, *extra):
    out = Path(tmp) / "m.json"
    run = subprocess.run([FILTERLAB, "compare", str(a), str(b), "--json", str(out), *extra],
                         capture_output=True, text=True)
    return run.returncode, json.loads(out.read_text()) if out.exists() else None, run.stdout + run.stderr


def skimage_ssim(x, y):
    return structural_similarity(x, y, channel_axis=2, gaussian_weights=True, sigma=1.5,
                                 use_sample_covariance=False, data_range=1.0)


def write_pfm(path, rgb):
    h, w, _ = rgb.shape
    with open(path, "wb") as f:
        f.write(f"PF\n{w} {h}\n-1.0\n".encode())
        f.write(np.ascontiguousarray(rgb[::-1], dtype="<f4").tobytes())


with tempfile.TemporaryDirectory() as tmp:
    rng = np.random.default_rng(2026)

    # Noise pairs as 8-bit RGB PNGs: three channels, as the files have.
    for (h, w) in [(64, 48), (37, 101)]:
        a8 = rng.integers(0, 256, (h, w, 3), dtype=np.uint8)
        b8 = np.clip(a8.astype(int) + rng.integers(-40, 41, (h, w, 3)), 0, 255).astype(np.uint8)
        Image.fromarray(a8).save(Path(tmp) / "a.png")
        Image.fromarray(b8).save(Path(tmp) / "b.png")
        a, b = a8 / 255.0, b8 / 255.0
        code, j, text = compare(Path(tmp) / "a.png", Path(tmp) / "b.png")
        if code != 0:
            failures.append(f"RGB {w}x{h}: exit {code}: {text}")
            continue
        check(f"RGB {w}x{h} channels", j["channels"], 3, 0)
        want = float(((a - b) ** 2).mean())
        check(f"RGB {w}x{h} mse", j["mse"], want, 1e-6 * want)
        check(f"RGB {w}x{h} max_abs", j["max_abs"], float(np.abs(a - b).max()), FLOAT_STEP)
        check(f"RGB {w}x{h} ssim", j["ssim"], skimage_ssim(a, b), 1e-6)

    # RGBA: alpha counts by default, and --alpha off leaves it out.
    a8 = rng.integers(0, 256, (40, 30, 4), dtype=np.uint8)
    b8 = rng.integers(0, 256, (40, 30, 4), dtype=np.uint8)
    Image.fromarray(a8, "RGBA").save(Path(tmp) / "a4.png")
    Image.fromarray(b8, "RGBA").save(Path(tmp) / "b4.png")
    # filterlab compares premultiplied colour (a PNG's straight colour times its alpha, as it filters).
    a, b = a8 / 255.0, b8 / 255.0
    a[..., :3] *= a[..., 3:]
    b[..., :3] *= b[..., 3:]
    code, j, text = compare(Path(tmp) / "a4.png", Path(tmp) / "b4.png")
    check("RGBA exit", code, 0, 0)
    check("RGBA channels", j["channels"], 4, 0)
    want = float(((a - b) ** 2).mean())
    check("RGBA mse", j["mse"], want, 1e-6 * want)
    check("RGBA ssim", j["ssim"], skimage_ssim(a, b), 1e-6)
    code, j, text = compare(Path(tmp) / "a4.png", Path(tmp) / "b4.png", "--alpha", "off")
    check("RGBA --alpha off channels", j["channels"], 3, 0)
    want = float(((a[..., :3] - b[..., :3]) ** 2).mean())
    check("RGBA --alpha off mse", j["mse"], want, 1e-6 * want)
    check("RGBA --alpha off ssim", j["ssim"], skimage_ssim(a[..., :3], b[..., :3]), 1e-6)

    # 16-bit PNGs: a difference of one 16-bit step is seen, not rounded away to 8 bits.
    a16 = rng.integers(0, 65535, (24, 20), dtype=np.uint16)
    b16 = a16 + 1
    Image.fromarray(a16).save(Path(tmp) / "a16.png")
    Image.fromarray(b16).save(Path(tmp) / "b16.png")
    code, j, text = compare(Path(tmp) / "a16.png", Path(tmp) / "b16.png")
    check("16-bit exit", code, 0, 0)
    # Read at 8 bits, the difference would be 0 or 1/255.
    check("16-bit max_abs", j["max_abs"], 1 / 65535, FLOAT_STEP)
    check("16-bit mse", j["mse"], (1 / 65535) ** 2, 0.02 * (1 / 65535) ** 2)

    # NaN and infinity: counted per image, left out of the metrics, exit 1, never "identical".
    x = rng.random((16, 16, 3)).astype(np.float32)
    y = x.copy()
    y[3, 4, 1] = np.nan
    y[5, 6, 0] = np.inf
    write_pfm(Path(tmp) / "x.pfm", x)
    write_pfm(Path(tmp) / "y.pfm", y)
    code, j, text = compare(Path(tmp) / "x.pfm", Path(tmp) / "y.pfm")
    check("non-finite exit", code, 1, 0)
    check("non-finite count in b", j["nonfinite"]["b"], 2, 0)
    check("non-finite count in a", j["nonfinite"]["a"], 0, 0)
    if j["identical"] or "identical" in text or j["ssim"] is not None:
        failures.append(f"non-finite pair reported as identical or with an SSIM: {j} {text}")
    if "non-finite" not in text:
        failures.append(f"non-finite values not named in the output: {text}")

for f in failures:
    print("FAIL", f)
print(f"compare_vs_skimage: {'FAILED' if failures else 'all checks passed'}")
sys.exit(1 if failures else 0)
