#!/usr/bin/env python3
"""The convolve family's FFT workload timed with its peers on a CUDA GPU: torch.fft (rfft2 / irfft2,
cuFFT) and cupyx.scipy.signal.fftconvolve.

Same definition as filterlab's convolve family (docs/families/convolve.md): an RGBA fp32 image, a
generated disk kernel of 2r + 1 texels a side (4 x 4 samples of coverage per texel, normalized to sum
1), out(x, y) = sum k(a, b) in(x + cx - a, y + cy - b), clamp to edge. Each peer pads the image by the
kernel's half size with its edge values, convolves, and crops, as fft.vkfft does; the kernel's
spectrum is made once, outside the timing. Each output is checked on a 96 x 80 image against a float64
direct convolution before timing; times are CUDA events, median of --frames runs.

    python3 bench/fft_peers.py --out fft_peers.json --sizes 1920x1080,3840x2160 --radii 8,32,127
"""
import argparse
import json
import sys

import numpy as np


def disk(radius):
    n = 2 * radius + 1
    edge = radius + 0.5
    offsets = (np.arange(4) + 0.5) / 4 - 0.5
    a = np.arange(n) - radius
    x = (a[None, :, None, None] + offsets[None, None, None, :])
    y = (a[:, None, None, None] + offsets[None, None, :, None])
    inside = (x * x + y * y <= edge * edge).astype(np.float64)
    k = inside.mean(axis=(2, 3))
    return k / k.sum()


def reference(image, k):
    h, w, c = image.shape
    r = k.shape[0] // 2
    padded = np.pad(image.astype(np.float64), ((r, r), (r, r), (0, 0)), mode="edge")
    out = np.zeros((h, w, c))
    for b in range(k.shape[0]):
        for a in range(k.shape[1]):
            # in(x + r - a, y + r - b) sits at padded (x + 2r - a, y + 2r - b)
            out += k[b, a] * padded[2 * r - b:2 * r - b + h, 2 * r - a:2 * r - a + w]
    return out


def torch_peer(torch, k, h, w):
    r = k.shape[0] // 2
    n = (h + 2 * r, w + 2 * r)
    kern = torch.zeros(n, dtype=torch.float32, device="cuda")
    kt = torch.tensor(k, dtype=torch.float32, device="cuda")
    # k(a, b) at ((a - r) mod W, (b - r) mod H)
    kern[:k.shape[0], :k.shape[1]] = kt
    kern = torch.roll(kern, shifts=(-r, -r), dims=(0, 1))
    spectrum = torch.fft.rfft2(kern)

    def run(x):  # x: (4, h, w)
        p = torch.nn.functional.pad(x[None], (r, r, r, r), mode="replicate")[0]
        y = torch.fft.irfft2(torch.fft.rfft2(p) * spectrum, s=n)
        return y[:, r:r + h, r:r + w]
    return run


def cupy_peer(cp, signal, k, h, w):
    r = k.shape[0] // 2
    kc = cp.asarray(k, dtype=cp.float32)[None]

    def run(x):
        p = cp.pad(x, ((0, 0), (r, r), (r, r)), mode="edge")
        return signal.fftconvolve(p, kc, mode="valid", axes=(1, 2))
    return run


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", required=True)
    ap.add_argument("--sizes", default="3840x2160")
    ap.add_argument("--radii", default="32")
    ap.add_argument("--frames", type=int, default=30)
    o = ap.parse_args()
    results, skipped = [], []
    import torch
    torch.backends.cuda.matmul.allow_tf32 = False
    peers = {"torch.fft": lambda k, h, w: torch_peer(torch, k, h, w)}
    try:
        import cupy as cp
        from cupyx.scipy import signal
        peers["cupy.fftconvolve"] = lambda k, h, w: cupy_peer(cp, signal, k, h, w)
    except Exception as e:  # noqa: BLE001
        skipped.append({"peer": "cupy.fftconvolve", "reason": str(e)})
    rng = np.random.default_rng(7)
    for radius in [int(r) for r in o.radii.split(",")]:
        k = disk(radius)
        small = rng.random((80, 96, 4)).astype(np.float32)
        ref = reference(small, k)
        for name, make in peers.items():
            run = make(k, 80, 96)
            x = torch.tensor(small.transpose(2, 0, 1), device="cuda") if name.startswith("torch") else cp.asarray(small.transpose(2, 0, 1))
            y = run(x)
            y = (y.cpu().numpy() if name.startswith("torch") else cp.asnumpy(y)).transpose(1, 2, 0)
            err = float(np.abs(y - ref).max())
            for size in o.sizes.split(","):
                w, h = (int(v) for v in size.split("x"))
                run = make(k, h, w)
                img = rng.random((4, h, w)).astype(np.float32)
                x = torch.tensor(img, device="cuda") if name.startswith("torch") else cp.asarray(img)
                times = []
                for i in range(o.frames + 5):
                    start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
                    if name.startswith("torch"):
                        start.record(); run(x); end.record(); torch.cuda.synchronize()
                        t = start.elapsed_time(end)
                    else:
                        s, e = cp.cuda.Event(), cp.cuda.Event()
                        s.record(); run(x); e.record(); e.synchronize()
                        t = cp.cuda.get_elapsed_time(s, e)
                    if i >= 5:
                        times.append(t * 1000)
                results.append({"peer": name, "radius": radius, "kernel": f"disk {2*radius+1}x{2*radius+1}",
                                "width": w, "height": h, "median_us": float(np.median(times)),
                                "p5_us": float(np.percentile(times, 5)), "p95_us": float(np.percentile(times, 95)),
                                "max_abs_error_96x80": err})
                print(f"{name:18s} r={radius:3d} {w}x{h} {np.median(times):10.1f} us  err {err:.2e}", flush=True)
    json.dump({"tool": "fft_peers", "device": torch.cuda.get_device_name(0), "results": results, "skipped": skipped},
              open(o.out, "w"), indent=1)


if __name__ == "__main__":
    sys.exit(main())
