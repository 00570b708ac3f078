#!/usr/bin/env python3
"""filterlab's Gaussian workloads timed with its peers on a CUDA GPU (PyTorch, torchvision, CuPy, NPP).

Same workload as `filterlab bench`: an RGBA image (4 channels), radius r, sigma = filterlab's ideal
sigma for r (unless --sigma), clamp-to-edge border, the same normalized weights. Each peer's output
on input 0 is checked against a float64 reference before it is timed. The JSON uses filterlab's
bench schema ("filterlab.bench/2", tool "peers", stage "cuda"), so
`filterlab report filterlab.json peers.json` draws the peers beside filterlab's compute methods.

    python3 bench/peers.py --out peers.json --sizes 1920x1080,3840x2160 --precisions fp16,fp32
    python3 bench/peers.py --self-test --filterlab build/filterlab     # numpy only, no CUDA

Only numpy is imported up front; torch, torchvision and cupy are imported when a peer needs them, and
a missing one is listed under "skipped" with the reason. NVIDIA's NPP is called through ctypes on
CuPy's arrays and stream. bench/README.md has the details.
"""
import argparse
import ctypes
import ctypes.util
import datetime
import glob
import importlib
import json
import math
import os
import subprocess
import sys
import tempfile
import time

import numpy as np

SCHEMA = "filterlab.bench/2"
KERNELS = ("gaussian", "box", "binomial")
MAX_RADIUS = 32  # GAUSSIAN_UNIFORM_MAX_RADIUS: every gaussian method serves up to here
DEFAULT_EPSILON = 1.0 / 255.0
PEERS = ("torch.conv2d_separable", "torchvision.gaussian_blur", "cupy.gaussian_filter", "cupy.correlate1d",
         "npp.row_column", "npp.gauss_advanced", "npp.border_2d")
FLAG_MAX_ABS = 1e-2  # a peer this far from the reference is still reported, but flagged
EXIT_USAGE = 2


# ---- The kernel: a port of renderer/filters/kernel.cpp ---------------------------------------------
# Keep these in step with kernel.cpp (the self-test compares them with `filterlab filter`/`bench`).


def compensated_sum(values):
    """kernel.cpp compensated_sum: Neumaier's sum, so the normalization divisor is good to ~1 ulp."""
    total = comp = 0.0
    for x in values:
        t = total + x
        comp += (total - t) + x if abs(total) >= abs(x) else (x - t) + total
        total = t
    return total + comp


def check_radius(radius):
    if not 1 <= radius <= MAX_RADIUS:
        raise ValueError(f"kernel radius {radius} is outside [1, {MAX_RADIUS}]")


def gaussian_boundary_weight(radius, sigma):
    """kernel.cpp: w[r] of the normalized kernel as 1 / sum_i g(i)/g(r) (a tiny sigma gives 1/inf = 0)."""
    denom = 0.0
    for i in range(-radius, radius + 1):
        try:
            denom += math.exp(float(radius * radius - i * i) / (2.0 * sigma * sigma))
        except OverflowError:  # std::exp overflows to inf, and 1/inf = 0
            return 0.0
    return 1.0 / denom


def ideal_sigma(radius, epsilon=DEFAULT_EPSILON):
    """kernel.cpp ideal_sigma (Chapman, appendix B): the sigma at which the boundary weight w[+-r] of the
    normalized truncated kernel equals epsilon (1/255: the smallest nonzero 8-bit weight). Bisection,
    with kernel.cpp's starting bracket and stopping rule so both land on the same double."""
    check_radius(radius)
    box = 1.0 / (2 * radius + 1)
    if not 0 < epsilon < box:
        raise ValueError(f"ideal_sigma: epsilon {epsilon} must lie in (0, 1/(2r+1)) = (0, {box})")
    lo, hi = 1e-3, 1.0
    while gaussian_boundary_weight(radius, hi) < epsilon:
        lo, hi = hi, hi * 2
        if not math.isfinite(hi):
            raise ValueError("ideal_sigma: epsilon too close to 1/(2r+1)")
    for _ in range(200):
        mid = 0.5 * (lo + hi)
        if mid <= lo or mid >= hi:
            break
        if gaussian_boundary_weight(radius, mid) < epsilon:
            lo = mid
        else:
            hi = mid
    return 0.5 * (lo + hi)


def kernel_weights(kernel, radius, sigma=None, epsilon=DEFAULT_EPSILON):
    """kernel.cpp kernel_weights: 2r+1 weights for offsets -r..r, normalized (in double) to sum 1."""
    check_radius(radius)
    n = 2 * radius + 1
    if kernel == "box":
        w = [1.0] * n
    elif kernel == "gaussian":
        s = sigma if sigma is not None else ideal_sigma(radius, epsilon)
        if not (math.isfinite(s) and s > 0):
            raise ValueError(f"kernel sigma must be finite and > 0, got {s}")
        w = [math.exp(-float(i * i) / (2 * s * s)) for i in range(-radius, radius + 1)]
    elif kernel == "binomial":
        # Row 2r of Pascal's triangle / 2^(2r), built as (left + right) / 2 like kernel.cpp.
        w = [1.0]
        for _ in range(1, n):
            w = [((w[j - 1] if j > 0 else 0.0) + (w[j] if j < len(w) else 0.0)) / 2 for j in range(len(w) + 1)]
    else:
        raise ValueError(f"unknown kernel '{kernel}' (kernels: {', '.join(KERNELS)})")
    total = compensated_sum(w)
    return np.array([x / total for x in w], dtype=np.float64)


def resolved_sigma(kernel, radius, sigma):
    """What filterlab's bench writes as "sigma" (schema 2: the step's value, given or derived, whatever
    the kernel; the box and binomial kernels do not read it)."""
    return sigma if sigma is not None else ideal_sigma(radius)


# ---- Images, the reference and the error -----------------------------------------------------------


def random_image(width, height, channels, seed):
    """Built like filters::random_image: std::mt19937(seed) (numpy's legacy RandomState seeds MT19937 the
    same way), the top 24 bits of each draw times 2^-24, channels interleaved, rows top-down."""
    draws = np.random.RandomState(seed).randint(0, 2**32, size=width * height * channels, dtype=np.uint32)
    return ((draws >> 8).astype(np.float32) * np.float32(1.0 / 16777216.0)).reshape(height, width, channels)


def stored(image, precision):
    """The values a GPU image of this precision holds (fp16 rounds once, as filterlab's bench does)."""
    return image.astype(np.float16).astype(np.float32) if precision == "fp16" else image


def reference_blur(image, weights, gather_index=lambda idx: idx):
    """out(x,y) = sum_ij w[i] w[j] in(clamp(x+i), clamp(y+j)) for an (H, W, C) float64 array, horizontal
    pass then vertical, like filters::reference_blur. Only indexing, slicing and scalar multiply-adds, so
    the same code runs on numpy, cupy or torch arrays (gather_index turns a numpy index array into the
    array library's); it shares nothing with the peers' convolution code."""
    r = len(weights) // 2
    height, width = image.shape[0], image.shape[1]
    cols = gather_index(np.clip(np.arange(-r, width + r), 0, width - 1))
    padded = image[:, cols]
    horizontal = sum(float(weights[k]) * padded[:, k:k + width] for k in range(2 * r + 1))
    rows = gather_index(np.clip(np.arange(-r, height + r), 0, height - 1))
    padded = horizontal[rows]
    return sum(float(weights[k]) * padded[k:k + height] for k in range(2 * r + 1))


