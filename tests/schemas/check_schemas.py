#!/usr/bin/env python3
"""ctest schemas.check: the JSON Schemas in schemas/ against what the built filterlab writes.

In a temporary folder it runs small lavapipe commands (bench of the copy floor, of gaussian with sweeps,
precisions, repeats and captures, of a bigblur method that reads its history, tune, evaluate,
run --headless --save-chain) and validates each file against its schema (draft 7, format checks off);
then the built-in tune tables (renderer/filters/auto_tables/*.json) and a document from
bench/peers.py's own writer (where numpy imports). A case's keys that are not fixed by the schema
must be parameters of its family as `filterlab filters` lists them. Every document is then broken
on purpose (a required key dropped, a type changed, a key renamed or added) and each broken copy
must be rejected: a schema that accepts anything checks nothing.
    check_schemas.py PATH/TO/filterlab
Exit 0 when everything holds, 1 when a document fails its schema or a broken one passes, 2 on usage."""
import argparse
import copy
import glob
import importlib.util
import json
import os
import re
import subprocess
import sys
import tempfile
import time

import jsonschema

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, "..", ".."))
SCHEMAS = os.path.join(ROOT, "schemas")


class Checker:
    def __init__(self, filterlab, work):
        self.filterlab, self.work = filterlab, work
        self.passed = self.failed = 0
        self.validators = {}
        for name in ("bench", "evaluation", "tune", "preset"):
            with open(os.path.join(SCHEMAS, f"filterlab.{name}.schema.json")) as f:
                schema = json.load(f)
            jsonschema.Draft7Validator.check_schema(schema)  # the schema itself is a valid draft-7 schema
            self.validators[name] = jsonschema.Draft7Validator(schema)  # no format_checker: formats unchecked
        case = self.validators["bench"].schema["definitions"]["filterlab_case"]["properties"]
        skipped = self.validators["bench"].schema["definitions"]["filterlab_skipped"]["properties"]
        self.case_keys, self.skipped_keys = set(case), set(skipped)
        self.family_params = self.parse_families(self.filterlab_run("filters"))
        # A case writes one key per parameter beside its fixed keys: a parameter named like one would
        # overwrite it (bench refuses to write such a case; this finds it before any bench runs).
        for family, params in sorted(self.family_params.items()):
            # precision is both: the fixed key is the shared parameter (precision_param).
            clash = sorted((params - {"precision"}) & (self.case_keys | self.skipped_keys))
            self.check(not clash, f"{family}'s parameters are named apart from a case's fixed keys {clash or ''}")

    def check(self, ok, what):
        print(("ok    " if ok else "FAIL  ") + what, flush=True)
        if ok:
            self.passed += 1
        else:
            self.failed += 1

    def filterlab_run(self, *args):
        started = time.monotonic()
        done = subprocess.run([self.filterlab, *args], cwd=self.work, capture_output=True, text=True, timeout=240)
        if done.returncode != 0:
            raise RuntimeError(f"filterlab {' '.join(args)} exited {done.returncode}:\n{done.stdout}{done.stderr}")
        if args[0] != "filters":
            print(f"      ({time.monotonic() - started:.1f} s) filterlab {' '.join(args)}", flush=True)
        return done.stdout

    @staticmethod
    def parse_families(listing):
        """`filterlab filters`: a family's line is "  NAME: ...", each parameter's "    KEY=...". """
        families, current = {}, None
        for line in listing.splitlines():
            if m := re.match(r"^  ([a-z][a-z0-9_]*): ", line):
                current = families.setdefault(m.group(1), set())
            elif (m := re.match(r"^    ([a-z][a-z0-9_]*)=", line)) and current is not None:
                current.add(m.group(1))
        return families

    def param_problems(self, doc):
        """A filterlab bench case's (or skipped entry's) keys beyond the schema's fixed ones must be
        parameters of its family: the schema lets them through as scalars, so a renamed fixed key
        would otherwise pass as one."""
        if not isinstance(doc, dict) or doc.get("schema") != "filterlab.bench/2" or doc.get("tool") != "filterlab":
            return []
        problems = []
        for i, c in enumerate(doc.get("cases") or []):
            if not isinstance(c, dict):
                continue
            allowed = self.family_params.get(c.get("filter"), set())
            for key in set(c) - self.case_keys - allowed:
                problems.append(f"cases[{i}].{key}: not a key of the schema nor a parameter of {c.get('filter')}")
        families = {doc.get("filter"), doc.get("floor_filter")}
        allowed = set().union(*(self.family_params.get(f, set()) for f in families))
        for i, s in enumerate(doc.get("skipped") or []):
            if isinstance(s, dict):
                for key in set(s) - self.skipped_keys - allowed:
                    problems.append(f"skipped[{i}].{key}: not a key of the schema nor a parameter of {families}")
        return problems

    def problems(self, kind, doc):
        errors = [f"{'/'.join(map(str, e.absolute_path)) or '(top)'}: {e.message[:200]}"
                  for e in self.validators[kind].iter_errors(doc)]
        return errors + (self.param_problems(doc) if kind == "bench" else [])

    def validate(self, kind, doc, what, breaks):
        errors = self.problems(kind, doc)
        self.check(not errors, f"{what} validates against filterlab.{kind}.schema.json"
                   + "".join(f"\n        {e}" for e in errors[:8]))
        # The schema must be able to fail: each broken copy is rejected.
        escaped = []
        for label, breaker in breaks:
            broken = copy.deepcopy(doc)
            breaker(broken)
            if not self.problems(kind, broken):
                escaped.append(label)
        self.check(not escaped, f"  {what}: {len(breaks) - len(escaped)} of {len(breaks)} broken copies rejected"
                   + "".join(f"\n        BROKEN DOCUMENT PASSED: {label}" for label in escaped))

    def load(self, name):
        with open(os.path.join(self.work, name)) as f:
            return json.load(f)


