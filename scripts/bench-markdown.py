#!/usr/bin/env python3
"""Markdown tables from `filterlab bench` JSON: median time per method (rows) and value of the first
swept parameter (columns: the radius where the family has one), with the ratio to the memory floor
measured in the same run (the fastest copy: the case marked "floor"; older files have one copy
case). Schema filterlab.bench/2 writes a key per schema parameter on each case, so a family without
the swept key has none; /1 wrote radius, sigma and kernel on every case.
Usage: bench-markdown.py BENCH.json [...]"""
import json
import sys


def table(path):
    bench = json.load(open(path))
    device = bench["device"]
    floor_filter = bench.get("floor_filter", "copy")  # files from before the key had the copy family
    key = next(iter(bench.get("sweeps") or {}), None)  # the columns; None: one column of defaults
    lines = []
    for (width, height, precision) in sorted({(c["width"], c["height"], c["precision"]) for c in bench["cases"]}):
        cases = [c for c in bench["cases"]
                 if (c["width"], c["height"], c["precision"]) == (width, height, precision)]
        copies = [c for c in cases if c["filter"] == floor_filter]
        if not copies:
            sys.exit(f"{path}: no {floor_filter} case at {width}x{height} {precision}: no floor to divide by")
        copy = next((c for c in copies if c.get("floor")), min(copies, key=lambda c: c["median_us"]))
        columns = sorted({c.get(key) for c in cases if c["filter"] != floor_filter},
                         key=lambda v: (v is None, v if isinstance(v, (int, float)) else 0, str(v)))
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
        lines.append("| method | stage | exact | " + " | ".join(f"{key}={v}" for v in columns) + " |")
        lines.append("| --- | --- | --- | " + " | ".join("---:" for _ in columns) + " |")
        for m in methods:
            row = [c for c in cases if c["method"] == m]
            cells = []
            for v in columns:
                hit = [c for c in row if c.get(key) == v]
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
                lines.append(f"- skipped {s['method']} {key}={s.get(key)}: {s['reason']}")
        lines.append("")
    return "\n".join(lines)


if __name__ == "__main__":
    for path in sys.argv[1:]:
        print(table(path))