def error_stats(output, reference):
    """max |a-b| and the mean squared error over every pixel and channel, as filters::compare; a NaN
    counts as an infinite error."""
    diff = np.abs(np.asarray(output, dtype=np.float64) - np.asarray(reference, dtype=np.float64))
    if np.isnan(diff).any():
        return {"max_abs": math.inf, "mse": math.inf, "ssim": None}
    return {"max_abs": float(diff.max()), "mse": float(np.mean(diff * diff)), "ssim": None}


def write_pfm(path, image):
    """RGB PFM, little-endian (negative scale), rows bottom-up."""
    height, width = image.shape[:2]
    rgb = np.ascontiguousarray(image[::-1, :, :3], dtype="<f4")
    with open(path, "wb") as f:
        f.write(f"PF\n{width} {height}\n-1.0\n".encode())
        f.write(rgb.tobytes())


def read_pfm(path):
    with open(path, "rb") as f:
        data = f.read()
    tokens, pos = [], 0
    while len(tokens) < 4:  # magic, width, height, scale; one whitespace byte after the scale
        while data[pos:pos + 1].isspace():
            pos += 1
        start = pos
        while not data[pos:pos + 1].isspace():
            pos += 1
        tokens.append(data[start:pos].decode())
    pos += 1
    channels = {"PF": 3, "Pf": 1}[tokens[0]]
    width, height, scale = int(tokens[1]), int(tokens[2]), float(tokens[3])
    pixels = np.frombuffer(data, dtype="<f4" if scale < 0 else ">f4", offset=pos)
    return pixels.reshape(height, width, channels)[::-1].astype(np.float32)


# ---- Array libraries -------------------------------------------------------------------------------

PRECISION_NAMES = {"fp16": "float16", "fp32": "float32", "fp64": "float64"}


class TorchLib:
    """Images as (1, 4, H, W) tensors, NCHW or channels-last memory."""

    name = "torch"

    def __init__(self, device, layout):
        import torch
        self.torch = torch
        self.device = torch.device(device)
        self.layout = layout
        self.cuda = self.device.type == "cuda"
        if self.cuda:
            torch.cuda.init()
            torch.backends.cudnn.benchmark = True  # autotuned during the warm-up calls
            self.fp32_note = disable_tf32(torch)

    def dtype(self, precision):
        return getattr(self.torch, PRECISION_NAMES[precision])

    def upload(self, image_hwc, precision):
        t = self.torch.from_numpy(np.ascontiguousarray(image_hwc.transpose(2, 0, 1)))[None]
        t = t.to(device=self.device, dtype=self.dtype(precision))
        if self.layout == "channels_last":
            t = t.contiguous(memory_format=self.torch.channels_last)
        return t

    def download(self, t):
        return t[0].permute(1, 2, 0).to(dtype=self.torch.float64).cpu().numpy()

    def synchronize(self):
        if self.cuda:
            self.torch.cuda.synchronize(self.device)

    def timer(self):
        if not self.cuda:
            return WallClock()
        return CudaEvents(lambda: self.torch.cuda.Event(enable_timing=True), lambda a, b: a.elapsed_time(b))

    def spin(self, cycles):
        self.torch.cuda._sleep(int(cycles))  # a GPU busy-wait (torch's own test helper)

    def can_spin(self):
        return self.cuda and hasattr(self.torch.cuda, "_sleep")


class CupyLib:
    """Images as (H, W, 4) arrays: channels interleaved, the layout of an RGBA image in memory."""

    name = "cupy"
    layout = "hwc"
    cuda = True
    _SPIN = r"""
extern "C" __global__ void filterlab_spin(long long cycles) {
  const long long start = clock64();
  while (clock64() - start < cycles) {}
}"""

    def __init__(self):
        import cupy
        self.cupy = cupy
        cupy.cuda.runtime.getDeviceCount()  # raises when there is no CUDA device
        self._spin = None

    def upload(self, image_hwc, precision):
        return self.cupy.asarray(image_hwc, dtype=PRECISION_NAMES[precision])

    def download(self, a):
        return self.cupy.asnumpy(a).astype(np.float64)

    def synchronize(self):
        self.cupy.cuda.Device().synchronize()

    def timer(self):
        return CudaEvents(self.cupy.cuda.Event, self.cupy.cuda.get_elapsed_time)  # timing is on by default

    def spin(self, cycles):
        if self._spin is None:
            self._spin = self.cupy.RawKernel(self._SPIN, "filterlab_spin")
        self._spin((1,), (1,), (np.int64(cycles),))

    def can_spin(self):
        return True


def disable_tf32(torch):
    """fp32 must mean fp32: cuDNN may otherwise run fp32 convolutions as TF32 (10-bit mantissa)."""
    conv = getattr(torch.backends.cudnn, "conv", None)
    rnn = getattr(torch.backends.cudnn, "rnn", None)
    if conv is not None and hasattr(conv, "fp32_precision"):
        conv.fp32_precision = "ieee"
        if rnn is not None and hasattr(rnn, "fp32_precision"):
            rnn.fp32_precision = "ieee"  # torch refuses conv and rnn flags that disagree
        return "torch.backends.cudnn.conv.fp32_precision = 'ieee' (no TF32)"
    torch.backends.cudnn.allow_tf32 = False
    return "torch.backends.cudnn.allow_tf32 = False (no TF32)"


class CudaEvents:
    """One (start, end) event pair per call on the current stream; read after a synchronize."""

    def __init__(self, make_event, elapsed_ms):
        self.make_event, self.elapsed_ms, self.pairs = make_event, elapsed_ms, []

    def start(self):
        event = self.make_event()
        event.record()
        self.pairs.append([event, None])

    def stop(self):
        event = self.make_event()
        event.record()
        self.pairs[-1][1] = event

    def microseconds(self):
        return [self.elapsed_ms(a, b) * 1000.0 for a, b in self.pairs]


class WallClock:
    """--device cpu: the host clock around each (synchronous) call."""

    def __init__(self):
        self.times, self.t0 = [], 0.0

    def start(self):
        self.t0 = time.perf_counter()

    def stop(self):
        self.times.append((time.perf_counter() - self.t0) * 1e6)

    def microseconds(self):
        return self.times


# ---- The peers -------------------------------------------------------------------------------------
# make_<peer>(lib, weights, radius, sigma, kernel, precision) -> (call, facts), where call(x) filters one
# resident image and returns the output, and facts describes what ran.


def torch_separable(lib, weights, radius, sigma, kernel, precision):
    """Replicate padding by r on all sides, then a horizontal and a vertical depthwise conv2d (groups=4)."""
    torch, F = lib.torch, lib.torch.nn.functional
    w = torch.from_numpy(np.asarray(weights, dtype=np.float64))
    dtype = lib.dtype(precision)
    horizontal = w.view(1, 1, 1, -1).repeat(4, 1, 1, 1).to(device=lib.device, dtype=dtype)
    vertical = w.view(1, 1, -1, 1).repeat(4, 1, 1, 1).to(device=lib.device, dtype=dtype)

    def call(x):
        padded = F.pad(x, (radius, radius, radius, radius), mode="replicate")
        return F.conv2d(F.conv2d(padded, horizontal, groups=4), vertical, groups=4)

    return call, {"taps_per_pixel": 2 * (2 * radius + 1),
                  "note": f"F.pad(replicate) + 2 depthwise F.conv2d, weights in {PRECISION_NAMES[precision]}"}


