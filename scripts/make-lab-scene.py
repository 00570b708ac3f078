#!/usr/bin/env python3
"""Writes assets/lab/lab.glb: a glTF 2.0 scene made to stress image filters (#33), from geometry and
textures it draws itself (standard library only: the PNGs are written with zlib and struct; the
output is committed, so this runs only when the scene changes, and it is byte-identical run to run).

What is in it, and what it stresses (the camera dollies along z = 6-6.5, x = -2.5..2.5, looking at
the back wall at z = -3):
- a geometric zone plate: vertical slats whose spacing shrinks from 16 cm to 1 cm along the wall,
  then horizontal ones the same way (aliasing at every frequency, TAA's rectification);
- a chain-link fence of 1 cm wires on a 10 cm diagonal lattice, and power lines 1 cm thick across
  the scene (thin geometry: sub-pixel coverage that flickers without AA);
- glossy spheres (roughness 0.05-0.15: sun highlights of hundreds) and tiny emitters of strength
  40-400 (fireflies for blurs, clamping for TAA);
- objects moving in front of the zone plate and the fence (disocclusion: ghosting);
- a camera path: the camera node is animated (translation and rotation), so the view moves with
  a changing parallax.
Textured (every texture drawn here, embedded as PNG; every textured primitive has TEXCOORD_0):
- an image zone plate, cos(pi r^2 / N) on 1024x1024 grey texels, reaching the texture's Nyquist at
  the edge of the inscribed circle (the corners are its mean), on a 2 m panel on the back wall
  right of the slats, behind the fence: minified about 4x at 1080p (mip selection and trilinear
  blending, moire where they are wrong);
- small text: a 1024x1024 page of a 5x7 bitmap font (pangrams, digits) in rows whose glyphs shrink
  from 16 to 5 texels, on a 1.9 m page on the back wall (LINEAR sampler: minified) and, its
  top-left corner magnified about 4x at 1080p, on a low sign in front of the fence (NEAREST
  magnification: hard texel steps that a filter must not smear or ring on);
- alpha-tested foliage: four plants of crossed quads (and small tilted quads) with a 512x512 RGBA
  leaf sprig, alphaMode MASK at 0.5, double-sided, in front of the fence and the textured wall (the
  camera's parallax moves them against the detail; one sways, animated: disocclusion of fine
  detail behind leaf edges that alpha testing leaves aliased);
- a translucent pane (alphaMode BLEND, tinted glass of alpha 0.4) in front of the vertical slats,
  with the cube moving between them (blended surfaces have no depth or motion of their own);
- a neon sign above the wall: a 512x128 sRGB emissive texture of LED dots and 1-2 texel stripes,
  emissive strength 20 (small, very bright texels: fireflies, clamping);
- a tiled floor: a 256x256 texture of 4 x 4 tiles with 2-texel grout, repeated through
  KHR_texture_transform (scale 8, offset, rotation 0.3): 31 cm tiles at grazing angles
  (minification, anisotropy, moire far away);
- a brick wall angled towards the camera left of the back wall: 512x512 base colour, tangent-space
  normal map (OpenGL convention, +Y up the image), metallic-roughness (varying roughness, glazed
  bricks, metal plates) and occlusion packed in one texture (R occlusion, G roughness, B metal):
  specular aliasing from normal-mapped, partly glossy detail.

Usage: scripts/make-lab-scene.py [OUT.glb]   (default assets/lab/lab.glb)
"""
import json
import math
import os
import struct
import sys
import zlib

# glTF sampler codes.
NEAREST, LINEAR, LINEAR_MIPMAP_LINEAR = 9728, 9729, 9987
REPEAT, CLAMP_TO_EDGE = 10497, 33071


# ---- images ------------------------------------------------------------------------------------

def png(width, height, channels, rows):
    """A PNG of 8-bit samples: channels 1 (grey), 3 (RGB) or 4 (RGBA); rows: `height` byte strings
    of width * channels samples. Filter 0 on every row, zlib level 9 (deterministic)."""
    assert len(rows) == height and all(len(r) == width * channels for r in rows)
    colour_type = {1: 0, 3: 2, 4: 6}[channels]

    def chunk(kind, payload):
        return struct.pack(">I", len(payload)) + kind + payload + struct.pack(">I", zlib.crc32(kind + payload))

    raw = b"".join(b"\0" + bytes(r) for r in rows)
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, colour_type, 0, 0, 0)) +
            chunk(b"IDAT", zlib.compress(raw, 9)) + chunk(b"IEND", b""))


def srgb8(linear):
    """A linear value in [0, 1] as an 8-bit sRGB-encoded sample."""
    x = min(max(linear, 0.0), 1.0)
    x = 12.92 * x if x <= 0.0031308 else 1.055 * x ** (1 / 2.4) - 0.055
    return int(x * 255 + 0.5)


def unorm8(x):
    return int(min(max(x, 0.0), 1.0) * 255 + 0.5)


def hash01(*values):
    """A deterministic hash of integers to [0, 1) (FNV-1a steps, then splitmix64's finaliser)."""
    h = 0xCBF29CE484222325
    for v in values:
        h = ((h ^ (v & 0xFFFFFFFFFFFFFFFF)) * 0x100000001B3) & 0xFFFFFFFFFFFFFFFF
    h = ((h ^ (h >> 30)) * 0xBF58476D1CE4E5B9) & 0xFFFFFFFFFFFFFFFF
    h = ((h ^ (h >> 27)) * 0x94D049BB133111EB) & 0xFFFFFFFFFFFFFFFF
    h ^= h >> 31
    return (h >> 11) / float(1 << 53)


def noise_field(size, cell, seed):
    """Tileable value noise in [0, 1]: `size` rows of `size` values, lattice every `cell` texels."""
    n = size // cell
    lattice = [[hash01(seed, i, j) for i in range(n)] for j in range(n)]
    steps = []
    for x in range(size):
        f = (x + 0.5) / cell - 0.5
        i = math.floor(f)
        t = f - i
        steps.append((i % n, (i + 1) % n, t * t * (3 - 2 * t)))
    field = []
    for y in range(size):
        j0, j1, ty = steps[y]
        r0, r1 = lattice[j0], lattice[j1]
        row = []
        for i0, i1, tx in steps:
            a = r0[i0] + (r0[i1] - r0[i0]) * tx
            b = r1[i0] + (r1[i1] - r1[i0]) * tx
            row.append(a + (b - a) * ty)
        field.append(row)
    return field