def case_of(doc, **match):
    return next(c for c in doc["cases"] if all(c.get(k) == v for k, v in match.items()))


def bench_breaks(doc):
    """Ways to break a filterlab bench document that its schema must catch."""
    breaks = [
        ("top-level clock_probe_us dropped", lambda d: d.pop("clock_probe_us")),
        ("an unknown top-level key", lambda d: d.update(extra=1)),
        ("device.name dropped", lambda d: d["device"].pop("name")),
        ("frames as text", lambda d: d.update(frames="3")),
        ("a case's median_us dropped", lambda d: d["cases"][0].pop("median_us")),
        ("a case's width as text", lambda d: d["cases"][0].update(width="64")),
        ("a case's precision fp64", lambda d: d["cases"][0].update(precision="fp64")),
        ("a case's floor renamed is_floor", lambda d: d["cases"][0].update(is_floor=d["cases"][0].pop("floor"))),
        ("a case's clock.settled dropped", lambda d: d["cases"][0]["clock"].pop("settled")),
        ("a case's stage unknown", lambda d: d["cases"][0].update(stage="vertex")),
        ("a case's error.max_abs as text", lambda d: d["cases"][0].update(error={"max_abs": "0", "mse": 0, "ssim": 1})),
        ("a case's passes as an object", lambda d: d["cases"][0].update(passes={"copy": 1.0})),
        ("schema filterlab.bench/1", lambda d: d.update(schema="filterlab.bench/1")),
    ]
    if any("capture" in c for c in doc["cases"]):
        i = next(i for i, c in enumerate(doc["cases"]) if "capture" in c)
        breaks.append(("a case's capture renamed capture_png",
                       lambda d, i=i: d["cases"][i].update(capture_png=d["cases"][i].pop("capture"))))
    if any("error_after_frames" in c for c in doc["cases"]):
        i = next(i for i, c in enumerate(doc["cases"]) if "error_after_frames" in c)
        breaks.append(("error_after_frames[0].frames dropped",
                       lambda d, i=i: d["cases"][i]["error_after_frames"][0].pop("frames")))
    if doc["skipped"]:
        breaks.append(("a skipped entry's reason dropped", lambda d: d["skipped"][0].pop("reason")))
    return breaks