def torchvision_blur(lib, weights, radius, sigma, kernel, precision):
    """torchvision's gaussian_blur pads with *reflect*, not clamp-to-edge: to run filterlab's workload the
    input is replicate-padded by r first and the r-pixel frame cropped off (a view), so torchvision's own
    padding only ever touches pixels that are cropped. The extra pad is timed: it is what a user needs."""
    if kernel != "gaussian":
        raise Unsupported("torchvision.gaussian_blur computes Gaussian weights only")
    F = lib.torch.nn.functional
    try:
        from torchvision.transforms.v2.functional import gaussian_blur
    except ImportError:
        from torchvision.transforms.functional import gaussian_blur
    size = 2 * radius + 1

    def call(x):
        padded = F.pad(x, (radius, radius, radius, radius), mode="replicate")
        return gaussian_blur(padded, [size, size], [sigma, sigma])[..., radius:-radius, radius:-radius]

    return call, {"taps_per_pixel": size * size,
                  "note": "F.pad(replicate) by r, then gaussian_blur (its reflect padding lands in the cropped "
                          "frame; one full 2D depthwise conv2d, weights computed by torchvision in the image "
                          "dtype), output cropped"}


def cupy_gaussian_filter(lib, weights, radius, sigma, kernel, precision):
    """cupyx.scipy.ndimage.gaussian_filter over the two image axes (sigma 0 on the channel axis skips it),
    mode='nearest' (clamp-to-edge), truncate = r / sigma so its radius int(truncate*sigma + 0.5) is r."""
    if kernel != "gaussian":
        raise Unsupported("cupyx.scipy.ndimage.gaussian_filter computes Gaussian weights only")
    from cupyx.scipy import ndimage
    truncate = radius / sigma
    if int(truncate * sigma + 0.5) != radius:
        raise Unsupported(f"truncate {truncate} does not give radius {radius}")

    def call(x):
        return ndimage.gaussian_filter(x, sigma=(sigma, sigma, 0.0), mode="nearest", truncate=truncate)

    return call, {"taps_per_pixel": 2 * (2 * radius + 1), "note": cupy_note(precision)}


def cupy_correlate1d(lib, weights, radius, sigma, kernel, precision):
    """Our weights, two cupyx.scipy.ndimage.correlate1d calls (horizontal, then vertical), mode='nearest'."""
    from cupyx.scipy import ndimage
    w = lib.cupy.asarray(np.asarray(weights, dtype=np.float64))

    def call(x):
        return ndimage.correlate1d(ndimage.correlate1d(x, w, axis=1, mode="nearest"), w, axis=0, mode="nearest")

    return call, {"taps_per_pixel": 2 * (2 * radius + 1), "note": cupy_note(precision)}


def cupy_note(precision):
    stored_as = PRECISION_NAMES[precision]
    return (f"stored as {stored_as}; cupyx.scipy.ndimage casts the weights to promote_types(input dtype, "
            f"float32) and sums in that type; the pass between the two axes is stored as {stored_as}; outputs "
            "from cupy's memory pool")


class Unsupported(Exception):
    """A peer that cannot run this case (the reason goes into "skipped")."""


# ---- NPP (NVIDIA Performance Primitives) through ctypes, on CuPy's arrays and stream ----------------
# The image functions a CUDA user reaches for: nppiFilterRowBorder + nppiFilterColumnBorder (two
# passes, our weights) and nppiFilterGaussAdvancedBorder (one call, our weights), with the replicate
# border (clamp-to-edge). Those two take four-channel float images in fp32 only (NPP 13 has 8u, 16u,
# 16s and 32f variants of them, no 16f); NPP's one four-channel half-float filter is the general 2D
# convolution nppiFilterBorder32f_16f_C4R, which npp.border_2d runs with outer(w, w) (fp16; fp32 through
# nppiFilterBorder_32f_C4R). The stream-context (_Ctx) entry points run on CuPy's current stream, so
# CuPy's events time them.


class NppiSize(ctypes.Structure):
    _fields_ = [("width", ctypes.c_int), ("height", ctypes.c_int)]


class NppiPoint(ctypes.Structure):
    _fields_ = [("x", ctypes.c_int), ("y", ctypes.c_int)]


class NppStreamContext(ctypes.Structure):
    _fields_ = [("hStream", ctypes.c_void_p), ("nCudaDeviceId", ctypes.c_int), ("nMultiProcessorCount", ctypes.c_int),
                ("nMaxThreadsPerMultiProcessor", ctypes.c_int), ("nMaxThreadsPerBlock", ctypes.c_int),
                ("nSharedMemPerBlock", ctypes.c_size_t), ("nCudaDevAttrComputeCapabilityMajor", ctypes.c_int),
                ("nCudaDevAttrComputeCapabilityMinor", ctypes.c_int), ("nStreamFlags", ctypes.c_uint),
                ("nReserved0", ctypes.c_int)]


NPP_BORDER_REPLICATE = 2  # NppiBorderType


def npp_library(name):
    """libnpp<name>.so from the CUDA toolkit (CUDA_HOME, /usr/local/cuda) or the nvidia-npp wheel."""
    candidates = [ctypes.util.find_library("npp" + name)]
    for root in (os.environ.get("CUDA_HOME", ""), "/usr/local/cuda", "/usr/local/cuda/targets/x86_64-linux"):
        candidates += sorted(glob.glob(os.path.join(root, "lib*", f"libnpp{name}.so*")))
    for path in sys.path:
        candidates += sorted(glob.glob(os.path.join(path, "nvidia", "npp", "lib", f"libnpp{name}.so*")))
    for candidate in candidates:
        if not candidate:
            continue
        try:
            return ctypes.CDLL(candidate)
        except OSError:
            continue
    raise Unsupported(f"libnpp{name} not found (CUDA toolkit or the nvidia-npp wheel)")


class Npp:
    _instance = None

    @classmethod
    def get(cls):
        if cls._instance is None:
            cls._instance = cls()
        return cls._instance

    def __init__(self):
        self.core = npp_library("c")
        self.filters = npp_library("if")
        self.context = NppStreamContext()
        status = self.core.nppGetStreamContext(ctypes.byref(self.context))
        if status != 0:
            raise Unsupported(f"nppGetStreamContext returned {status}")

    def function(self, name):
        f = getattr(self.filters, name, None)
        if f is None:
            raise Unsupported(f"this NPP has no {name}")
        f.restype = ctypes.c_int
        return f

    def stream_context(self, cupy):
        self.context.hStream = cupy.cuda.get_current_stream().ptr
        return self.context


def npp_check(status, what):
    if status != 0:
        raise RuntimeError(f"{what} returned NppStatus {status}")


def npp_setup(lib, weights, precision, offered=("fp32",)):
    if precision not in offered:
        raise Unsupported(f"NPP has this filter for four-channel images in {' and '.join(offered)} only "
                          f"(its separable and Gaussian filters have no 16f variant: see npp.border_2d)")
    npp = Npp.get()
    # NPP wants the coefficients in reverse order; ours are symmetric, reversed all the same.
    kernel = lib.cupy.asarray(np.asarray(weights[::-1], dtype=np.float32))
    return npp, kernel


def npp_geometry(x):
    height, width = x.shape[0], x.shape[1]
    step = int(x.strides[0])
    return NppiSize(width, height), NppiPoint(0, 0), step