# A 5x7 bitmap font: five columns per glyph, bit 0 the top row (the classic LCD font's layout).
FONT_TABLE = """
20 0000000000 21 00005F0000 22 0007000700 23 147F147F14 24 242A7F2A12 25 2313086462 26 3649552250
27 0005030000 28 001C224100 29 0041221C00 2A 082A1C2A08 2B 08083E0808 2C 0050300000 2D 0808080808
2E 0060600000 2F 2010080402 30 3E5149453E 31 00427F4000 32 4261514946 33 2141454B31 34 1814127F10
35 2745454539 36 3C4A494930 37 0171090503 38 3649494936 39 064949291E 3A 0036360000 3B 0056360000
3C 0008142241 3D 1414141414 3E 4122140800 3F 0201510906 40 324979413E 41 7E1111117E 42 7F49494936
43 3E41414122 44 7F4141221C 45 7F49494941 46 7F09090101 47 3E41415132 48 7F0808087F 49 00417F4100
4A 2040413F01 4B 7F08142241 4C 7F40404040 4D 7F0204027F 4E 7F0408107F 4F 3E4141413E 50 7F09090906
51 3E4151215E 52 7F09192946 53 4649494931 54 01017F0101 55 3F4040403F 56 1F2040201F 57 7F2018207F
58 6314081463 59 0304780403 5A 6151494543 5B 007F414100 5C 0204081020 5D 0041417F00 5E 0402010204
5F 4040404040 61 2054545478 62 7F48444438 63 3844444420 64 384444487F 65 3854545418 66 087E090102
67 0C5252523E 68 7F08040478 69 00447D4000 6A 2040443D00 6B 007F102844 6C 00417F4000 6D 7C04180478
6E 7C08040478 6F 3844444438 70 7C14141408 71 081414187C 72 7C08040408 73 4854545420 74 043F444020
75 3C4040207C 76 1C2040201C 77 3C4030403C 78 4428102844 79 0C5050503C 7A 4464544C44
"""
FONT = {}
_words = FONT_TABLE.split()
for _code, _bits in zip(_words[0::2], _words[1::2]):
    FONT[chr(int(_code, 16))] = [int(_bits[k:k + 2], 16) for k in range(0, 10, 2)]


def text_columns(text):
    """The text as glyph columns (7-bit masks, bit 0 on top): five a glyph and one blank after."""
    columns = []
    for ch in text:
        columns += FONT.get(ch, FONT["?"]) + [0]
    return columns


def overlaps(start, unit, count, pixels):
    """For each pixel [p, p + 1) of `pixels`, the (cell, overlap) pairs of cells [start + c unit,
    start + (c + 1) unit), c < count: the box filter of cells of `unit` pixels."""
    out = []
    for p in range(pixels):
        lo = max(0, int(math.floor((p - start) / unit)))
        hi = min(count - 1, int(math.floor((p + 1 - start) / unit)))
        pairs = []
        for c in range(lo, hi + 1):
            w = min(p + 1, start + (c + 1) * unit) - max(p, start + c * unit)
            if w > 1e-9:
                pairs.append((c, w))
        out.append(pairs)
    return out


PAGE_LINES = ("THE QUICK BROWN FOX JUMPS OVER THE LAZY DOG.",
              "the quick brown fox jumps over the lazy dog, 0123456789",
              "Pack my box with five dozen liquor jugs! 3.14159 2.71828 1.41421",
              "SPHINX OF BLACK QUARTZ, JUDGE MY VOW: 1970-2038 +-=/()",
              "How vexingly quick daft zebras jump? #42 @ 100% 65536",
              "Jackdaws love my big sphinx of quartz. 8x8=64 7*7=49 [9^2]")
PAGE_SIZES = (16, 15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5)  # glyph heights in texels, 6 lines each
PAGE_MARGIN = 8


