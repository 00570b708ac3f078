#!/usr/bin/env python3
"""The convolve family's FFT workload timed with its peers on a CUDA GPU: torch.fft (rfft2 / irfft2,
cuFFT) and cupyx.scipy.signal.fftconvolve. peers.py's timing, inputs, copy floor and JSON, so that
`filterlab report convolve.json fft_peers.json` draws them beside fft.vkfft.

Same definition as filterlab's convolve family (docs/families/convolve.md): an RGBA image, the
generated disk of 2r + 1 texels a side (4 x 4 samples of coverage per texel, normalized to sum 1),
out(x, y) = sum k(a, b) in(x + cx - a, y + cy - b), clamp to edge. Each peer pads the image by r with
its edge values, convolves, and crops, as fft.vkfft does; the kernel's spectrum (torch) is made once,
outside the timing. Each peer's output on input 0 is checked against a float64 direct convolution
(a 2D conv of the padded image on the GPU, or numpy) before it is timed.

    python3 bench/fft_peers.py --out fft_peers.json --sizes 1920x1080,3840x2160 --radii 8,32,127
"""
import argparse
import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import peers  # noqa: E402  (the Gaussian peers' machinery)

PEERS = ("torch.fft", "cupy.fftconvolve")


def disk(radius):
    """filters/convolve/kernel.cpp's disk, normalized."""
    edge = radius + 0.5
    offsets = (np.arange(4) + 0.5) / 4 - 0.5
    a = np.arange(2 * radius + 1) - radius
    x = a[None, :, None, None] + offsets[None, None, None, :]
    y = a[:, None, None, None] + offsets[None, None, :, None]
    k = (x * x + y * y <= edge * edge).astype(np.float64).mean(axis=(2, 3))
    return k / k.sum()


def reference(lib, image_hwc, k):
    """float64 direct convolution, clamp to edge: in(x + r - a, y + r - b) is the padded image at
    (x + 2r - a, y + 2r - b), so a correlation with the flipped kernel over the padded image."""
    r = k.shape[0] // 2
    if lib.name == "torch" and lib.cuda:
        torch, F = lib.torch, lib.torch.nn.functional
        x = torch.from_numpy(np.ascontiguousarray(image_hwc.transpose(2, 0, 1)))[None].to(lib.device, torch.float64)
        w = torch.from_numpy(np.ascontiguousarray(k[::-1, ::-1])).to(lib.device, torch.float64)
        out = F.conv2d(F.pad(x, (r, r, r, r), mode="replicate"), w[None, None].repeat(4, 1, 1, 1), groups=4)
        return out[0].permute(1, 2, 0).cpu().numpy()
    padded = np.pad(image_hwc.astype(np.float64), ((r, r), (r, r), (0, 0)), mode="edge")
    h, w = image_hwc.shape[:2]
    out = np.zeros((h, w, image_hwc.shape[2]))
    for b in range(k.shape[0]):
        for a in range(k.shape[1]):
            out += k[b, a] * padded[2 * r - b:2 * r - b + h, 2 * r - a:2 * r - a + w]
    return out


def torch_fft(lib, k, height, width):
    torch, F = lib.torch, lib.torch.nn.functional
    r = k.shape[0] // 2
    n = (height + 2 * r, width + 2 * r)
    kernel = torch.zeros(n, dtype=torch.float32, device=lib.device)
    kernel[:k.shape[0], :k.shape[1]] = torch.from_numpy(k).to(lib.device, torch.float32)
    spectrum = torch.fft.rfft2(torch.roll(kernel, shifts=(-r, -r), dims=(0, 1)))  # k(a, b) at (a - r, b - r)

    def call(x):  # (1, 4, H, W)
        padded = F.pad(x, (r, r, r, r), mode="replicate")
        return torch.fft.irfft2(torch.fft.rfft2(padded) * spectrum, s=n)[..., r:r + height, r:r + width]

    return call, "F.pad(replicate) + torch.fft.rfft2 * the kernel's rfft2 (made once) + irfft2 + crop (cuFFT)"


def cupy_fftconvolve(lib, k, height, width):
    cp = lib.cupy
    from cupyx.scipy import signal
    r = k.shape[0] // 2
    kernel = cp.asarray(k, dtype=cp.float32)[:, :, None]

    def call(x):  # (H, W, 4)
        padded = cp.pad(x, ((r, r), (r, r), (0, 0)), mode="edge")
        return signal.fftconvolve(padded, kernel, mode="valid", axes=(0, 1))

    return call, "cupy.pad(edge) + cupyx.scipy.signal.fftconvolve(mode='valid', axes=(0, 1)) (cuFFT; the kernel's " \
                 "transform is inside the call)"