def run_checks(c):
    fast = ["--frames", "3", "--warmup", "0", "--warmup-ms", "0", "--quiet"]
    # bench: the copy floor alone; at 8x8 (SSIM has no 11x11 window: null); without the error.
    c.filterlab_run("bench", "--filter", "copy", "--sizes", "64x32", *fast, "--json", "copy.json")
    c.filterlab_run("bench", "--filter", "copy", "--sizes", "8x8", *fast, "--json", "copy-8x8.json")
    c.filterlab_run("bench", "--filter", "copy", "--sizes", "64x32", *fast, "--no-error", "--json", "noerror.json")
    # gaussian: sweeps, both precisions, repeats, captures, skipped methods, region parameters (null).
    c.filterlab_run("bench", "--filter", "gaussian", "--sizes", "64x32", *fast, "--radii", "1,2", "--precision",
                    "fp16,fp32", "--repeat", "2", "--captures", "captures", "--json", "gaussian.json")
    # A method that reads its history: error_after_frames.
    c.filterlab_run("bench", "--filter", "bigblur", "--methods", "comp.mip_poisson_temporal", "--sweep", "sigma=4",
                    "--sizes", "64x32", *fast, "--json", "bigblur.json")
    c.filterlab_run("tune", "--filter", "gaussian", "--output", "tune.json", "--size", "64x32", "--frames", "2",
                    "--keys", "1", "--quiet")
    # 10 frames: more than the 8 the ghosting measure looks back over, so it is a number.
    c.filterlab_run("evaluate", "--size", "16x16", "--frames", "10", "--grid", "1", "--json", "evaluation.json")
    c.filterlab_run("run", "--headless", "--frames", "1", "--warmup", "0", "--size", "64x32", "--chain", "gaussian",
                    "--save-chain", "preset.json", "--quiet")
    c.filterlab_run("run", "--headless", "--frames", "1", "--warmup", "0", "--size", "64x32", "--image",
                    "captures/comp.fetch_64x32_fp16.png", "--chain",
                    "copy,gaussian.comp.tiled:radius=3:src_roi=8x8+2+2:dst_roi=8x8+2+2", "--tonemap", "agx",
                    "--exposure", "2", "--jitter", "--jitter-length", "16", "--save-chain", "preset-image.json",
                    "--quiet")

    for name in ("copy.json", "copy-8x8.json", "noerror.json", "gaussian.json", "bigblur.json"):
        doc = c.load(name)
        c.validate("bench", doc, f"bench {name}", bench_breaks(doc))
    # What the runs were for: the optional fields showed up (else the schema checked less than it says).
    g, b = c.load("gaussian.json"), c.load("bigblur.json")
    c.check(case_of(c.load("copy-8x8.json"), floor=True)["error"]["ssim"] is None, "copy at 8x8: ssim is null")
    c.check(all(x["error"] is None for x in c.load("noerror.json")["cases"]), "--no-error: every error is null")
    c.check(all("capture" in x and "diff" in x for x in g["cases"]) and g["skipped"] and
            any(x.get("src_roi", 0) is None for x in g["cases"]) and
            any(len(x["repeat_medians_us"]) == 2 for x in g["cases"]) and
            {x["precision"] for x in g["cases"]} == {"fp16", "fp32"},
            "gaussian: captures, skipped methods, a null region, 2 repeats, both precisions")
    c.check(all(os.path.isfile(os.path.join(c.work, x[k])) for x in g["cases"] for k in ("capture", "diff")),
            "gaussian: every capture and diff path names a file beside the JSON")
    c.check(any("error_after_frames" in x for x in b["cases"]), "bigblur temporal: error_after_frames")
    c.check(any("auto" in x and x["method"] == "auto" for x in g["cases"]), "gaussian: auto's case marks its choice")

    tune = c.load("tune.json")
    c.validate("tune", tune, "tune table", [
        ("driver dropped", lambda d: d.pop("driver")),
        ("size of one side", lambda d: d.update(size=[64])),
        ("a family's key dropped", lambda d: d["families"]["gaussian"].pop("key")),
        ("precision fp64", lambda d: d["families"]["gaussian"].update(fp64=d["families"]["gaussian"]["fp16"])),
        ("a key value not a whole number", lambda d: d["families"]["gaussian"]["fp16"].update(r1=["comp.tiled"])),
        ("a ranking as text", lambda d: d["families"]["gaussian"]["fp32"].update({"1": "comp.tiled"})),
        ("an unknown top-level key", lambda d: d.update(note="x")),
    ])
    tables = sorted(glob.glob(os.path.join(ROOT, "renderer", "filters", "auto_tables", "*.json")))
    c.check(len(tables) >= 2, f"the built-in tune tables are found ({len(tables)})")
    for path in tables:
        with open(path) as f:
            table = json.load(f)
        errors = c.problems("tune", table)
        c.check(not errors, f"built-in tune table {os.path.basename(path)} validates" +
                "".join(f"\n        {e}" for e in errors[:5]))

    evaluation = c.load("evaluation.json")
    c.check(any(x["ghosting_rms"] is not None for s in evaluation["sequences"] for x in s["configs"]),
            "evaluate: a ghosting_rms that is a number")
    c.check(all(0 <= x["flip_last"] <= 1 for s in evaluation["sequences"] for x in s["configs"]) and
            evaluation["flip_ppd"] > 0, "evaluate: every configuration's flip_last, and the ppd it was taken at")
    c.validate("evaluation", evaluation, "evaluate --json", [
        ("reference_offsets dropped", lambda d: d.pop("reference_offsets")),
        ("frames as text", lambda d: d.update(frames="10")),
        ("size of three sides", lambda d: d.update(size=[16, 16, 16])),
        ("sequences reordered", lambda d: d["sequences"].reverse()),
        ("a config's psnr_last dropped", lambda d: d["sequences"][0]["configs"][0].pop("psnr_last")),
        ("a config's flicker negative", lambda d: d["sequences"][0]["configs"][0].update(flicker=-1.0)),
        ("a config's psnr as a number", lambda d: d["sequences"][1]["configs"][0].update(psnr=20.0)),
        ("a config with an unknown key", lambda d: d["sequences"][2]["configs"][0].update(ghosting=0.0)),
    ])

    for name in ("preset.json", "preset-image.json"):
        c.validate("preset", c.load(name), f"run --save-chain {name}", [
            ("a step's enabled dropped", lambda d: d["chain"][0].pop("enabled")),
            ("jitter_length 12", lambda d: d["scene"].update(jitter_length=12)),
            ("an unknown tonemap", lambda d: d.update(tonemap="filmic")),
            ("exposure 0", lambda d: d.update(exposure=0)),
            ("a step's params as an object", lambda d: d["chain"][0].update(params={"precision": "fp16"})),
            ("a parameter's value as a number", lambda d: d["chain"][0]["params"][0].__setitem__(1, 2)),
            ("content with both image and scene", lambda d: d["content"].update(image="/a.png", scene="builtin")),
            ("compare_view.divider as a float", lambda d: d["compare_view"].update(divider=0.5)),
            ("compare_chain dropped", lambda d: d.pop("compare_chain")),
        ])

    peers_document(c, g)