def npp_row_column(lib, weights, radius, sigma, kernel, precision):
    """nppiFilterRowBorder_32f_C4R then nppiFilterColumnBorder_32f_C4R, replicate border, our weights."""
    npp, k = npp_setup(lib, weights, precision)
    row = npp.function("nppiFilterRowBorder_32f_C4R_Ctx")
    column = npp.function("nppiFilterColumnBorder_32f_C4R_Ctx")
    cupy, holder = lib.cupy, {}

    def call(x):
        if holder.get("shape") != x.shape:
            holder.update(shape=x.shape, mid=cupy.empty_like(x), out=cupy.empty_like(x))
        size, offset, step = npp_geometry(x)
        ctx = npp.stream_context(cupy)
        mid, out = holder["mid"], holder["out"]
        npp_check(row(ctypes.c_void_p(x.data.ptr), step, size, offset, ctypes.c_void_p(mid.data.ptr), step, size,
                      ctypes.c_void_p(k.data.ptr), 2 * radius + 1, radius, NPP_BORDER_REPLICATE, ctx),
                  "nppiFilterRowBorder_32f_C4R_Ctx")
        npp_check(column(ctypes.c_void_p(mid.data.ptr), step, size, offset, ctypes.c_void_p(out.data.ptr), step, size,
                         ctypes.c_void_p(k.data.ptr), 2 * radius + 1, radius, NPP_BORDER_REPLICATE, ctx),
                  "nppiFilterColumnBorder_32f_C4R_Ctx")
        return out

    return call, {"taps_per_pixel": 2 * (2 * radius + 1),
                  "note": "nppiFilterRowBorder_32f_C4R_Ctx + nppiFilterColumnBorder_32f_C4R_Ctx, NPP_BORDER_REPLICATE, "
                          "our weights in float32, the pass between them stored as float32; on CuPy's stream"}


def npp_one_call(lib, npp, name, kernel, kernel_arguments):
    """A call of NPP's `name` from x into an output of x's shape, replicate border, on CuPy's stream;
    `kernel_arguments` are those between the ROI size and the border type, and point into `kernel`
    (a device array), which the call keeps alive."""
    function = npp.function(name)
    cupy, holder = lib.cupy, {"kernel": kernel}

    def call(x):
        if holder.get("shape") != x.shape:
            holder.update(shape=x.shape, out=cupy.empty_like(x))
        size, offset, step = npp_geometry(x)
        out = holder["out"]
        npp_check(function(ctypes.c_void_p(x.data.ptr), step, size, offset, ctypes.c_void_p(out.data.ptr), step, size,
                           *kernel_arguments, NPP_BORDER_REPLICATE, npp.stream_context(cupy)), name)
        return out

    return call


def npp_gauss_advanced(lib, weights, radius, sigma, kernel, precision):
    """nppiFilterGaussAdvancedBorder_32f_C4R: one call, our 2r+1 weights, replicate border."""
    npp, k = npp_setup(lib, weights, precision)
    name = "nppiFilterGaussAdvancedBorder_32f_C4R_Ctx"
    call = npp_one_call(lib, npp, name, k, (2 * radius + 1, ctypes.c_void_p(k.data.ptr)))
    return call, {"taps_per_pixel": (2 * radius + 1) ** 2,
                  "note": f"{name}, NPP_BORDER_REPLICATE, our weights in float32; on CuPy's stream"}


def npp_border_2d(lib, weights, radius, sigma, kernel, precision):
    """nppiFilterBorder32f_16f_C4R (fp16) or nppiFilterBorder_32f_C4R (fp32): a (2r+1)^2 kernel, outer(w, w),
    replicate border, in one call: NPP's only four-channel half-float filter."""
    npp, _ = npp_setup(lib, weights, precision, ("fp16", "fp32"))
    name = "nppiFilterBorder32f_16f_C4R_Ctx" if precision == "fp16" else "nppiFilterBorder_32f_C4R_Ctx"
    k = lib.cupy.asarray(np.outer(weights[::-1], weights[::-1]).astype(np.float32))
    call = npp_one_call(lib, npp, name, k, (ctypes.c_void_p(k.data.ptr), NppiSize(2 * radius + 1, 2 * radius + 1),
                                            NppiPoint(radius, radius)))
    return call, {"taps_per_pixel": (2 * radius + 1) ** 2,
                  "note": f"{name}, a (2r+1)x(2r+1) kernel outer(w, w) in float32, NPP_BORDER_REPLICATE, "
                          "anchor (r, r); on CuPy's stream"}


PEER_FACTORIES = {
    "torch.conv2d_separable": ("torch", torch_separable),
    "torchvision.gaussian_blur": ("torch", torchvision_blur),
    "cupy.gaussian_filter": ("cupy", cupy_gaussian_filter),
    "cupy.correlate1d": ("cupy", cupy_correlate1d),
    "npp.row_column": ("cupy", npp_row_column),
    "npp.gauss_advanced": ("cupy", npp_gauss_advanced),
    "npp.border_2d": ("cupy", npp_border_2d),
}


def weights_check(lib, make_call, radius, sigma, kernel, weights, precision="fp64"):
    """Runs the peer in float64 (or, for a peer without it, `precision`) on a unit impulse and compares its 2D
    response with outer(w, w): shows that the peer computes our kernel (torchvision and
    cupy.gaussian_filter compute their own weights)."""
    n = 4 * radius + 1
    impulse = np.zeros((n, n, 4))
    impulse[2 * radius, 2 * radius, :] = 1.0
    call, _ = make_call(lib, weights, radius, sigma, kernel, precision)
    response = lib.download(call(lib.upload(impulse, precision)))
    centre = response[radius:3 * radius + 1, radius:3 * radius + 1, :]  # pixels whose footprint stays inside
    expected = np.outer(weights, weights)[:, :, None]
    return float(np.abs(centre - expected).max())


# ---- Timing ----------------------------------------------------------------------------------------


def summarize(samples):
    """As runtime::summarize: percentiles by linear interpolation between order statistics, and the
    share of the samples more than 10% from the median (bench's unsteady: more than 10% of them)."""
    s = np.asarray(samples, dtype=np.float64)
    median = float(np.percentile(s, 50))
    share = float(np.mean(np.abs(s - median) > 0.10 * median)) if median > 0 else 0.0
    return {"median_us": median, "p5_us": float(np.percentile(s, 5)),
            "p95_us": float(np.percentile(s, 95)), "min_us": float(s.min()), "max_us": float(s.max()),
            "frames": int(s.size), "off_level_share": share, "unsteady": s.size >= 20 and share > 0.10}


class Timing:
    """Warm-up, then timed calls in batches. On CUDA each batch is queued behind a short GPU busy-wait
    (unless --no-backlog), so the GPU never waits for the CPU to launch the next kernel of a call and
    the events measure GPU time, as filterlab's timestamps do for a recorded command buffer."""

    BATCH = 10

    def __init__(self, options):
        self.options = options
        self.cycles_per_us = {}

    def calibrate(self, lib):
        if lib.name not in self.cycles_per_us:
            timer = lib.timer()
            for _ in range(3):
                timer.start()
                lib.spin(1_000_000)
                timer.stop()
            lib.synchronize()
            self.cycles_per_us[lib.name] = 1_000_000 / max(timer.microseconds()[-1], 1e-3)
        return self.cycles_per_us[lib.name]

    def run(self, lib, call, inputs):
        o = self.options
        count = len(inputs)
        lib.synchronize()
        start, calls, launch_us = time.perf_counter(), 0, 0.0
        while calls < o.warmup or time.perf_counter() - start < o.warmup_ms / 1000.0:
            t0 = time.perf_counter()
            for _ in range(max(o.warmup, 1)):
                call(inputs[calls % count])
                calls += 1
            launch_us = (time.perf_counter() - t0) * 1e6 / max(o.warmup, 1)  # CPU time to issue one call
            lib.synchronize()
        backlog = lib.cuda and not o.no_backlog and lib.can_spin()
        spin_cycles = self.calibrate(lib) * (3 * launch_us * self.BATCH + 200) if backlog else 0
        timer = lib.timer()
        for first in range(0, o.frames, self.BATCH):
            if backlog:
                lib.spin(spin_cycles)
            for frame in range(first, min(first + self.BATCH, o.frames)):
                timer.start()
                call(inputs[frame % count])
                timer.stop()
            lib.synchronize()
        return summarize(timer.microseconds())


# ---- The run ---------------------------------------------------------------------------------------


