#!/usr/bin/env python3
"""Writes the fuzz targets' seed corpora, tests/fuzz/corpus/<target>/ (small, committed; run again
after changing this script). Everything is made here, from the formats' definitions: PNGs with zlib,
a JPEG through TurboJPEG (ctypes on Debian's libturbojpeg.so.0), PFMs, uncompressed OpenEXR by
hand and ZIP-compressed ones by filterlab itself (build/filterlab, half and float), glTF scenes,
kernels, chain strings, a tune table and bench / evaluate JSON of the schemas `report` reads.

Usage: scripts/make-fuzz-seeds.py [FILTERLAB]   (default build/filterlab)
"""
import ctypes
import json
import os
import struct
import subprocess
import sys
import tempfile
import zlib

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
CORPUS = os.path.join(ROOT, "tests", "fuzz", "corpus")
FILTERLAB = sys.argv[1] if len(sys.argv) > 1 else os.path.join(ROOT, "build", "filterlab")


def put(target, name, data):
    folder = os.path.join(CORPUS, target)
    os.makedirs(folder, exist_ok=True)
    with open(os.path.join(folder, name), "wb") as f:
        f.write(data if isinstance(data, bytes) else data.encode())


# ---- PNG -------------------------------------------------------------------------------------

def png(width, height, colour_type, depth, rows, extra_chunks=()):
    def chunk(kind, payload):
        return struct.pack(">I", len(payload)) + kind + payload + struct.pack(">I", zlib.crc32(kind + payload))
    raw = b"".join(b"\x00" + row for row in rows)
    ihdr = struct.pack(">IIBBBBB", width, height, depth, colour_type, 0, 0, 0)
    body = chunk(b"IHDR", ihdr)
    for kind, payload in extra_chunks:
        body += chunk(kind, payload)
    return b"\x89PNG\r\n\x1a\n" + body + chunk(b"IDAT", zlib.compress(raw, 9)) + chunk(b"IEND", b"")


def seeds_png():
    put("png", "rgb8.png", png(3, 2, 2, 8, [bytes([10, 20, 30] * 3), bytes([200, 100, 50] * 3)]))
    put("png", "rgba8.png", png(2, 2, 6, 8, [bytes([1, 2, 3, 255, 4, 5, 6, 0])] * 2))
    put("png", "grey8.png", png(4, 1, 0, 8, [bytes([0, 85, 170, 255])]))
    put("png", "grey-alpha8.png", png(2, 1, 4, 8, [bytes([9, 255, 99, 128])]))
    put("png", "rgb16.png", png(2, 1, 2, 16, [struct.pack(">6H", 0, 1000, 65535, 300, 30000, 12)]))
    put("png", "palette-trns.png", png(4, 1, 3, 8, [bytes([0, 1, 2, 1])],
                                       [(b"PLTE", bytes([255, 0, 0, 0, 255, 0, 0, 0, 255])), (b"tRNS", bytes([255, 0]))]))
    put("png", "grey1.png", png(8, 2, 0, 1, [bytes([0b10110010]), bytes([0b01001101])]))


# ---- JPEG through TurboJPEG -----------------------------------------------------------------------

def seeds_jpeg():
    tj = ctypes.CDLL("libturbojpeg.so.0")
    tj.tjInitCompress.restype = ctypes.c_void_p
    tj.tjCompress2.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_int, ctypes.c_int, ctypes.c_int, ctypes.c_int,
                               ctypes.POINTER(ctypes.POINTER(ctypes.c_ubyte)), ctypes.POINTER(ctypes.c_ulong),
                               ctypes.c_int, ctypes.c_int, ctypes.c_int]
    tj.tjFree.argtypes = [ctypes.c_void_p]
    tj.tjDestroy.argtypes = [ctypes.c_void_p]
    handle = tj.tjInitCompress()
    for name, w, h, pixel_format, subsampling in [("rgb-420.jpg", 16, 8, 0, 2), ("rgb-444.jpg", 5, 3, 0, 0),
                                                   ("grey.jpg", 8, 8, 6, 3)]:
        channels = 1 if pixel_format == 6 else 3
        pixels = bytes((x * 37 + y * 11 + c * 90) % 256 for y in range(h) for x in range(w) for c in range(channels))
        out = ctypes.POINTER(ctypes.c_ubyte)()
        size = ctypes.c_ulong(0)
        if tj.tjCompress2(handle, pixels, w, 0, h, pixel_format, ctypes.byref(out), ctypes.byref(size), subsampling, 75,
                          0) != 0:
            raise SystemExit("tjCompress2 failed")
        put("jpeg", name, ctypes.string_at(out, size.value))
        tj.tjFree(out)
    tj.tjDestroy(handle)


