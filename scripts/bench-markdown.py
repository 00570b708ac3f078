#!/usr/bin/env python3
"""Markdown tables from `filterlab bench` JSON: median time per method (rows) and radius (columns),
with the ratio to the memory floor measured in the same run (the fastest copy: the case marked
"floor"; older files have one copy case). Usage: bench-markdown.py BENCH.json [...]"""
import json
import sys


def table(path):
    bench = json.load(open(path))
    device = bench["device"]
    floor_filter = bench.get("floor_filter", "copy")  # files from before the key had the copy family
    lines = []
    for (width, height, precision) in sorted({(c["width"], c["height"], c["precision"]) for c in bench["cases"]}):
        cases = [c for c in bench["cases"]
                 if (c["width"], c["height"], c["precision"]) == (width, height, precision)]
        copies = [c for c in cases if c["filter"] == floor_filter]
        if not copies:
            sys.exit(f"{path}: no {floor_filter} case at {width}x{height} {precision}: no floor to divide by")
        copy = next((c for c in copies if c.get("floor")), min(copies, key=lambda c: c["median_us"]))
        radii = sorted({c["radius"] for c in cases if c["filter"] != floor_filter})
        methods = []
        for c in cases:
            if c["filter"] != floor_filter and c["method"] not in methods:
                methods.append(c["method"])
        api = str(device["api_version"])
        api = api if not api[:1].isdigit() else "Vulkan " + api  # peers write e.g. "CUDA 13.0"
        tool = "" if bench.get("tool", "filterlab") == "filterlab" else f" ({bench['tool']})"
        lines.append(f"**{device['name']}**{tool} ({device['driver']} {device['driver_info']}, "
                     f"{api}), {width}x{height} {precision}, {bench['timings_are']}; "
                     f"median of {bench['frames']} frames, git {bench['git_revision']}, {bench['date']}. "
                     f"Memory floor (the fastest copy, {copy['method']}, same run): **{copy['median_us']:.1f} µs**. "
                     f"Cells: median µs (× copy).\n")
        lines.append("| method | stage | exact | " + " | ".join(f"r={r}" for r in radii) + " |")
        lines.append("| --- | --- | --- | " + " | ".join("---:" for _ in radii) + " |")
        for m in methods:
            row = [c for c in cases if c["method"] == m]
            cells = []
            for r in radii:
                hit = [c for c in row if c["radius"] == r]
                if hit:
                    c = hit[0]
                    us = c["median_us"]
                    text = f"{us:.0f}" if us >= 100 else f"{us:.1f}"
                    cells.append(f"{text} ({c['copy_ratio']:.1f}×)")
                else:
                    cells.append("—")
            lines.append(f"| {m} | {row[0]['stage']} | {'yes' if row[0]['exact'] else 'no'} | " + " | ".join(cells) + " |")
        # Older files (and the peers) give no size or precision: their skips go under every table.
        skipped = [s for s in bench.get("skipped", [])
                   if (s.get("width", width), s.get("height", height), s.get("precision", precision))
                   == (width, height, precision)]
        if skipped:
            lines.append("")
            for s in skipped:
                lines.append(f"- skipped {s['method']} r={s['radius']}: {s['reason']}")
        lines.append("")
    return "\n".join(lines)


if __name__ == "__main__":
    for path in sys.argv[1:]:
        print(table(path))
