#!/usr/bin/env python3
"""Writes assets/lab/lab.glb: a glTF 2.0 scene made to stress image filters (#33), from geometry
alone (standard library only; the output is committed, so this runs only when the scene changes).

What is in it, and what it stresses:
- a geometric zone plate: vertical slats whose spacing shrinks from 16 cm to 1 cm along the wall,
  then horizontal ones the same way (aliasing at every frequency, TAA's rectification);
- a chain-link fence of 1 cm wires on a 10 cm diagonal lattice, and power lines 1 cm thick across
  the scene (thin geometry: sub-pixel coverage that flickers without AA);
- glossy spheres (roughness 0.05-0.15: sun highlights of hundreds) and tiny emitters of strength
  40-400 (fireflies for blurs, clamping for TAA);
- objects moving in front of the zone plate and the fence (disocclusion: ghosting);
- a camera path: the camera node is animated (translation and rotation), so the view moves with
  a changing parallax.
Textured detail (small text, an image zone plate) and alpha-tested foliage wait for textures.

Usage: scripts/make-lab-scene.py [OUT.glb]   (default assets/lab/lab.glb)
"""
import json
import math
import os
import struct
import sys


class Builder:
    def __init__(self):
        self.data = bytearray()
        self.doc = {"asset": {"version": "2.0", "generator": "filterlab scripts/make-lab-scene.py"},
                    "scene": 0, "scenes": [{"name": "lab", "nodes": []}], "nodes": [], "meshes": [],
                    "materials": [], "accessors": [], "bufferViews": [], "animations": [], "cameras": [],
                    "extensionsUsed": ["KHR_materials_emissive_strength"]}

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
        n = {"SCALAR": 1, "VEC3": 3, "VEC4": 4}[kind]
        fmt = {5126: "f", 5125: "I"}[component]
        payload = struct.pack("<%d%s" % (len(values), fmt), *values)
        a = {"bufferView": self.view(payload, target), "componentType": component, "count": len(values) // n,
             "type": kind}
        if bounds:
            a["min"] = [min(values[i::n]) for i in range(n)]
            a["max"] = [max(values[i::n]) for i in range(n)]
        self.doc["accessors"].append(a)
        return len(self.doc["accessors"]) - 1

    def material(self, colour, roughness, emissive=None, strength=1.0, name=None):
        m = {"pbrMetallicRoughness": {"baseColorFactor": list(colour) + [1.0], "metallicFactor": 0.0,
                                      "roughnessFactor": roughness}}
        if name:
            m["name"] = name
        if emissive:
            m["emissiveFactor"] = list(emissive)
            m["extensions"] = {"KHR_materials_emissive_strength": {"emissiveStrength": strength}}
        self.doc["materials"].append(m)
        return len(self.doc["materials"]) - 1

    def mesh(self, positions, normals, indices, material, name):
        prim = {"attributes": {"POSITION": self.accessor(positions, "VEC3", target=34962, bounds=True),
                               "NORMAL": self.accessor(normals, "VEC3", target=34962)},
                "indices": self.accessor(indices, "SCALAR", 5125, target=34963), "material": material}
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
        self.p, self.n, self.i = [], [], []

    def quad(self, o, u, v):
        nx, ny, nz = (u[1] * v[2] - u[2] * v[1], u[2] * v[0] - u[0] * v[2], u[0] * v[1] - u[1] * v[0])
        length = math.sqrt(nx * nx + ny * ny + nz * nz) or 1.0
        base = len(self.p) // 3
        for a, b in ((0, 0), (1, 0), (1, 1), (0, 1)):
            self.p += [o[k] + a * u[k] + b * v[k] for k in range(3)]
            self.n += [nx / length, ny / length, nz / length]
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
        for i in range(stacks):
            for j in range(slices):
                a, b = base + i * (slices + 1) + j, base + (i + 1) * (slices + 1) + j
                self.i += [a, b, a + 1, a + 1, b, b + 1]