# ---- PFM --------------------------------------------------------------------------------------

def pfm(kind, width, height, values, scale=-1.0):
    return b"%s\n%d %d\n%g\n" % (kind, width, height, scale) + struct.pack(
        ("<" if scale < 0 else ">") + "%df" % len(values), *values)


def seeds_pfm():
    put("pfm", "rgb.pfm", pfm(b"PF", 2, 2, [0.0, 0.5, 1.0, 2.0, 4.0, -1.0, 0.25, 0.125, 8.0, 1e-3, 1e3, 0.75]))
    put("pfm", "grey-big-endian.pfm", pfm(b"Pf", 3, 1, [0.1, 0.2, 0.3], scale=1.0))


# ---- OpenEXR: uncompressed by hand, ZIP by filterlab --------------------------------------------

def exr_uncompressed(width, height, channels):
    """Scanline, NO_COMPRESSION, FLOAT channels named in `channels` (alphabetical, as EXR stores)."""
    def attr(name, kind, payload):
        return name.encode() + b"\0" + kind.encode() + b"\0" + struct.pack("<i", len(payload)) + payload
    chlist = b"".join(c.encode() + b"\0" + struct.pack("<iB3xii", 2, 0, 1, 1) for c in channels) + b"\0"
    box = struct.pack("<iiii", 0, 0, width - 1, height - 1)
    header = (b"\x76\x2f\x31\x01" + struct.pack("<i", 2) + attr("channels", "chlist", chlist) +
              attr("compression", "compression", b"\0") + attr("dataWindow", "box2i", box) +
              attr("displayWindow", "box2i", box) + attr("lineOrder", "lineOrder", b"\0") +
              attr("pixelAspectRatio", "float", struct.pack("<f", 1.0)) +
              attr("screenWindowCenter", "v2f", struct.pack("<ff", 0, 0)) +
              attr("screenWindowWidth", "float", struct.pack("<f", 1.0)) + b"\0")
    line_bytes = 4 * width * len(channels)
    offsets_at = len(header)
    first = offsets_at + 8 * height
    table = b"".join(struct.pack("<Q", first + y * (8 + line_bytes)) for y in range(height))
    lines = b""
    for y in range(height):
        data = b"".join(struct.pack("<%df" % width, *[(x + y + i) * 0.25 for x in range(width)])
                        for i, _ in enumerate(channels))
        lines += struct.pack("<ii", y, len(data)) + data
    return header + table + lines


def seeds_exr():
    put("exr", "rgb-float-none.exr", exr_uncompressed(3, 2, ["B", "G", "R"]))
    put("exr", "y-float-none.exr", exr_uncompressed(2, 2, ["Y"]))
    with tempfile.TemporaryDirectory() as tmp:
        source = os.path.join(tmp, "in.pfm")
        with open(source, "wb") as f:
            f.write(pfm(b"PF", 4, 3, [(i % 7) * 0.3 for i in range(36)]))
        for precision in ("fp16", "fp32"):
            out = os.path.join(tmp, "out.exr")
            subprocess.run([FILTERLAB, "filter", "--input", source, "--output", out, "--filter", "copy", "--precision",
                            precision], check=True, stdout=subprocess.DEVNULL)
            with open(out, "rb") as f:
                put("exr", "rgb-zip-%s.exr" % precision, f.read())


# ---- glTF ----------------------------------------------------------------------------------------