def open_libraries(options, wanted, skipped):
    """{"torch": TorchLib, "cupy": CupyLib} for the libraries the requested peers need and that work here."""
    libraries = {}
    for name in sorted(wanted):
        try:
            if name == "torch":
                import torch
                if options.device == "cuda" and not torch.cuda.is_available():
                    raise Unsupported("torch.cuda.is_available() is False (no CUDA device or driver)")
                libraries[name] = TorchLib(options.device, options.torch_layout)
            elif options.device != "cuda":
                raise Unsupported("cupy runs on CUDA only (--device cpu)")
            else:
                libraries[name] = CupyLib()
        except Exception as e:  # ImportError, a CUDA runtime error, Unsupported
            reason = f"{name} unavailable: {type(e).__name__}: {e}"
            for peer in options.peers:
                if PEER_FACTORIES[peer][0] == name:
                    skipped.append({"method": peer, "reason": reason})
            print(f"peers: skipping {name}: {reason}", file=sys.stderr)
    if "torchvision.gaussian_blur" in options.peers and "torch" in libraries:
        try:
            importlib.import_module("torchvision")
        except Exception as e:  # missing, or built for another torch
            reason = f"torchvision unavailable: {type(e).__name__}: {e}"
            skipped.append({"method": "torchvision.gaussian_blur", "reason": reason})
            print(f"peers: skipping torchvision: {reason}", file=sys.stderr)
            options.peers = [p for p in options.peers if p != "torchvision.gaussian_blur"]
    return libraries


def copy_call(lib):
    """The memory floor: a plain device copy of the same size and dtype (torch: dst.copy_(src))."""
    if lib.name == "torch":
        holder = {}

        def call(x):
            dst = holder.get("dst")
            if dst is None or dst.shape != x.shape or dst.dtype != x.dtype:
                dst = holder["dst"] = lib.torch.empty_like(x)
            return dst.copy_(x)

        return call, "torch Tensor.copy_ into a preallocated tensor"
    holder = {}

    def call(x):
        dst = holder.get("dst")
        if dst is None or dst.shape != x.shape or dst.dtype != x.dtype:
            dst = holder["dst"] = lib.cupy.empty_like(x)
        lib.cupy.copyto(dst, x)
        return dst

    return call, "cupy.copyto into a preallocated array"


class Progress:
    def __init__(self, total, quiet):
        self.total, self.index, self.quiet, self.start = total, 0, quiet, time.perf_counter()
        self.tty = sys.stderr.isatty()

    def step(self, label):
        self.index += 1
        if self.quiet:
            return
        elapsed = time.perf_counter() - self.start
        left = elapsed / (self.index - 1) * (self.total - self.index + 1) if self.index > 1 else 0.0
        line = f"[{self.index}/{self.total}] {label:<48} {elapsed:6.0f} s elapsed, ~{left:.0f} s left"
        sys.stderr.write(("\r\033[K" + line) if self.tty else line + "\n")
        sys.stderr.flush()

    def done(self):
        if self.tty and not self.quiet:
            sys.stderr.write("\n")


def reference_backend(libraries):
    """Where the float64 reference is computed: on the GPU when a library can (fast), else numpy."""
    if "torch" in libraries and libraries["torch"].cuda:
        lib = libraries["torch"]
        torch = lib.torch
        return ("torch float64 on " + str(lib.device),
                lambda a: torch.from_numpy(a).to(lib.device), lambda idx: torch.from_numpy(idx).to(lib.device),
                lambda a: a.cpu().numpy())
    if "cupy" in libraries:
        cupy = libraries["cupy"].cupy
        return "cupy float64", cupy.asarray, cupy.asarray, cupy.asnumpy
    return "numpy float64 on the CPU", lambda a: a, lambda idx: idx, lambda a: a


def copy_case(timing, lib, inputs, image0, width, height, precision):
    """The memory floor, timed like the peers in the same run."""
    call, how = copy_call(lib)
    case = base_case("copy", "copy", width, height, precision)
    case.update(timing.run(lib, call, inputs))
    case.update({"copy_ratio": 1.0, "fetches_per_pixel": 1.0, "library": lib.name, "note": how,
                 "error": error_stats(lib.download(call(inputs[0])), image0),
                 "passes": [{"name": "copy", "median_us": case["median_us"]}],
                 "repeat_medians_us": [case["median_us"]]})
    return case


def peer_case(timing, peer, lib, inputs, reference, workload, copy_us):
    """Checks one peer against the reference on input 0, then times it. Raises when it cannot run."""
    make = PEER_FACTORIES[peer][1]
    width, height, precision, kernel, radius, sigma, weights = workload
    call, facts = make(lib, weights, radius, sigma, kernel, precision)
    try:
        check, exact_within = weights_check(lib, make, radius, sigma, kernel, weights), 1e-9
    except Unsupported:  # NPP has no fp64: the weights are checked in float32 (one rounding each)
        check, exact_within = weights_check(lib, make, radius, sigma, kernel, weights, "fp32"), 1e-6
    error = error_stats(lib.download(call(inputs[0])), reference())
    timed = timing.run(lib, call, inputs)
    # A second layout is a second series: its name says so.
    method = peer + (".channels_last" if lib.layout == "channels_last" else "")
    case = base_case("gaussian", method, width, height, precision, radius, sigma, kernel)
    case.update(timed)
    case.update({"exact": check <= exact_within, "copy_ratio": timed["median_us"] / copy_us,
                 "fetches_per_pixel": float(facts["taps_per_pixel"]), "library": lib.name, "layout": lib.layout,
                 "note": facts["note"], "weights_max_abs_diff": check, "error": error,
                 "passes": [{"name": method, "median_us": timed["median_us"]}],
                 "repeat_medians_us": [timed["median_us"]]})
    if not error["max_abs"] <= FLAG_MAX_ABS:
        case["flagged"] = f"max_abs {error['max_abs']:.3g} > {FLAG_MAX_ABS:g} against the reference"
    return case


def run_peers(options, checkpoint=lambda result, skipped: None):
    """Every case; checkpoint(result, skipped) after each size and precision, so a run cut short (a
    time limit) still leaves the cases done so far."""
    skipped = []
    libraries = open_libraries(options, {PEER_FACTORIES[p][0] for p in options.peers}, skipped)
    peers = [p for p in options.peers if PEER_FACTORIES[p][0] in libraries]
    if not peers:
        return None, skipped
    floor_lib = libraries.get("torch") or libraries["cupy"]
    reference_where, to_ref, ref_index, from_ref = reference_backend(libraries)
    timing = Timing(options)
    cases = []
    result = {"cases": cases, "libraries": libraries, "reference": reference_where}
    progress = Progress(len(options.sizes) * len(options.precisions) * (1 + len(options.radii) * len(peers)),
                        options.quiet)
    for width, height in options.sizes:
        for precision in options.precisions:
            images = [stored(random_image(width, height, 4, 1000 + i), precision) for i in range(options.inputs)]
            resident = {name: [lib.upload(im, precision) for im in images] for name, lib in libraries.items()}
            suffix = f" {width}x{height} {precision}"
            progress.step("copy" + suffix)
            floor = copy_case(timing, floor_lib, resident[floor_lib.name], images[0], width, height, precision)
            cases.append(floor)
            for radius in options.radii:
                sigma = resolved_sigma(options.kernel, radius, options.sigma)
                weights = kernel_weights(options.kernel, radius, options.sigma)
                cached = []

                def reference():  # computed once per radius, when the first peer needs it
                    if not cached:
                        image = to_ref(images[0].astype(np.float64))
                        cached.append(from_ref(reference_blur(image, weights, ref_index)))
                    return cached[0]

                for peer in peers:
                    progress.step(f"{peer} r={radius}{suffix}")
                    lib = libraries[PEER_FACTORIES[peer][0]]
                    try:
                        workload = (width, height, precision, options.kernel, radius, sigma, weights)
                        case = peer_case(timing, peer, lib, resident[lib.name], reference, workload,
                                         floor["median_us"])
                    except Exception as e:  # Unsupported, or the library refused the case
                        reason = f"{type(e).__name__}: {e}"
                        skipped.append({"method": peer, "radius": radius, "reason": reason})
                        print(f"\npeers: skipped {peer} r={radius}{suffix}: {reason}", file=sys.stderr)
                        continue
                    if "flagged" in case:
                        print(f"\npeers: FLAGGED {peer} r={radius}{suffix}: {case['flagged']}", file=sys.stderr)
                    cases.append(case)
            del resident
            for c in cases:
                c["gpixels_per_s"] = c["width"] * c["height"] / (c["median_us"] * 1e3) if c["median_us"] else 0.0
            checkpoint(result, skipped)
    progress.done()
    return result, skipped