def quaternion_y(angle):
    return [0.0, math.sin(angle / 2), 0.0, math.cos(angle / 2)]


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

    floor = Geometry()
    floor.quad((-20, 0, -20), (0, 0, 40), (40, 0, 0))
    b.node("floor", b.mesh(floor.p, floor.n, floor.i, b.material((0.45, 0.45, 0.42), 0.7, name="floor"), "floor"))

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
    wall.quad((-4.2, 0, -3.05), (0, 4.6, 0), (8.4, 0, 0))
    b.node("wall", b.mesh(wall.p, wall.n, wall.i, b.material((0.05, 0.05, 0.06), 0.9, name="wall"), "wall"))
    b.node("zone plate", b.mesh(plate.p, plate.n, plate.i, b.material((0.95, 0.95, 0.9), 0.5, name="slats"), "slats"))

    # A chain-link fence: 1 cm wires on a 10 cm diagonal lattice, 6 m x 2 m at z = 1.5.
    fence = Geometry()
    for k in range(-40, 80):
        x0 = -3.0 + 0.1 * k
        fence.rod((x0, 0.0, 1.5), (x0 + 2.0, 2.0, 1.5), 0.005, 4)
        fence.rod((x0 + 2.0, 0.0, 1.5), (x0, 2.0, 1.5), 0.005, 4)
    # Clip nothing: wires past the ends are part of the stress (they end in mid-air).
    b.node("fence", b.mesh(fence.p, fence.n, fence.i, b.material((0.7, 0.7, 0.72), 0.3, name="wire"), "fence"))

    # Power lines across the scene.
    lines = Geometry()
    for k, h in enumerate((3.0, 3.2, 3.4, 3.6)):
        lines.rod((-12.0, h, -1.0 + 0.4 * k), (12.0, h - 0.3, 2.0 + 0.4 * k), 0.006, 6)
    b.node("power lines", b.mesh(lines.p, lines.n, lines.i, b.material((0.1, 0.1, 0.1), 0.4, name="cable"), "lines"))

    # Glossy spheres and tiny emitters.
    for k, (c, r, colour, rough) in enumerate((((-2.5, 0.6, 0.0), 0.6, (0.9, 0.9, 0.9), 0.05),
                                               ((0.0, 0.5, -0.8), 0.5, (0.9, 0.2, 0.1), 0.1),
                                               ((2.4, 0.7, 0.2), 0.7, (0.1, 0.3, 0.9), 0.15))):
        s = Geometry()
        s.sphere(c, r)
        b.node("glossy %d" % k, b.mesh(s.p, s.n, s.i, b.material(colour, rough, name="glossy %d" % k), "glossy %d" % k))
    for k, (c, strength, colour) in enumerate((((-3.5, 2.5, -2.5), 400, (1.0, 0.8, 0.5)),
                                               ((3.5, 0.3, 0.8), 120, (0.4, 0.6, 1.0)),
                                               ((0.5, 3.9, -2.9), 40, (1.0, 0.3, 0.6)),
                                               ((-1.2, 0.1, 2.5), 200, (0.5, 1.0, 0.4)))):
        s = Geometry()
        s.sphere(c, 0.04, 8, 16)
        b.node("emitter %d" % k, b.mesh(s.p, s.n, s.i, b.material((0, 0, 0), 1.0, colour, strength, "emitter %d" % k),
                                        "emitter %d" % k))

    # Objects moving in front of the zone plate and the fence (disocclusion).
    cube = Geometry()
    cube.box((-0.3, -0.3, -0.3), (0.3, 0.3, 0.3))
    mover = b.node("mover", b.mesh(cube.p, cube.n, cube.i, b.material((0.9, 0.7, 0.1), 0.25, name="mover"), "mover"),
                   translation=[-3.5, 1.2, -2.2])
    b.animate(mover, "translation", [0.0, 4.0, 8.0], [-3.5, 1.2, -2.2, 3.5, 1.2, -2.2, -3.5, 1.2, -2.2], "VEC3")
    b.animate(mover, "rotation", [0.0, 4.0, 8.0], quaternion_y(0) + quaternion_y(math.pi) + quaternion_y(2 * math.pi),
              "VEC4")
    ball = Geometry()
    ball.sphere((0, 0, 0), 0.25)
    roller = b.node("roller", b.mesh(ball.p, ball.n, ball.i, b.material((0.2, 0.8, 0.3), 0.35, name="roller"), "roller"),
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
    print("%s: %d bytes, %d nodes, %d meshes" % (out, len(data), len(b.doc["nodes"]), len(b.doc["meshes"])))


if __name__ == "__main__":
    main()
