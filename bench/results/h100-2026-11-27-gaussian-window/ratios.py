#!/usr/bin/env python3
"""New / old median GPU time for each method, precision and radius, from the bench JSON files
named on the command line (old-*.json, new-*.json: run.sh). Where a radius was timed more than
once, each sitting's pair is kept and the table shows every ratio."""
import json, os, sys
from collections import defaultdict

pairs = defaultdict(lambda: defaultdict(dict))  # (method, precision, radius) -> sitting -> build -> us
for path in sys.argv[1:]:
    name = os.path.basename(path)
    build, sitting = name.split("-", 1)
    sitting = sitting.rsplit("-", 1)[0] + "@" + os.path.dirname(path)
    for c in json.load(open(path))["cases"]:
        if c["filter"] == "gaussian":
            pairs[(c["method"], c["precision"], c["radius"])][sitting][build] = (c["median_us"], c["width"])
rows = []
for (method, precision, radius), sittings in sorted(pairs.items()):
    for s in sittings.values():
        if "old" in s and "new" in s:
            rows.append((method, precision, radius, s["old"][1], s["old"][0], s["new"][0], s["new"][0] / s["old"][0]))
print("method,precision,radius,width,old_us,new_us,new_over_old")
for r in rows:
    print("%s,%s,%d,%d,%.2f,%.2f,%.3f" % r)