def seeds_gltf():
    import base64
    positions = struct.pack("<12f", -1, -1, 0, 1, -1, 0, 1, 1, 0, -1, 1, 0)
    uvs = struct.pack("<8f", 0, 1, 1, 1, 1, 0, 0, 0)
    indices = struct.pack("<6H", 0, 1, 2, 0, 2, 3)
    times, moves = struct.pack("<2f", 0, 1), struct.pack("<6f", 0, 0, 0, 1, 0, 0)
    blob = positions + uvs + indices + b"\0" * 4 + times + moves
    texture = png(2, 2, 6, 8, [bytes([255, 0, 0, 255, 0, 255, 0, 128])] * 2)
    doc = {
        "asset": {"version": "2.0"}, "scene": 0, "scenes": [{"nodes": [0, 1, 2]}],
        "extensionsUsed": ["KHR_texture_transform", "KHR_lights_punctual", "KHR_materials_emissive_strength"],
        "extensions": {"KHR_lights_punctual": {"lights": [{"type": "spot", "intensity": 5, "range": 9,
                                                           "spot": {"innerConeAngle": 0.1, "outerConeAngle": 0.5}}]}},
        "nodes": [{"mesh": 0, "translation": [0, 0, -3], "children": [3]},
                  {"camera": 0, "extensions": {"KHR_lights_punctual": {"light": 0}}},
                  {"camera": 1, "matrix": [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 5, 1]},
                  {"mesh": 0, "scale": [0.5, 0.5, 0.5], "rotation": [0, 0, 0.38268343, 0.92387953]}],
        "cameras": [{"type": "perspective", "perspective": {"yfov": 1.0, "znear": 0.1, "zfar": 100}},
                    {"type": "orthographic", "orthographic": {"xmag": 1, "ymag": 1, "znear": 0.1, "zfar": 10}}],
        "meshes": [{"primitives": [{"attributes": {"POSITION": 0, "TEXCOORD_0": 1}, "indices": 2, "material": 0}]}],
        "materials": [{"pbrMetallicRoughness": {"baseColorTexture": {"index": 0, "extensions": {
            "KHR_texture_transform": {"scale": [2, 2], "rotation": 0.3, "offset": [0.1, 0]}}}, "metallicFactor": 0.5},
            "emissiveFactor": [1, 1, 1], "extensions": {"KHR_materials_emissive_strength": {"emissiveStrength": 3}},
            "alphaMode": "MASK", "alphaCutoff": 0.4, "doubleSided": True}],
        "textures": [{"source": 0, "sampler": 0}],
        "samplers": [{"magFilter": 9728, "minFilter": 9987, "wrapS": 33648, "wrapT": 33071}],
        "images": [{"uri": "data:image/png;base64," + base64.b64encode(texture).decode()}],
        "animations": [{"channels": [{"sampler": 0, "target": {"node": 0, "path": "translation"}}],
                        "samplers": [{"input": 3, "output": 4, "interpolation": "LINEAR"}]}],
        "accessors": [
            {"bufferView": 0, "componentType": 5126, "count": 4, "type": "VEC3", "min": [-1, -1, 0], "max": [1, 1, 0]},
            {"bufferView": 1, "componentType": 5126, "count": 4, "type": "VEC2"},
            {"bufferView": 2, "componentType": 5123, "count": 6, "type": "SCALAR"},
            {"bufferView": 3, "componentType": 5126, "count": 2, "type": "SCALAR", "min": [0], "max": [1]},
            {"bufferView": 4, "componentType": 5126, "count": 2, "type": "VEC3"}],
        "bufferViews": [{"buffer": 0, "byteOffset": 0, "byteLength": 48}, {"buffer": 0, "byteOffset": 48, "byteLength": 32},
                        {"buffer": 0, "byteOffset": 80, "byteLength": 12}, {"buffer": 0, "byteOffset": 96, "byteLength": 8},
                        {"buffer": 0, "byteOffset": 104, "byteLength": 24}],
        "buffers": [{"byteLength": len(blob),
                     "uri": "data:application/octet-stream;base64," + base64.b64encode(blob).decode()}],
    }
    put("gltf", "quad-textured.gltf", json.dumps(doc, separators=(",", ":")))
    # The same as a .glb: the buffer in the binary chunk, the image in a buffer view.
    glb_doc = json.loads(json.dumps(doc))
    image_offset = (len(blob) + 3) // 4 * 4
    binary = blob + b"\0" * (image_offset - len(blob)) + texture
    binary += b"\0" * ((4 - len(binary) % 4) % 4)
    glb_doc["buffers"] = [{"byteLength": len(binary)}]
    glb_doc["bufferViews"].append({"buffer": 0, "byteOffset": image_offset, "byteLength": len(texture)})
    glb_doc["images"] = [{"bufferView": 5, "mimeType": "image/png"}]
    text = json.dumps(glb_doc, separators=(",", ":")).encode()
    text += b" " * ((4 - len(text) % 4) % 4)
    glb = struct.pack("<III", 0x46546C67, 2, 12 + 8 + len(text) + 8 + len(binary))
    glb += struct.pack("<II", len(text), 0x4E4F534A) + text + struct.pack("<II", len(binary), 0x004E4942) + binary
    put("gltf", "quad-textured.glb", glb)
    # Unindexed triangles, no material, cubic rotation keys, a node hierarchy.
    tri = struct.pack("<9f", 0, 0, 0, 1, 0, 0, 0, 1, 0)
    keys, rots = struct.pack("<2f", 0, 2), struct.pack("<24f", *([0, 0, 0, 0] + [0, 0, 0, 1] + [0, 0, 0, 0]) * 2)
    small = tri + keys + rots
    put("gltf", "triangle-cubic.gltf", json.dumps({
        "asset": {"version": "2.0"}, "nodes": [{"children": [1]}, {"mesh": 0}],
        "meshes": [{"primitives": [{"attributes": {"POSITION": 0}}]}],
        "animations": [{"channels": [{"sampler": 0, "target": {"node": 1, "path": "rotation"}}],
                        "samplers": [{"input": 1, "output": 2, "interpolation": "CUBICSPLINE"}]}],
        "accessors": [{"bufferView": 0, "componentType": 5126, "count": 3, "type": "VEC3", "min": [0, 0, 0], "max": [1, 1, 0]},
                      {"bufferView": 1, "componentType": 5126, "count": 2, "type": "SCALAR", "min": [0], "max": [2]},
                      {"bufferView": 2, "componentType": 5126, "count": 6, "type": "VEC4"}],
        "bufferViews": [{"buffer": 0, "byteLength": 36}, {"buffer": 0, "byteOffset": 36, "byteLength": 8},
                        {"buffer": 0, "byteOffset": 44, "byteLength": 96}],
        "buffers": [{"byteLength": len(small),
                     "uri": "data:application/octet-stream;base64," + base64.b64encode(small).decode()}]},
        separators=(",", ":")))