def base_case(filter_name, method, width, height, precision, radius=None, sigma=None, kernel=None):
    """Every field filterlab's bench writes per case (renderer/bench/bench.cpp write_bench_json): schema
    2 has one key per parameter of the family's schema that the method takes, so a copy case has no
    radius, sigma or kernel."""
    params = f"radius={radius}:kernel={kernel}:precision={precision}" if filter_name != "copy" else \
        f"precision={precision}"
    schema = {"radius": radius, "sigma": sigma, "kernel": kernel} if filter_name != "copy" else {}
    return {"filter": filter_name, "method": method, "stage": "cuda", "exact": True, "params": params,
            **schema, "width": width, "height": height,
            "precision": precision, "median_us": 0.0, "p5_us": 0.0, "p95_us": 0.0, "min_us": 0.0, "max_us": 0.0,
            "frames": 0, "gpixels_per_s": 0.0, "copy_ratio": 0.0, "floor": filter_name == "copy",
            "fetches_per_pixel": 0.0,
            "shared_reads_per_pixel": None, "shared_writes_per_pixel": None, "passes": [], "error": None,
            "repeat_medians_us": [], "spread": 0.0, "unstable": False,  # one run each (bench --repeat)
            "off_level_share": 0.0, "unsteady": False,
            "clock": None,  # filterlab's clock probe (bench/clock_watch.h); not taken here
            "pipelines": []}  # filterlab's Vulkan pipelines and their compiler statistics; none for CUDA libraries


# ---- The JSON document -----------------------------------------------------------------------------


def git_revision():
    # A bundle carries no git repository: bundle.sh writes the revision it was built from beside us.
    stamp = os.path.join(os.path.dirname(os.path.abspath(__file__)), "REVISION")
    if os.path.exists(stamp):
        with open(stamp) as f:
            return f.read().strip() or "unknown"
    here = os.path.dirname(os.path.abspath(__file__))
    try:
        rev = subprocess.run(["git", "-C", here, "rev-parse", "--short=12", "HEAD"], capture_output=True,
                             text=True, timeout=10)
        if rev.returncode != 0:
            return "unknown"
        dirty = subprocess.run(["git", "-C", here, "status", "--porcelain", "--untracked-files=no"],
                               capture_output=True, text=True, timeout=10).stdout.strip()
        return rev.stdout.strip() + ("+dirty" if dirty else "")
    except (OSError, subprocess.SubprocessError):
        return "unknown"


def nvidia_driver():
    try:
        out = subprocess.run(["nvidia-smi", "--query-gpu=driver_version", "--format=csv,noheader"],
                             capture_output=True, text=True, timeout=30)
        return out.stdout.strip().splitlines()[0] if out.returncode == 0 and out.stdout.strip() else ""
    except (OSError, subprocess.SubprocessError):
        return ""


def device_facts(libraries, device):
    """The "device" object: name, type, driver, API version, and the library versions."""
    facts = {"name": "unknown", "type": "discrete", "driver": "NVIDIA",
             "driver_info": nvidia_driver() if device == "cuda" else "", "api_version": "", "libraries": {}}
    if device == "cpu":
        import platform
        facts.update({"name": platform.processor() or platform.machine(), "type": "cpu", "driver": "",
                      "api_version": "none (CPU)"})
    if "torch" in libraries:
        torch = libraries["torch"].torch
        facts["libraries"]["torch"] = torch.__version__
        try:
            import torchvision
            facts["libraries"]["torchvision"] = torchvision.__version__
        except ImportError:
            pass
        if libraries["torch"].cuda:
            props = torch.cuda.get_device_properties(libraries["torch"].device)
            facts["name"] = torch.cuda.get_device_name(libraries["torch"].device)
            facts["type"] = "integrated" if getattr(props, "is_integrated", False) else "discrete"
            facts["api_version"] = f"CUDA {torch.version.cuda}"
            facts["compute_capability"] = f"{props.major}.{props.minor}"
            facts["cudnn"] = torch.backends.cudnn.version()
            facts["fp32_convolutions"] = libraries["torch"].fp32_note
    if "cupy" in libraries:
        cupy = libraries["cupy"].cupy
        facts["libraries"]["cupy"] = cupy.__version__
        runtime = cupy.cuda.runtime.runtimeGetVersion()
        if not facts["api_version"]:
            facts["api_version"] = f"CUDA {runtime // 1000}.{runtime % 1000 // 10}"
        if facts["name"] == "unknown":
            props = cupy.cuda.runtime.getDeviceProperties(cupy.cuda.Device().id)
            name = props["name"]
            facts["name"] = name.decode() if isinstance(name, bytes) else name
    return facts


def make_document(options, device, cases, skipped, reference_where):
    cpu = device.get("type") == "cpu"
    return {
        "schema": SCHEMA,
        "tool": "peers",
        "git_revision": git_revision(),
        "date": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ"),
        "device": device,
        "timings_are": "cpu: torch on the CPU (--device cpu), host clock per call" if cpu else "gpu",
        "timing_method": (
            "time.perf_counter around each call" if cpu else
            "CUDA events (torch.cuda.Event / cupy.cuda.Event) recorded on the current stream before and after "
            "each call; median, p5 and p95 over the timed calls, after at least `warmup` calls and `warmup_ms` "
            "of warm-up per case; inputs resident on the GPU and rotated every call; calls issued in batches of "
            f"{Timing.BATCH}" + ("" if options.no_backlog else
                                 " queued behind a GPU busy-wait, so kernel launches never starve the GPU and "
                                 "the events measure GPU time") + "; outputs allocated by the library (caching "
                                 "allocator / memory pool) as a user's call would"),
        "frames": options.frames,
        "warmup": options.warmup,
        "warmup_ms": options.warmup_ms,
        "clock_probe_us": None,  # filterlab's clock probe; the peers take none
        "inputs": options.inputs,
        "filter": "gaussian",
        "floor_filter": "copy",
        "scene": "built-in scene",  # what filterlab's families measured on the scene ran on; none here
        # As filterlab writes them: the swept values as text.
        "sweeps": {"radius": [str(r) for r in sorted({c["radius"] for c in cases if c["filter"] != "copy"})]},
        "params": {"kernel": options.kernel},
        "kernel": options.kernel,
        "sigma": "ideal sigma for r (epsilon 1/255, kernel.cpp)" if options.sigma is None else options.sigma,
        "border": "clamp-to-edge (torch: replicate padding; cupy: mode='nearest')",
        "error_method": (f"against a float64 reference ({reference_where}, clamp-to-edge, kernel.cpp's weights; "
                         "index gathers and multiply-adds, no convolution routine) on input 0; max_abs and mse "
                         "over the whole frame and all 4 channels; ssim not computed (null). A case with max_abs "
                         f"> {FLAG_MAX_ABS:g} carries \"flagged\". weights_max_abs_diff: the peer's 2D response to "
                         "a unit impulse in float64 against outer(w, w); exact = that difference <= 1e-9"),
        "inputs_are": "filters::random_image(width, height, 4, 1000 + i): mt19937, 24-bit values in [0, 1), "
                      "rounded to fp16 for fp16 cases (the reference sees the rounded values)",
        "cases": cases,
        "skipped": skipped,
    }