FACTORIES = {"torch.fft": ("torch", torch_fft), "cupy.fftconvolve": ("cupy", cupy_fftconvolve)}


def main(argv):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--out", required=True)
    p.add_argument("--sizes", default="3840x2160", type=lambda t: peers.parse_list(t, peers.parse_size, "size"))
    p.add_argument("--radii", default="8,32,127", type=lambda t: peers.parse_list(t, int, "radius"))
    p.add_argument("--frames", type=int, default=50)
    p.add_argument("--warmup", type=int, default=10)
    p.add_argument("--warmup-ms", type=int, default=500)
    p.add_argument("--inputs", type=int, default=3)
    p.add_argument("--peers", default=",".join(PEERS))
    p.add_argument("--no-backlog", action="store_true")
    p.add_argument("--quiet", action="store_true")
    o = p.parse_args(argv)
    o.device, o.torch_layout, o.kernel, o.sigma, o.precisions = "cuda", "nchw", "disk", None, ["fp32"]
    o.peers = [name for name in o.peers.split(",") if name]
    skipped = []
    wanted = {FACTORIES[name][0] for name in o.peers}
    o_for_open = argparse.Namespace(**vars(o))
    o_for_open.peers = []  # peers.open_libraries lists skips by the Gaussian peers' names
    libraries = peers.open_libraries(o_for_open, wanted, skipped)
    for name in o.peers:
        if FACTORIES[name][0] not in libraries:
            skipped.append({"method": name, "reason": f"{FACTORIES[name][0]} unavailable"})
    runnable = [name for name in o.peers if FACTORIES[name][0] in libraries]
    if not runnable:
        print("fft_peers: nothing can run here (no usable torch or cupy with CUDA)", file=sys.stderr)
        return peers.EXIT_USAGE
    floor_lib = libraries.get("torch") or libraries["cupy"]
    timing = peers.Timing(o)
    cases = []
    for width, height in o.sizes:
        images = [peers.random_image(width, height, 4, 1000 + i) for i in range(o.inputs)]
        resident = {name: [lib.upload(im, "fp32") for im in images] for name, lib in libraries.items()}
        floor = peers.copy_case(timing, floor_lib, resident[floor_lib.name], images[0], width, height, "fp32")
        cases.append(floor)
        for radius in o.radii:
            k = disk(radius)
            expected = reference(floor_lib, images[0], k)
            for name in runnable:
                lib = libraries[FACTORIES[name][0]]
                call, note = FACTORIES[name][1](lib, k, height, width)
                inputs = resident[lib.name]
                error = peers.error_stats(lib.download(call(inputs[0])), expected)
                timed = timing.run(lib, call, inputs)
                case = peers.base_case("convolve", name, width, height, "fp32", radius, 0.0, "disk")
                case["params"] = f"kernel=disk:radius={radius}:precision=fp32"
                case.update(timed)
                case.update({"copy_ratio": timed["median_us"] / floor["median_us"], "fetches_per_pixel": 1.0,
                             "library": lib.name, "note": note, "error": error,
                             "gpixels_per_s": width * height / (timed["median_us"] * 1e3),
                             "passes": [{"name": name, "median_us": timed["median_us"]}]})
                if not error["max_abs"] <= 1e-4:
                    case["flagged"] = f"max_abs {error['max_abs']:.3g} > 1e-4 against the reference"
                cases.append(case)
                print(f"{name:18s} r={radius:3d} {width}x{height} {timed['median_us']:10.1f} us  "
                      f"max_abs {error['max_abs']:.2e}", flush=True)
        floor["gpixels_per_s"] = width * height / (floor["median_us"] * 1e3)
    document = peers.make_document(o, peers.device_facts(libraries, "cuda"), cases, skipped,
                                   "torch float64 conv2d on the GPU, or numpy")
    document.update({"filter": "convolve", "params": {"kernel": "disk"}, "kernel": "disk", "sigma": None,
                     "border": "clamp-to-edge (replicate / edge padding by r)",
                     "error_method": "against a float64 direct convolution of input 0 (clamp to edge); max_abs and "
                                     "mse over the frame and all 4 channels; flagged above 1e-4",
                     "sweeps": {"radius": sorted(set(o.radii))}})
    peers.write_json(o.out, peers.finite(document))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