# ---- kernels, chains, tune tables, report inputs ------------------------------------------------------

def seeds_text():
    put("kernel", "box3.pfm", pfm(b"Pf", 3, 3, [1.0] * 9))
    put("kernel", "rgb2x1.pfm", pfm(b"PF", 2, 1, [1, 0, 0, 0, 1, 2]))
    put("kernel", "cross.png", png(3, 3, 0, 8, [bytes([0, 255, 0]), bytes([255, 255, 255]), bytes([0, 255, 0])]))
    chains = ["gaussian:radius=2", "gaussian.comp.separable_shared:radius=3:sigma=1.5,copy",
              "tent:radius=1,bilateral:radius=2:sigma_d=2:sigma_r=0.1", "variance:radius=2:output=stddev",
              "taa:rectify=variance:gamma=1.25", "bigblur:sigma=32", "convolve:kernel=disk:radius=4",
              "copy,copy,gaussian.auto:radius=8", "convolve.fft.vkfft:kernel=star:radius=12:rays=6"]
    for i, c in enumerate(chains):
        put("chain", "chain-%d.txt" % i, c)
    # The built-in gaussian table (renderer/filters/gaussian/auto_table.json), as bench --tune writes one.
    with open(os.path.join(ROOT, "renderer", "filters", "gaussian", "auto_table.json")) as f:
        put("tune", "gaussian-h100.json", f.read().rstrip("\n"))


def seeds_report():
    with tempfile.TemporaryDirectory() as tmp:
        bench = os.path.join(tmp, "bench.json")
        subprocess.run([FILTERLAB, "bench", "--filter", "gaussian", "--methods", "comp.separable_shared,frag.full2d",
                        "--radii", "1,2", "--sizes", "32x24", "--frames", "2", "--warmup", "0", "--warmup-ms", "0",
                        "--quiet", "--json", bench], check=True)
        evaluation = os.path.join(tmp, "evaluate.json")
        subprocess.run([FILTERLAB, "evaluate", "--size", "16x16", "--frames", "3", "--grid", "2", "--json", evaluation],
                       check=True, stdout=subprocess.DEVNULL)
        for name, path in (("bench.json", bench), ("evaluate.json", evaluation)):
            with open(path, "rb") as f:
                put("report", name, f.read())


if __name__ == "__main__":
    seeds_png()
    seeds_jpeg()
    seeds_pfm()
    seeds_exr()
    seeds_gltf()
    seeds_text()
    seeds_report()