def write_json(path, document):
    """Atomically: a failed write leaves no file behind."""
    folder = os.path.dirname(os.path.abspath(path))
    fd, tmp = tempfile.mkstemp(prefix=".peers-", suffix=".json", dir=folder)
    try:
        with os.fdopen(fd, "w") as f:
            json.dump(document, f, indent=2, allow_nan=False, default=str)
            f.write("\n")
        os.replace(tmp, path)
    except BaseException:
        os.unlink(tmp)
        raise


def finite(value):
    """JSON has no infinity: an infinite error is written as null, as bench.cpp writes a NaN SSIM."""
    if isinstance(value, dict):
        return {k: finite(v) for k, v in value.items()}
    if isinstance(value, list):
        return [finite(v) for v in value]
    if isinstance(value, float) and not math.isfinite(value):
        return None
    return value


def print_table(cases, skipped):
    print(f"{'method':<38} {'r':>3} {'size':>10} {'prec':>5} {'median us':>10} {'p95 us':>8} {'x copy':>7} "
          f"{'max err':>10}")
    for c in cases:
        name = "copy (memory floor)" if c["filter"] == "copy" else c["method"]
        err = c["error"]["max_abs"] if c.get("error") else float("nan")
        print(f"{name:<38} {c.get('radius', '-'):>3} {str(c['width']) + 'x' + str(c['height']):>10} {c['precision']:>5} "
              f"{c['median_us']:>10.2f} {c['p95_us']:>8.2f} {c['copy_ratio']:>7.2f} {err:>10.3g}"
              + ("  FLAGGED" if "flagged" in c else ""))
    for s in skipped:
        print(f"skipped {s['method']} r={s['radius']}: {s['reason']}")


# ---- The self-test (numpy only) --------------------------------------------------------------------


class SelfTest:
    """Checks the kernel port and the JSON against the built filterlab binary, without CUDA."""

    def __init__(self, filterlab, validation, work):
        self.filterlab, self.validation, self.work, self.failures = filterlab, validation, work, 0

    def check(self, ok, what):
        print(("ok    " if ok else "FAIL  ") + what)
        self.failures += 0 if ok else 1

    def filterlab_run(self, *args):
        takes_validation = args[0] in ("filter", "bench")
        command = [self.filterlab, *args] + (["--validation"] if self.validation and takes_validation else [])
        done = subprocess.run(command, capture_output=True, text=True)
        if done.returncode != 0:
            raise RuntimeError(f"{' '.join(command)} exited {done.returncode}:\n{done.stdout}{done.stderr}")
        return done.stdout

    def reference_port(self):
        """reference_blur (gathers, separable) against the plain 2D sum written out here, on a tiny image."""
        image = random_image(9, 7, 3, 7).astype(np.float64)
        weights = kernel_weights("gaussian", 4)
        direct = np.zeros_like(image)
        for y in range(7):
            for x in range(9):
                for j in range(-4, 5):
                    for i in range(-4, 5):
                        direct[y, x] += weights[i + 4] * weights[j + 4] * image[min(max(y + j, 0), 6),
                                                                                min(max(x + i, 0), 8)]
        diff = np.abs(reference_blur(image, weights) - direct).max()
        self.check(diff <= 1e-14, f"reference_blur equals the direct 2D clamp-to-edge sum (max diff {diff:.2g})")

    def random_generator(self):
        """The standard fixes mt19937's output: the first draw for the default seed 5489 is 3499211612 and
        the 10000th is 4123659995 ([rand.predef]); numpy's legacy seeding must reproduce both."""
        draws = np.random.RandomState(5489).randint(0, 2**32, size=10000, dtype=np.uint32)
        self.check(int(draws[0]) == 3499211612 and int(draws[-1]) == 4123659995,
                   "random_image draws std::mt19937's sequence")

    def sigmas(self, radii):
        """ideal_sigma against the "sigma" filterlab's bench writes (full double precision) for each radius."""
        path = os.path.join(self.work, "bench.json")
        self.filterlab_run("bench", "--sizes", "23x13", "--radii", ",".join(map(str, radii)), "--methods",
                           "comp.separable_shared", "--precision", "fp32", "--frames", "3", "--warmup", "1",
                           "--warmup-ms", "0", "--inputs", "1", "--quiet", "--json", path)
        with open(path) as f:
            bench = json.load(f)
        theirs = {c["radius"]: c["sigma"] for c in bench["cases"] if c["filter"] == "gaussian"}
        for r in radii:
            ours = ideal_sigma(r)
            ok = r in theirs and abs(ours - theirs[r]) <= 1e-12 * theirs[r]
            self.check(ok, f"ideal_sigma({r}) = {ours!r} vs filterlab bench {theirs.get(r)!r}")
        return bench

    def filtered(self, image_path, kernel, radius, method, sigma=None):
        out = os.path.join(self.work, f"out_{kernel}_{radius}.pfm")
        args = ["filter", "--input", image_path, "--output", out, "--method", method, "--radius", str(radius),
                "--kernel", kernel, "--precision", "fp32"]
        self.filterlab_run(*(args + (["--sigma", repr(sigma)] if sigma is not None else [])))
        return read_pfm(out).astype(np.float64)

    def filter_outputs(self, method, radii):
        """`filterlab filter` (an exact method, fp32) on a small odd-sized random PFM against
        reference_blur with the ported weights, for every kernel: max abs <= 1e-5."""
        image = random_image(37, 23, 3, 11)  # odd sizes; r = 32 reaches past every edge
        path = os.path.join(self.work, "input.pfm")
        write_pfm(path, image)
        image = read_pfm(path).astype(np.float64)
        for kernel in KERNELS:
            for r in radii:
                diff = np.abs(self.filtered(path, kernel, r, method) - reference_blur(image, kernel_weights(kernel, r)))
                self.check(diff.max() <= 1e-5, f"{kernel} r={r}: filterlab {method} vs the port, max abs "
                                               f"{diff.max():.2g}")
        # The comparison must be able to fail: a 1% sigma error has to show.
        r = 5
        wrong = kernel_weights("gaussian", r, ideal_sigma(r) * 1.01)
        diff = np.abs(self.filtered(path, "gaussian", r, method) - reference_blur(image, wrong)).max()
        self.check(diff > 1e-5, f"a 1% sigma error is caught (max abs {diff:.2g} > 1e-5)")
        # An explicit sigma travels the same way.
        diff = np.abs(self.filtered(path, "gaussian", 3, method, sigma=2.5) -
                      reference_blur(image, kernel_weights("gaussian", 3, 2.5))).max()
        self.check(diff <= 1e-5, f"gaussian r=3 sigma=2.5 vs the port, max abs {diff:.2g}")

    def document(self, bench):
        """A peers document (made-up timings, real writer) beside filterlab's bench: every case field
        filterlab writes is there, and `filterlab report` puts peers and compute methods in one plot."""
        cases = []
        for c in bench["cases"]:
            peer = base_case(c["filter"], "copy" if c["filter"] == "copy" else "cupy.correlate1d", c["width"],
                             c["height"], c["precision"], c.get("radius"), c.get("sigma"), c.get("kernel"))
            peer.update({"median_us": 2.0 * c["median_us"], "p5_us": c["p5_us"], "p95_us": c["p95_us"],
                         "min_us": c["min_us"], "max_us": c["max_us"], "frames": 3, "copy_ratio": 2.0,
                         "gpixels_per_s": 1.0, "error": {"max_abs": 0.0, "mse": 0.0, "ssim": None}})
            cases.append(peer)
        device = {"name": "self-test device", "type": "cpu", "driver": "", "driver_info": "", "api_version": ""}
        options = argparse.Namespace(frames=3, warmup=1, warmup_ms=0, inputs=1, kernel="gaussian", sigma=None,
                                     no_backlog=False)
        peers_path = os.path.join(self.work, "peers.json")
        write_json(peers_path, finite(make_document(options, device, cases, [], "numpy")))
        with open(peers_path) as f:
            written = json.load(f)
        missing = {k for k in bench if k not in written} - {"validation", "validation_messages"}
        self.check(not missing, f"top-level fields of filterlab's bench JSON are all there (missing: {missing})")
        missing = set(bench["cases"][0]) - set(written["cases"][0])
        self.check(not missing, f"case fields of filterlab's bench JSON are all there (missing: {missing})")

        html = os.path.join(self.work, "report.html")
        groups = len({(c["width"], c["height"], c["precision"]) for c in bench["cases"] if c["filter"] != "copy"})
        out = self.filterlab_run("report", os.path.join(self.work, "bench.json"), peers_path, "--out", html)
        with open(html) as f:
            page = f.read()
        self.check(f"{2 * groups} plots" in out and "compute methods and CUDA peers" in page and
                   "cupy.correlate1d" in page.split("compute methods and CUDA peers", 1)[-1].split("</svg>", 1)[0],
                   f"report draws the peer inside the compute plot, {2 * groups} plots ({out.strip()})")
        out = self.filterlab_run("report", peers_path, "--out", html)
        with open(html) as f:
            self.check(f"{2 * groups} plots" in out and "CUDA peers" in f.read(), "report of the peers alone")