def peers_document(c, bench):
    """bench/peers.py's document from its own functions (device_facts, base_case, summarize, error_stats,
    make_document, finite, write_json), with made-up timings on filterlab's gaussian cases, as its
    --self-test makes one; its cases carry the fields peer_case and copy_case add."""
    path = os.path.join(ROOT, "bench", "peers.py")
    try:
        import numpy as np
    except ImportError:
        print("skip  bench/peers.py document: numpy does not import here")
        return
    if not os.path.isfile(path):
        print(f"skip  bench/peers.py document: no {path}")
        return
    spec = importlib.util.spec_from_file_location("filterlab_peers", path)
    peers = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(peers)
    options = argparse.Namespace(frames=3, warmup=1, warmup_ms=0, inputs=1, kernel="gaussian", sigma=None,
                                 no_backlog=False, device="cpu", peers=["cupy.correlate1d", "npp.row_column"])
    skipped = []
    peers.open_libraries(options, {"cupy"}, skipped)  # CuPy on --device cpu: skipped, with the reason
    skipped.append({"method": "npp.row_column", "radius": 2, "reason": "Unsupported: as run_peers skips a case"})
    image = np.zeros((4, 5, 4))
    cases, seen = [], set()
    for x in bench["cases"]:
        point = (x["filter"], x["precision"], x.get("radius"))
        if point in seen:
            continue
        seen.add(point)
        copy_case = x["filter"] == "copy"
        case = peers.base_case(x["filter"], "copy" if copy_case else "cupy.correlate1d", x["width"], x["height"],
                               x["precision"], x.get("radius"), x.get("sigma"), x.get("kernel"))
        case.update(peers.summarize([x["median_us"], x["p5_us"], x["p95_us"]]))
        extra = {"library": "cupy", "note": "made up", "passes": [{"name": case["method"], "median_us": case["median_us"]}],
                 "repeat_medians_us": [case["median_us"]], "copy_ratio": 1.0, "fetches_per_pixel": 1.0,
                 "error": peers.error_stats(image, image)}
        if not copy_case:
            extra.update({"layout": "hwc", "weights_max_abs_diff": 0.0})
        case.update(extra)
        cases.append(case)
    nan = peers.error_stats(np.full((4, 5, 4), np.nan), image)  # a NaN output: an infinite error, written null
    cases[-1].update({"error": nan, "flagged": "max_abs inf > 0.01 against the reference"})
    for x in cases:
        x["gpixels_per_s"] = x["width"] * x["height"] / (x["median_us"] * 1e3) if x["median_us"] else 0.0
    device = peers.device_facts({}, "cpu")
    out = os.path.join(c.work, "peers.json")
    peers.write_json(out, peers.finite(peers.make_document(options, device, cases, skipped, "numpy")))
    doc = c.load("peers.json")
    c.check(any(s.get("reason", "").startswith("cupy unavailable") for s in doc["skipped"]) and
            doc["cases"][-1]["error"]["max_abs"] is None, "peers: a library skipped, an infinite error as null")
    last = max(i for i, x in enumerate(doc["cases"]) if x["filter"] == "gaussian")
    c.validate("bench", doc, "bench/peers.py document", [
        ("kernel dropped", lambda d: d.pop("kernel")),
        ("clock_probe_us a number", lambda d: d.update(clock_probe_us=0.0)),
        ("tool unknown", lambda d: d.update(tool="other")),
        ("a case's stage compute", lambda d: d["cases"][0].update(stage="compute")),
        ("a gaussian case's radius dropped", lambda d: d["cases"][last].pop("radius")),
        ("a case with an unknown key", lambda d: d["cases"][0].update(extra=1)),
        ("sweeps' radii as numbers", lambda d: d["sweeps"].update(radius=[1])),
        ("a skipped entry's reason dropped", lambda d: d["skipped"][0].pop("reason")),
    ])


def main(argv):
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("filterlab", help="the built filterlab binary")
    options = p.parse_args(argv)
    filterlab = os.path.abspath(options.filterlab)
    if not os.access(filterlab, os.X_OK):
        print(f"check_schemas: {filterlab} is not an executable", file=sys.stderr)
        return 2
    os.environ.setdefault("XDG_RUNTIME_DIR", "/tmp")
    started = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="filterlab-schemas-") as work:
        c = Checker(filterlab, work)
        try:
            run_checks(c)
        except (RuntimeError, subprocess.TimeoutExpired, OSError, ValueError, KeyError, StopIteration) as e:
            c.check(False, f"{type(e).__name__}: {e}")
    print(f"check_schemas: {time.monotonic() - started:.1f} s")
    print(f"{c.passed} passed, {c.failed} failed")
    return 0 if c.failed == 0 else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