def text_page(size):
    """Black text on light paper, grey: rows of glyphs 16 down to 5 texels tall (line pitch 9/7 of
    the glyph), each texel the area coverage of the glyphs' cells (sharp where a cell is whole
    texels). Returns the rows and, for the sign, a box (left, top, right, bottom in texels) around
    the first 9 characters of the top two lines ("THE QUICK", "the quick"), 1.5 texels of margin."""
    coverage = [[0.0] * size for _ in range(size)]
    y = float(PAGE_MARGIN)
    line = 0
    for glyph in PAGE_SIZES:
        unit = glyph / 7.0
        for k in range(6):
            text = PAGE_LINES[(line + k) % len(PAGE_LINES)]
            advance = 6 * unit
            count = int((size - 2 * PAGE_MARGIN + unit) / advance)
            repeated = (text + "   ") * (count // (len(text) + 3) + 1)
            columns = text_columns(repeated[:count])[:-1]
            xs = overlaps(PAGE_MARGIN, unit, len(columns), size)
            for py in range(int(math.floor(y)), min(size, int(math.ceil(y + 7 * unit)))):
                rows = overlaps(y - py, unit, 7, 1)[0]  # the glyph rows over texel row py
                if not rows:
                    continue
                weight = [sum(w for r, w in rows if (c >> r) & 1) for c in columns]
                out = coverage[py]
                for px, pairs in enumerate(xs):
                    if pairs:
                        out[px] = min(1.0, sum(weight[c] * w for c, w in pairs))
            y += 9 * unit
        line += 6
    assert y <= size - PAGE_MARGIN, y
    paper, ink = 0.80, 0.012
    lut = [srgb8(paper + (ink - paper) * k / 4095.0) for k in range(4096)]
    rows = [bytes(lut[int(c * 4095 + 0.5)] for c in row) for row in coverage]
    unit = PAGE_SIZES[0] / 7.0
    box = (PAGE_MARGIN - 1.5, PAGE_MARGIN - 1.5, PAGE_MARGIN + (6 * 9 - 1) * unit + 1.5, PAGE_MARGIN + 16 * unit + 1.5)
    return rows, box


def zone_plate(size):
    """cos(pi r^2 / size) about the centre (r in texels): the local frequency r / size cycles per
    texel reaches Nyquist (0.5) at r = size / 2, the inscribed circle; outside it, the mean. Linear
    reflectance 0.03-0.85, sRGB-encoded (so that filtering the decoded values averages to the mean)."""
    lo, hi = 0.03, 0.85
    mean = srgb8((lo + hi) / 2)
    half = size / 2.0
    rows = []
    for y in range(size):
        dy = y + 0.5 - half
        row = bytearray(size)
        for x in range(size):
            dx = x + 0.5 - half
            r2 = dx * dx + dy * dy
            row[x] = mean if r2 > half * half else srgb8(lo + (hi - lo) * (0.5 + 0.5 * math.cos(math.pi * r2 / size)))
        rows.append(row)
    return rows


def leaf_sprig(size):
    """A sprig of leaves on stems, RGBA (straight alpha): alpha is each texel's coverage (0 outside
    the leaves, a one-texel ramp at their edges); the colour of empty texels is the leaves' mean,
    so that filtering does not darken the edges."""
    colour = [[None] * size for _ in range(size)]
    alpha = [[0.0] * size for _ in range(size)]

    def cover(x, y, cov, rgb):
        a = alpha[y][x]
        out = cov + a * (1 - cov)
        if out <= 0:
            return
        old = colour[y][x] or rgb
        colour[y][x] = tuple((cov * rgb[k] + a * (1 - cov) * old[k]) / out for k in range(3))
        alpha[y][x] = out

    def segment(a, b, radius, rgb):
        x0, x1 = int(max(0, min(a[0], b[0]) - radius - 2)), int(min(size - 1, max(a[0], b[0]) + radius + 2))
        y0, y1 = int(max(0, min(a[1], b[1]) - radius - 2)), int(min(size - 1, max(a[1], b[1]) + radius + 2))
        dx, dy = b[0] - a[0], b[1] - a[1]
        length2 = dx * dx + dy * dy
        for y in range(y0, y1 + 1):
            for x in range(x0, x1 + 1):
                px, py = x + 0.5 - a[0], y + 0.5 - a[1]
                t = min(max((px * dx + py * dy) / length2, 0.0), 1.0)
                d = math.hypot(px - t * dx, py - t * dy)
                cov = min(max(radius + 0.5 - d, 0.0), 1.0)
                if cov > 0:
                    cover(x, y, cov, rgb)

    def leaf(base, angle, length, width, rgb):
        d = (math.cos(angle), math.sin(angle))
        n = (-d[1], d[0])
        tip = (base[0] + length * d[0], base[1] + length * d[1])
        pad = width / 2 + 2
        x0, x1 = int(max(0, min(base[0], tip[0]) - pad)), int(min(size - 1, max(base[0], tip[0]) + pad))
        y0, y1 = int(max(0, min(base[1], tip[1]) - pad)), int(min(size - 1, max(base[1], tip[1]) + pad))
        for y in range(y0, y1 + 1):
            for x in range(x0, x1 + 1):
                px, py = x + 0.5 - base[0], y + 0.5 - base[1]
                s = px * d[0] + py * d[1]
                if s < -1 or s > length + 1:
                    continue
                t = abs(px * n[0] + py * n[1])
                half = width / 2 * math.sin(math.pi * min(max(s / length, 0.0), 1.0)) ** 0.7
                cov = min(max(half + 0.5 - t, 0.0), 1.0)
                if cov <= 0:
                    continue
                shade = 0.65 + 0.35 * (1 - min(t / max(half, 0.5), 1.0))
                if t < 0.8 and 0.05 * length < s < 0.9 * length:
                    shade *= 1.5  # the midrib
                cover(x, y, cov, tuple(c * shade for c in rgb))

    stem_rgb = (0.10, 0.13, 0.03)
    root = (size / 2, size - 6.0)
    branches = ((-0.70, 0.50, 0.30), (-0.40, 0.72, 0.15), (-0.12, 0.88, -0.10), (0.15, 0.84, 0.10),
                (0.42, 0.70, -0.15), (0.70, 0.52, -0.30))  # (tilt from upright, length, bend) in radians, sizes
    for b, (tilt, reach, bend) in enumerate(branches):
        length = reach * size
        points = []
        for k in range(13):
            s = k / 12.0
            a = tilt + bend * s * s - math.pi / 2  # image angle: -pi/2 is up
            if not points:
                points.append(root)
            else:
                px, py = points[-1]
                points.append((px + length / 12 * math.cos(a), py + length / 12 * math.sin(a)))
        for p, q in zip(points, points[1:]):
            segment(p, q, 1.6 * size / 512, stem_rgb)
        k = 0
        s = 0.14
        while s < 0.97:
            i = s * 12
            j = min(int(i), 11)
            f = i - j
            base = (points[j][0] + (points[j + 1][0] - points[j][0]) * f,
                    points[j][1] + (points[j + 1][1] - points[j][1]) * f)
            stem_angle = tilt + bend * s * s - math.pi / 2
            side = 1 if k % 2 else -1
            r1, r2, r3 = hash01(7, b, k, 1), hash01(7, b, k, 2), hash01(7, b, k, 3)
            angle = stem_angle + side * (0.7 + 0.35 * r1)
            leaf_length = size * (0.11 + 0.08 * r2) * (1.15 - 0.5 * s)
            tip = (base[0] + leaf_length * math.cos(angle), base[1] + leaf_length * math.sin(angle))
            while not (4 <= tip[0] <= size - 4 and 4 <= tip[1] <= size - 4):
                leaf_length *= 0.9
                tip = (base[0] + leaf_length * math.cos(angle), base[1] + leaf_length * math.sin(angle))
            rgb = (0.03 + 0.05 * r3, 0.16 + 0.14 * r2, 0.015 + 0.03 * r1)
            leaf(base, angle, leaf_length, leaf_length * (0.34 + 0.1 * r3), rgb)
            k += 1
            s += 0.075 + 0.02 * r3
        tip_angle = tilt + bend - math.pi / 2
        leaf(points[-1], tip_angle, size * 0.09, size * 0.035, (0.06, 0.28, 0.03))
    total, weight = [0.0, 0.0, 0.0], 0.0
    for y in range(size):
        for x in range(size):
            if colour[y][x] and alpha[y][x] > 0.5:
                weight += 1
                for k in range(3):
                    total[k] += colour[y][x][k]
    mean = tuple(t / weight for t in total)
    rows = []
    for y in range(size):
        row = bytearray()
        for x in range(size):
            rgb = colour[y][x] if alpha[y][x] > 0 else mean
            row += bytes((srgb8(rgb[0]), srgb8(rgb[1]), srgb8(rgb[2]), unorm8(alpha[y][x])))
        rows.append(row)
    return rows


def neon(width, height):
    """An LED sign, sRGB emission on black: 'FILTERLAB' in dots of 3 texels radius on 8-texel cells,
    stripes 1 and 2 texels tall and rows of single-texel dots (the brightest, smallest detail)."""
    pixels = [[(0.0, 0.0, 0.0)] * width for _ in range(height)]
    pink, cyan, amber = (1.0, 0.12, 0.45), (0.08, 0.75, 1.0), (1.0, 0.5, 0.06)
    text = "FILTERLAB"
    cell = 8
    x0 = (width - (6 * len(text) - 1) * cell) // 2
    y0 = (height - 7 * cell) // 2
    for i, column in enumerate(text_columns(text)):
        for r in range(7):
            if not (column >> r) & 1:
                continue
            cx, cy = x0 + i * cell + cell / 2, y0 + r * cell + cell / 2
            for y in range(y0 + r * cell, y0 + (r + 1) * cell):
                for x in range(x0 + i * cell, x0 + (i + 1) * cell):
                    inside = sum(1 for sy in range(4) for sx in range(4)
                                 if math.hypot(x + (sx + 0.5) / 4 - cx, y + (sy + 0.5) / 4 - cy) < 3.0)
                    pixels[y][x] = tuple(c * inside / 16 for c in pink)
    margin = 16
    for y in (10, 14, 15, height - 16, height - 15, height - 11):
        for x in range(margin, width - margin):
            pixels[y][x] = cyan
    for y in (22, height - 23):
        for x in range(margin, width - margin, 6):
            pixels[y][x] = amber
    return [bytes(srgb8(c) for p in row for c in p) for row in pixels]


def floor_tiles(size):
    """Square tiles, 4 x 4 to the texture, a checker of two greys with per-tile variation and a
    grout line 2 texels wide (one each side of every edge, so it tiles), sRGB RGB."""
    tile = size // 4
    grain = noise_field(size, 4, 11)
    light, dark, grout = (0.50, 0.47, 0.42), (0.24, 0.25, 0.27), (0.08, 0.08, 0.08)
    rows = []
    for y in range(size):
        row = bytearray()
        for x in range(size):
            tx, ty = x // tile, y // tile
            if x % tile in (0, tile - 1) or y % tile in (0, tile - 1):
                rgb = grout
                f = 0.9 + 0.2 * grain[y][x]
            else:
                rgb = light if (tx + ty) % 2 == 0 else dark
                f = (0.88 + 0.24 * hash01(3, tx, ty)) * (0.94 + 0.12 * grain[y][x])
            row += bytes(srgb8(c * f) for c in rgb)
        rows.append(row)
    return rows


def brick_maps(size):
    """A running-bond brick wall, 4 bricks by 16 courses (a 512-texel tile is 1 m: 25 x 6.25 cm),
    4-texel mortar joints. Returns three textures' rows: base colour (sRGB RGB), a tangent-space
    normal map (RGB, OpenGL convention: +X right, +Y up the image, +Z out) from a height field
    (bevelled bricks, rough mortar, domed metal plates), and occlusion/roughness/metalness (R, G, B,
    linear)."""
    course, brick, joint, bevel = size // 16, size // 4, 2.0, 3.0
    coarse, fine = noise_field(size, 16, 21), noise_field(size, 4, 22)
    height = [[0.0] * size for _ in range(size)]
    base_rows, orm_rows = [], []
    for y in range(size):
        c = y // course
        yin = y % course
        offset = brick // 2 if c % 2 else 0
        base_row, orm_row = bytearray(), bytearray()
        for x in range(size):
            xb = (x + offset) % size
            b = xb // brick
            xin = xb % brick
            edge = min(min(xin, brick - 1 - xin), min(yin, course - 1 - yin)) + 0.5 - joint  # texels into the brick
            h1, h2, h3 = hash01(5, c, b, 1), hash01(5, c, b, 2), hash01(5, c, b, 3)
            n1, n2 = coarse[y][x], fine[y][x]
            if edge <= 0:  # mortar
                ramp = 0.0
                rgb = tuple(k * (0.85 + 0.25 * n2) for k in (0.42, 0.40, 0.37))
                h = 0.6 * n2
                occlusion, roughness, metal = 0.55 + 0.1 * n2, 0.95, 0.0
            else:
                ramp = min(edge / bevel, 1.0)
                ramp = ramp * ramp * (3 - 2 * ramp)
                glazed = h3 < 0.12
                if glazed:
                    rgb = (0.03 + 0.05 * h1, 0.08 + 0.06 * h2, 0.22 + 0.1 * h1)
                    roughness = 0.12 + 0.08 * h2 + 0.05 * n2
                else:
                    rgb = tuple(k * (0.75 + 0.35 * n1) for k in (0.28 + 0.17 * h1, 0.07 + 0.06 * h2, 0.04 + 0.03 * h2))
                    roughness = 0.55 + 0.3 * h1 + 0.15 * n2
                h = 1.5 * ramp + (0.2 if glazed else 0.7) * n1 + (0.05 if glazed else 0.35) * n2
                occlusion, metal = 0.75 + 0.25 * ramp - 0.08 * n2, 0.0
                if h3 > 0.94:  # a metal plate, a dome of radius 9 texels at the brick's centre
                    r = math.hypot(xin + 0.5 - brick / 2, yin + 0.5 - course / 2)
                    inside = min(max(9.5 - r, 0.0), 1.0)
                    if inside > 0:
                        dome = math.sqrt(max(0.0, 1 - (r / 9.5) ** 2))
                        h = h * (1 - inside) + (1.5 + 1.2 * dome) * inside
                        rgb = tuple(rgb[k] * (1 - inside) + (0.62, 0.62, 0.66)[k] * inside for k in range(3))
                        roughness = roughness * (1 - inside) + 0.22 * inside
                        metal = inside
            height[y][x] = h
            base_row += bytes(srgb8(k) for k in rgb)
            orm_row += bytes((unorm8(occlusion), unorm8(roughness), unorm8(metal)))
        base_rows.append(base_row)
        orm_rows.append(orm_row)
    normal_rows = []
    for y in range(size):
        up, here, down = height[(y - 1) % size], height[y], height[(y + 1) % size]
        row = bytearray()
        for x in range(size):
            dhdx = (here[(x + 1) % size] - here[(x - 1) % size]) / 2
            dhdy = (down[x] - up[x]) / 2  # along the image's rows, downwards
            nx, ny, nz = -dhdx, dhdy, 1.0  # +Y is up the image: a slope rising downwards faces up
            length = math.sqrt(nx * nx + ny * ny + nz * nz)
            row += bytes(unorm8(0.5 + 0.5 * k / length) for k in (nx, ny, nz))
        normal_rows.append(row)
    return base_rows, normal_rows, orm_rows


# ---- the document --------------------------------------------------------------------------------

class Builder:
    def __init__(self):
        self.data = bytearray()
        self.doc = {"asset": {"version": "2.0", "generator": "filterlab scripts/make-lab-scene.py"},
                    "scene": 0, "scenes": [{"name": "lab", "nodes": []}], "nodes": [], "meshes": [],
                    "materials": [], "textures": [], "images": [], "samplers": [], "accessors": [],
                    "bufferViews": [], "animations": [], "cameras": [],
                    "extensionsUsed": ["KHR_materials_emissive_strength", "KHR_texture_transform"]}

    def view(self, payload, target=None):
        while len(self.data) % 4:
            self.data.append(0)
        view = {"buffer": 0, "byteOffset": len(self.data), "byteLength": len(payload)}
        if target:
            view["target"] = target
        self.data += payload
        self.doc["bufferViews"].append(view)
        return len(self.doc["bufferViews"]) - 1

    def accessor(self, values, kind, component=5126, target=None, bounds=False):
        n = {"SCALAR": 1, "VEC2": 2, "VEC3": 3, "VEC4": 4}[kind]
        fmt = {5126: "f", 5125: "I"}[component]
        payload = struct.pack("<%d%s" % (len(values), fmt), *values)
        a = {"bufferView": self.view(payload, target), "componentType": component, "count": len(values) // n,
             "type": kind}
        if bounds:
            a["min"] = [min(values[i::n]) for i in range(n)]
            a["max"] = [max(values[i::n]) for i in range(n)]
        self.doc["accessors"].append(a)
        return len(self.doc["accessors"]) - 1

    def image(self, data, name):
        self.doc["images"].append({"name": name, "bufferView": self.view(data), "mimeType": "image/png"})
        return len(self.doc["images"]) - 1

    def texture(self, image, name, mag=LINEAR, min_filter=LINEAR_MIPMAP_LINEAR, wrap=REPEAT):
        sampler = {"magFilter": mag, "minFilter": min_filter, "wrapS": wrap, "wrapT": wrap}
        if sampler not in self.doc["samplers"]:
            self.doc["samplers"].append(sampler)
        self.doc["textures"].append({"name": name, "sampler": self.doc["samplers"].index(sampler), "source": image})
        return len(self.doc["textures"]) - 1

    def material(self, colour, roughness, emissive=None, strength=1.0, name=None, **extra):
        m = {"pbrMetallicRoughness": {"baseColorFactor": list(colour) + [1.0] * (4 - len(colour)),
                                      "metallicFactor": 0.0, "roughnessFactor": roughness}}
        if name:
            m["name"] = name
        if emissive:
            m["emissiveFactor"] = list(emissive)
            m["extensions"] = {"KHR_materials_emissive_strength": {"emissiveStrength": strength}}
        for key, value in extra.items():
            if key in ("baseColorTexture", "metallicRoughnessTexture", "metallicFactor"):
                m["pbrMetallicRoughness"][key] = value
            else:
                m[key] = value
        self.doc["materials"].append(m)
        return len(self.doc["materials"]) - 1

    def mesh(self, g, material, name, textured=False):
        attributes = {"POSITION": self.accessor(g.p, "VEC3", target=34962, bounds=True),
                      "NORMAL": self.accessor(g.n, "VEC3", target=34962)}
        if textured:
            attributes["TEXCOORD_0"] = self.accessor(g.t, "VEC2", target=34962)
        prim = {"attributes": attributes, "indices": self.accessor(g.i, "SCALAR", 5125, target=34963),
                "material": material}
        self.doc["meshes"].append({"name": name, "primitives": [prim]})
        return len(self.doc["meshes"]) - 1

    def node(self, name, mesh=None, translation=None, rotation=None, scale=None, camera=None, root=True):
        n = {"name": name}
        for key, value in (("mesh", mesh), ("translation", translation), ("rotation", rotation),
                           ("scale", scale), ("camera", camera)):
            if value is not None:
                n[key] = value
        self.doc["nodes"].append(n)
        index = len(self.doc["nodes"]) - 1
        if root:
            self.doc["scenes"][0]["nodes"].append(index)
        return index

    def animate(self, node, path, times, values, kind):
        sampler = {"input": self.accessor(times, "SCALAR", bounds=True), "output": self.accessor(values, kind),
                   "interpolation": "LINEAR"}
        self.doc["animations"].append({"name": self.doc["nodes"][node]["name"] + " " + path,
                                       "samplers": [sampler],
                                       "channels": [{"sampler": 0, "target": {"node": node, "path": path}}]})

    def glb(self):
        while len(self.data) % 4:
            self.data.append(0)
        self.doc["buffers"] = [{"byteLength": len(self.data)}]
        text = json.dumps(self.doc, separators=(",", ":")).encode()
        text += b" " * ((4 - len(text) % 4) % 4)
        body = struct.pack("<I4s", len(text), b"JSON") + text + struct.pack("<I4s", len(self.data), b"BIN\0") + self.data
        return struct.pack("<4sII", b"glTF", 2, 12 + len(body)) + body


class Geometry:
    def __init__(self):
        self.p, self.n, self.t, self.i = [], [], [], []

    def quad(self, o, u, v, uv=((0, 1), (1, 1), (1, 0), (0, 0))):
        """Corners o, o + u, o + u + v, o + v, counter-clockwise seen from u x v (its normal). uv:
        the corners' texture coordinates; by default the image upright where u is right and v up
        (glTF's v runs down the image)."""
        nx, ny, nz = (u[1] * v[2] - u[2] * v[1], u[2] * v[0] - u[0] * v[2], u[0] * v[1] - u[1] * v[0])
        length = math.sqrt(nx * nx + ny * ny + nz * nz) or 1.0
        base = len(self.p) // 3
        for (a, b), st in zip(((0, 0), (1, 0), (1, 1), (0, 1)), uv):
            self.p += [o[k] + a * u[k] + b * v[k] for k in range(3)]
            self.n += [nx / length, ny / length, nz / length]
            self.t += list(st)
        self.i += [base, base + 1, base + 2, base, base + 2, base + 3]

    def box(self, lo, hi):
        x, y, z = (hi[0] - lo[0], 0, 0), (0, hi[1] - lo[1], 0), (0, 0, hi[2] - lo[2])
        self.quad(lo, y, x)
        self.quad((lo[0], lo[1], hi[2]), x, y)
        self.quad(lo, z, y)
        self.quad((hi[0], lo[1], lo[2]), y, z)
        self.quad(lo, x, z)
        self.quad((lo[0], hi[1], lo[2]), z, x)

    def rod(self, a, b, radius, sides=6):
        """A prism of `sides` faces around the segment a-b (thin wires)."""
        d = [b[k] - a[k] for k in range(3)]
        length = math.sqrt(sum(c * c for c in d))
        d = [c / length for c in d]
        helper = (0, 1, 0) if abs(d[1]) < 0.9 else (1, 0, 0)
        u = [d[1] * helper[2] - d[2] * helper[1], d[2] * helper[0] - d[0] * helper[2], d[0] * helper[1] - d[1] * helper[0]]
        ul = math.sqrt(sum(c * c for c in u))
        u = [c / ul for c in u]
        w = [d[1] * u[2] - d[2] * u[1], d[2] * u[0] - d[0] * u[2], d[0] * u[1] - d[1] * u[0]]
        base = len(self.p) // 3
        for s in range(sides):
            t = 2 * math.pi * s / sides
            r = [radius * (math.cos(t) * u[k] + math.sin(t) * w[k]) for k in range(3)]
            nl = [math.cos(t) * u[k] + math.sin(t) * w[k] for k in range(3)]
            self.p += [a[k] + r[k] for k in range(3)] + [b[k] + r[k] for k in range(3)]
            self.n += nl + nl
            self.t += [s / sides, 0.0, s / sides, 1.0]
        for s in range(sides):
            a0, b0 = base + 2 * s, base + 2 * s + 1
            a1, b1 = base + 2 * ((s + 1) % sides), base + 2 * ((s + 1) % sides) + 1
            self.i += [a0, a1, b1, a0, b1, b0]

    def sphere(self, centre, radius, stacks=16, slices=32):
        base = len(self.p) // 3
        for i in range(stacks + 1):
            phi = math.pi * i / stacks
            for j in range(slices + 1):
                theta = 2 * math.pi * j / slices
                n = (math.sin(phi) * math.cos(theta), math.cos(phi), math.sin(phi) * math.sin(theta))
                self.p += [centre[k] + radius * n[k] for k in range(3)]
                self.n += list(n)
                self.t += [j / slices, i / stacks]
        for i in range(stacks):
            for j in range(slices):
                a, b = base + i * (slices + 1) + j, base + (i + 1) * (slices + 1) + j
                self.i += [a, b, a + 1, a + 1, b, b + 1]

    def plant(self, width, height, yaw, extra):
        """Crossed quads about the y axis (three, 60 degrees apart, base at the origin), and `extra`
        smaller ones leaning outwards around them (a bush), all with the whole sprig texture."""
        for k in range(3):
            a = yaw + k * math.pi / 3
            d = (math.cos(a) * width, 0.0, math.sin(a) * width)
            self.quad((-d[0] / 2, 0.0, -d[2] / 2), d, (0.0, height, 0.0))
        for k in range(extra):
            a = yaw + (k + 0.5) * 2 * math.pi / extra
            radial = (math.cos(a), 0.0, math.sin(a))
            tangent = (-math.sin(a) * 0.7 * width, 0.0, math.cos(a) * 0.7 * width)
            lean = 0.45 + 0.25 * hash01(9, k, int(width * 1000))
            up = tuple(0.7 * height * (math.cos(lean) * (0, 1, 0)[j] + math.sin(lean) * radial[j]) for j in range(3))
            centre = (0.18 * width * radial[0], 0.0, 0.18 * width * radial[2])
            self.quad(tuple(centre[j] - tangent[j] / 2 for j in range(3)), tangent, up)


def quaternion_y(angle):
    return [0.0, math.sin(angle / 2), 0.0, math.cos(angle / 2)]


def quaternion_multiply(a, b):
    ax, ay, az, aw = a
    bx, by, bz, bw = b
    return [aw * bx + ax * bw + ay * bz - az * by, aw * by - ax * bz + ay * bw + az * bx,
            aw * bz + ax * by - ay * bx + az * bw, aw * bw - ax * bx - ay * by - az * bz]


def look_rotation(eye, target):
    """A rotation turning the camera's -z towards target (yaw, then pitch), as a quaternion."""
    dx, dy, dz = (target[k] - eye[k] for k in range(3))
    yaw = math.atan2(-dx, -dz)
    pitch = math.atan2(dy, math.hypot(dx, dz))
    cy, sy, cp, sp = math.cos(yaw / 2), math.sin(yaw / 2), math.cos(pitch / 2), math.sin(pitch / 2)
    # q = yaw about y, then pitch about x
    return [cy * sp, sy * cp, -sy * sp, cy * cp]


def main():
    out = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), "..", "assets", "lab", "lab.glb")
    b = Builder()

    # The textures (texels: 1024^2 x 2, 512^2 x 4, 256^2, 512 x 128: 3.2 M in all).
    zone_texture = b.texture(b.image(png(1024, 1024, 1, zone_plate(1024)), "zone plate"), "zone plate")
    page_rows, sign_box = text_page(1024)
    page_image = b.image(png(1024, 1024, 1, page_rows), "text page")
    page_texture = b.texture(page_image, "text page")
    sign_texture = b.texture(page_image, "text sign, nearest", mag=NEAREST, wrap=CLAMP_TO_EDGE)
    leaf_texture = b.texture(b.image(png(512, 512, 4, leaf_sprig(512)), "leaf sprig"), "leaf sprig", wrap=CLAMP_TO_EDGE)
    neon_texture = b.texture(b.image(png(512, 128, 3, neon(512, 128)), "neon"), "neon", wrap=CLAMP_TO_EDGE)
    tile_texture = b.texture(b.image(png(256, 256, 3, floor_tiles(256)), "floor tiles"), "floor tiles")
    brick_base, brick_normal, brick_orm = brick_maps(512)
    brick_base = b.texture(b.image(png(512, 512, 3, brick_base), "brick base colour"), "brick base colour")
    brick_normal = b.texture(b.image(png(512, 512, 3, brick_normal), "brick normal"), "brick normal")
    brick_orm = b.texture(b.image(png(512, 512, 3, brick_orm), "brick occlusion roughness metal"),
                          "brick occlusion roughness metal")

    # The floor: tiles 31 cm square (the texture 1.25 m), turned 0.3 rad, through KHR_texture_transform.
    floor = Geometry()
    floor.quad((-20, 0, -20), (0, 0, 40), (40, 0, 0), uv=((0, 0), (0, 4), (4, 4), (4, 0)))
    transform = {"KHR_texture_transform": {"offset": [0.25, 0.0], "rotation": 0.3, "scale": [8.0, 8.0]}}
    b.node("floor", b.mesh(floor, b.material((1.0, 1.0, 1.0), 0.7, name="floor tiles",
                                             baseColorTexture={"index": tile_texture, "extensions": transform}),
                           "floor", textured=True))

    # The zone plate: slats on a wall at z = -3, spacing from 16 cm down to 1 cm, 3 cm deep.
    plate = Geometry()
    x, gap = -4.0, 0.16
    while x < 4.0 and gap >= 0.01:
        plate.box((x, 0.2, -3.03), (x + gap / 2, 2.2, -3.0))
        x += gap
        gap *= 0.96
    y, gap = 2.4, 0.16
    while y < 4.4 and gap >= 0.01:
        plate.box((-4.0, y, -3.03), (4.0, y + gap / 2, -3.0))
        y += gap
        gap *= 0.93
    wall = Geometry()
    wall.quad((-4.2, 0, -3.05), (8.4, 0, 0), (0, 4.6, 0))  # facing the camera (+z)
    b.node("wall", b.mesh(wall, b.material((0.05, 0.05, 0.06), 0.9, name="wall"), "wall"))
    b.node("zone plate", b.mesh(plate, b.material((0.95, 0.95, 0.9), 0.5, name="slats"), "slats"))

    # On the wall right of the vertical slats (x > -0.25): the image zone plate and the text page.
    panel = Geometry()
    panel.quad((0.05, 0.2, -3.0), (2.0, 0, 0), (0, 2.0, 0))
    b.node("image zone plate", b.mesh(panel, b.material((1.0, 1.0, 1.0), 0.6, name="image zone plate",
                                                        baseColorTexture={"index": zone_texture}),
                                      "image zone plate", textured=True))
    page = Geometry()
    page.quad((2.2, 0.25, -3.0), (1.9, 0, 0), (0, 1.9, 0))
    b.node("text page", b.mesh(page, b.material((1.0, 1.0, 1.0), 0.8, name="text page",
                                                baseColorTexture={"index": page_texture}),
                               "text page", textured=True))

    # A neon sign above the wall: LED dots and stripes of emission 20.
    sign = Geometry()
    sign.quad((-1.6, 4.75, -3.0), (3.2, 0, 0), (0, 0.8, 0))
    b.node("neon sign", b.mesh(sign, b.material((0.02, 0.02, 0.02), 0.4, (1.0, 1.0, 1.0), 20.0, "neon",
                                                emissiveTexture={"index": neon_texture}),
                               "neon sign", textured=True))

    # A brick wall left of the back wall, turned 35 degrees towards the camera: 4 m x 3.5 m, 1 m a tile.
    angle, length, tall = math.radians(35), 4.0, 3.5
    right = (-4.2, 0.0, -3.05)
    left = (right[0] - length * math.cos(angle), 0.0, right[2] + length * math.sin(angle))
    bricks = Geometry()
    bricks.quad(left, tuple(right[k] - left[k] for k in range(3)), (0, tall, 0),
                uv=((0, tall), (length, tall), (length, 0), (0, 0)))
    b.node("brick wall", b.mesh(bricks, b.material((1.0, 1.0, 1.0), 1.0, name="bricks", metallicFactor=1.0,
                                                   baseColorTexture={"index": brick_base},
                                                   metallicRoughnessTexture={"index": brick_orm},
                                                   normalTexture={"index": brick_normal, "scale": 1.0},
                                                   occlusionTexture={"index": brick_orm, "strength": 1.0}),
                                "brick wall", textured=True))

    # A chain-link fence: 1 cm wires on a 10 cm diagonal lattice, 6 m x 2 m at z = 1.5.
    fence = Geometry()
    for k in range(-40, 80):
        x0 = -3.0 + 0.1 * k
        fence.rod((x0, 0.0, 1.5), (x0 + 2.0, 2.0, 1.5), 0.005, 4)
        fence.rod((x0 + 2.0, 0.0, 1.5), (x0, 2.0, 1.5), 0.005, 4)
    # Clip nothing: wires past the ends are part of the stress (they end in mid-air).
    b.node("fence", b.mesh(fence, b.material((0.7, 0.7, 0.72), 0.3, name="wire"), "fence"))

    # Power lines across the scene.
    lines = Geometry()
    for k, h in enumerate((3.0, 3.2, 3.4, 3.6)):
        lines.rod((-12.0, h, -1.0 + 0.4 * k), (12.0, h - 0.3, 2.0 + 0.4 * k), 0.006, 6)
    b.node("power lines", b.mesh(lines, b.material((0.1, 0.1, 0.1), 0.4, name="cable"), "lines"))

    # Glossy spheres and tiny emitters.
    for k, (c, r, colour, rough) in enumerate((((-2.5, 0.6, 0.0), 0.6, (0.9, 0.9, 0.9), 0.05),
                                               ((0.0, 0.5, -0.8), 0.5, (0.9, 0.2, 0.1), 0.1),
                                               ((2.4, 0.7, 0.2), 0.7, (0.1, 0.3, 0.9), 0.15))):
        s = Geometry()
        s.sphere(c, r)
        b.node("glossy %d" % k, b.mesh(s, b.material(colour, rough, name="glossy %d" % k), "glossy %d" % k))
    for k, (c, strength, colour) in enumerate((((-3.5, 2.5, -2.5), 400, (1.0, 0.8, 0.5)),
                                               ((3.5, 0.3, 0.8), 120, (0.4, 0.6, 1.0)),
                                               ((0.5, 3.9, -2.9), 40, (1.0, 0.3, 0.6)),
                                               ((-1.2, 0.1, 2.5), 200, (0.5, 1.0, 0.4)))):
        s = Geometry()
        s.sphere(c, 0.04, 8, 16)
        b.node("emitter %d" % k, b.mesh(s, b.material((0, 0, 0), 1.0, colour, strength, "emitter %d" % k),
                                        "emitter %d" % k))

    # A pane of tinted glass (blended, alpha 0.4) in front of the vertical slats, in a frame; the
    # cube below passes between them.
    glass = Geometry()
    glass.quad((-3.3, 0.25, -1.5), (2.3, 0, 0), (0, 1.8, 0))
    b.node("glass", b.mesh(glass, b.material((0.55, 0.75, 0.8, 0.4), 0.05, name="glass", alphaMode="BLEND",
                                             doubleSided=True), "glass"))
    props = Geometry()
    for lo, hi in (((-3.34, 0.0, -1.52), (-3.3, 2.09, -1.48)), ((-1.0, 0.0, -1.52), (-0.96, 2.09, -1.48)),
                   ((-3.3, 2.05, -1.52), (-1.0, 2.09, -1.48)), ((-3.3, 0.21, -1.52), (-1.0, 0.25, -1.48)),
                   ((-0.8, 0.0, 3.13), (-0.77, 0.76, 3.16)), ((0.37, 0.0, 3.13), (0.4, 0.76, 3.16))):
        props.box(lo, hi)
    b.node("frames and posts", b.mesh(props, b.material((0.3, 0.3, 0.32), 0.6, name="frames"), "frames"))

    # A low sign in front of the fence: the page's top-left corner ("THE QUICK" over "the quick",
    # 124 x 40 texels) on 1.4 m, NEAREST, about 3 m from the camera: magnified about 4x at 1080p.
    # It leans back 15 degrees (its top at z = 3.19), against posts behind it.
    u0, v0, u1, v1 = (c / 1024 for c in sign_box)
    board_height = 1.4 * (v1 - v0) / (u1 - u0)
    lean = math.radians(15)
    board = Geometry()
    board.quad((-0.9, 0.35, 3.3), (1.4, 0, 0), (0, board_height * math.cos(lean), -board_height * math.sin(lean)),
               uv=((u0, v1), (u1, v1), (u1, v0), (u0, v0)))
    b.node("text sign", b.mesh(board, b.material((1.0, 1.0, 1.0), 0.7, name="text sign",
                                                 baseColorTexture={"index": sign_texture}),
                               "text sign", textured=True))

    # Plants: crossed quads of a leaf sprig, alpha-tested, in front of the fence and the textured
    # wall; the tall one sways (rotation about its base).
    leaves = b.material((1.0, 1.0, 1.0), 0.6, name="leaves", baseColorTexture={"index": leaf_texture},
                        alphaMode="MASK", alphaCutoff=0.5, doubleSided=True)
    for k, (position, width, height, yaw, extra) in enumerate((((-3.4, 0.0, 2.9), 1.1, 1.0, 0.2, 5),
                                                              ((-1.9, 0.0, 3.2), 0.9, 0.85, 0.9, 4),
                                                              ((1.3, 0.0, 3.6), 0.8, 1.4, 0.4, 0),
                                                              ((3.0, 0.0, 2.9), 1.1, 1.1, 0.5, 5))):
        g = Geometry()
        g.plant(width, height, yaw, extra)
        mesh = b.mesh(g, leaves, "plant %d" % k, textured=True)
        if extra:
            b.node("plant %d" % k, mesh, translation=list(position))
            continue
        times = [0.125 * i for i in range(81)]
        # About z (0.1 rad, 4 periods in the scene's 10 s loop) and x (0.04 rad, 3 periods).
        keys = []
        for t in times:
            z, x = 0.10 * math.sin(2 * math.pi * t / 2.5), 0.04 * math.sin(2 * math.pi * t * 0.3 + 1.0)
            keys.append(quaternion_multiply([0.0, 0.0, math.sin(z / 2), math.cos(z / 2)],
                                            [math.sin(x / 2), 0.0, 0.0, math.cos(x / 2)]))
        sway = b.node("plant %d" % k, mesh, translation=list(position), rotation=keys[0])
        b.animate(sway, "rotation", times, [c for q in keys for c in q], "VEC4")

    # Objects moving in front of the zone plate and the fence (disocclusion).
    cube = Geometry()
    cube.box((-0.3, -0.3, -0.3), (0.3, 0.3, 0.3))
    mover = b.node("mover", b.mesh(cube, b.material((0.9, 0.7, 0.1), 0.25, name="mover"), "mover"),
                   translation=[-3.5, 1.2, -2.2])
    b.animate(mover, "translation", [0.0, 4.0, 8.0], [-3.5, 1.2, -2.2, 3.5, 1.2, -2.2, -3.5, 1.2, -2.2], "VEC3")
    b.animate(mover, "rotation", [0.0, 4.0, 8.0], quaternion_y(0) + quaternion_y(math.pi) + quaternion_y(2 * math.pi),
              "VEC4")
    ball = Geometry()
    ball.sphere((0, 0, 0), 0.25)
    roller = b.node("roller", b.mesh(ball, b.material((0.2, 0.8, 0.3), 0.35, name="roller"), "roller"),
                    translation=[2.8, 0.25, 2.0])
    b.animate(roller, "translation", [0.0, 3.0, 6.0], [2.8, 0.25, 2.0, -2.8, 0.25, 2.0, 2.8, 0.25, 2.0], "VEC3")

    # The camera: a slow dolly across the front with the view held on the wall's centre.
    b.doc["cameras"].append({"name": "path", "type": "perspective",
                             "perspective": {"yfov": 0.9, "znear": 0.05, "zfar": 200.0}})
    keys = [0.0, 5.0, 10.0]
    eyes = [(-2.5, 1.6, 6.5), (2.5, 1.9, 6.0), (-2.5, 1.6, 6.5)]
    target = (0.0, 1.4, -3.0)
    camera = b.node("path", camera=0, translation=list(eyes[0]), rotation=look_rotation(eyes[0], target))
    b.animate(camera, "translation", keys, [c for e in eyes for c in e], "VEC3")
    b.animate(camera, "rotation", keys, [q for e in eyes for q in look_rotation(e, target)], "VEC4")

    data = b.glb()
    os.makedirs(os.path.dirname(os.path.abspath(out)), exist_ok=True)
    with open(out, "wb") as f:
        f.write(data)
    print("%s: %d bytes, %d nodes, %d meshes, %d images" % (out, len(data), len(b.doc["nodes"]),
                                                            len(b.doc["meshes"]), len(b.doc["images"])))


if __name__ == "__main__":
    main()