def self_test(options):
    if not options.filterlab or not os.access(options.filterlab, os.X_OK):
        print("peers: --self-test needs --filterlab PATH to the built filterlab binary", file=sys.stderr)
        return EXIT_USAGE
    with tempfile.TemporaryDirectory(prefix="peers-selftest-") as work:
        test = SelfTest(os.path.abspath(options.filterlab), options.validation, work)
        test.random_generator()
        test.reference_port()
        bench = test.sigmas([1, 2, 3, 4, 8, 16, 32])
        test.filter_outputs(options.method, [1, 2, 3, 5, 8, 16, 32])
        test.document(bench)
    print(f"peers self-test: {'all passed' if test.failures == 0 else str(test.failures) + ' failed'}")
    return 0 if test.failures == 0 else 1


# ---- Command line ----------------------------------------------------------------------------------


def parse_list(text, convert, what):
    try:
        values = [convert(v) for v in text.split(",") if v]
    except (ValueError, KeyError):
        raise argparse.ArgumentTypeError(f"bad {what} list '{text}'")
    if not values:
        raise argparse.ArgumentTypeError(f"empty {what} list")
    return values


def parse_size(text):
    w, _, h = text.lower().partition("x")
    size = (int(w), int(h))
    if size[0] < 1 or size[1] < 1:
        raise ValueError(text)
    return size


def known_peer(name):
    if name not in PEER_FACTORIES:
        raise ValueError(name)
    return name


def parse_radius(text):
    r = int(text)
    check_radius(r)
    return r


def parse_args(argv):
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--out", help="the JSON file to write (filterlab's bench schema)")
    p.add_argument("--sizes", default="3840x2160", type=lambda t: parse_list(t, parse_size, "size"),
                   help="WxH,... (default 3840x2160, as filterlab bench)")
    p.add_argument("--radii", default="1,2,3,4,8,16,32", type=lambda t: parse_list(t, parse_radius, "radius"),
                   help=f"1..{MAX_RADIUS} (default 1,2,3,4,8,16,32)")
    p.add_argument("--precisions", "--precision", default="fp16",
                   type=lambda t: parse_list(t, lambda v: {"fp16": "fp16", "fp32": "fp32"}[v], "precision"),
                   help="fp16,fp32 (default fp16, as filterlab bench)")
    p.add_argument("--kernel", default="gaussian", choices=KERNELS)
    p.add_argument("--sigma", type=float, help="Gaussian sigma for every radius (default: ideal sigma for r)")
    p.add_argument("--frames", type=int, default=100, help="timed calls per case (default 100)")
    p.add_argument("--warmup", type=int, default=20, help="at least this many warm-up calls (default 20)")
    p.add_argument("--warmup-ms", type=int, default=500, help="and at least this long (default 500)")
    p.add_argument("--inputs", type=int, default=3, help="resident inputs rotated every call (default 3)")
    p.add_argument("--peers", default=",".join(PEERS),
                   type=lambda t: parse_list(t, known_peer, "peer"),
                   help="default: " + ",".join(PEERS))
    p.add_argument("--device", default="cuda", choices=("cuda", "cpu"),
                   help="cpu: torch peers on the CPU, host-clock timings (to exercise the code)")
    p.add_argument("--torch-layout", default="nchw", choices=("nchw", "channels_last"),
                   help="memory format of torch's (1, 4, H, W) images (default nchw)")
    p.add_argument("--no-backlog", action="store_true", help="no GPU busy-wait ahead of each batch of calls")
    p.add_argument("--quiet", action="store_true", help="no progress line")
    p.add_argument("--self-test", action="store_true", help="check the kernel port against --filterlab (no CUDA)")
    p.add_argument("--filterlab", help="the filterlab binary, for --self-test")
    p.add_argument("--method", default="comp.separable_shared", help="exact filterlab method for --self-test")
    p.add_argument("--validation", action="store_true", help="--self-test: run filterlab with --validation")
    options = p.parse_args(argv)
    if options.sigma is not None and not (math.isfinite(options.sigma) and options.sigma > 0):
        p.error("--sigma must be finite and > 0")
    if options.sigma is not None and options.kernel != "gaussian":
        p.error("--sigma is for --kernel gaussian")
    if options.frames < 1 or options.warmup < 0 or options.warmup_ms < 0 or options.inputs < 1:
        p.error("--frames and --inputs must be >= 1, --warmup and --warmup-ms >= 0")
    if options.inputs < 3:
        print("peers: fewer than 3 inputs lets the caches flatter the results", file=sys.stderr)
    if not options.self_test and not options.out:
        p.error("--out FILE is required (or --self-test)")
    return options


def main(argv):
    options = parse_args(argv)  # argparse exits with 2 on a usage error
    if options.self_test:
        return self_test(options)
    out_dir = os.path.dirname(os.path.abspath(options.out))
    if not os.access(out_dir, os.W_OK):
        print(f"peers: cannot write to {out_dir}", file=sys.stderr)
        return EXIT_USAGE
    device = {}

    def write(result, skipped):
        if not device:
            device.update(device_facts(result["libraries"], options.device))
        document = make_document(options, device, result["cases"], skipped, result["reference"])
        write_json(options.out, finite(document))

    result, skipped = run_peers(options, write)
    if result is None:
        print("peers: nothing can run here (no usable torch or cupy with CUDA); see the reasons above",
              file=sys.stderr)
        return EXIT_USAGE
    print(f"{device['name']} ({device['api_version']}, driver {device['driver_info'] or 'unknown'})")
    print_table(result["cases"], skipped)
    timed = [c for c in result["cases"] if c["filter"] != "copy"]
    print(f"wrote {options.out}: {len(timed)} peer cases, {len(skipped)} skipped")
    return 0 if timed else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
