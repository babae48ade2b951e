#!/usr/bin/env python3
"""Compare `tfeval validate -json -schemas` with `terraform validate -json`.

Where Terraform and a provider are installed (offline: `terraform init
-plugin-dir=DIR`), terraform validate is the truth tfeval's validation with
that provider's schema must give. For every module directory given, this
script runs `terraform init -backend=false` (with -get=false when the
directory has a module manifest already, and the plugin directory when
given), skips the directory when init fails (a provider not installed, a
module not to be had), runs both validations and compares their diagnostics
as sets of (severity, summary, detail, file, line, column): Terraform's
order is its graph walk's, which changes from run to run.

    terraform providers schema -json > schema.json   # in a directory using the provider
    python3 scripts/validate_against_terraform.py --bin ./tfeval \\
        --schemas schema.json --plugin-dir /opt/tf-plugins DIR...

It prints each directory whose diagnostics differ, with the diagnostics only
one side has, and a summary line `validate-vs-terraform: N same, M differ,
K skipped`. It writes into the directories (.terraform, the lock file): give
it copies.
"""

import argparse
import collections
import json
import os
import subprocess
import sys


def diagnostics(doc):
    out = collections.Counter()
    for d in doc.get("diagnostics", []):
        r = d.get("range") or {}
        start = r.get("start") or {}
        out[(d["severity"], d["summary"], d.get("detail", ""), r.get("filename"), start.get("line"), start.get("column"))] += 1
    return out


def run_json(cmd, cwd):
    p = subprocess.run(cmd, cwd=cwd, capture_output=True, text=True, timeout=600)
    try:
        return json.loads(p.stdout)
    except ValueError:
        return None


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--bin", required=True, help="the tfeval binary")
    ap.add_argument("--terraform", default="terraform")
    ap.add_argument("--schemas", required=True, help="terraform providers schema -json output")
    ap.add_argument("--plugin-dir", help="terraform init -plugin-dir")
    ap.add_argument("dirs", nargs="+")
    args = ap.parse_args()
    tfeval = os.path.abspath(args.bin)
    schemas = os.path.abspath(args.schemas)
    counts = collections.Counter()
    for d in args.dirs:
        init = [args.terraform, "init", "-backend=false", "-input=false", "-no-color"]
        if os.path.exists(os.path.join(d, ".terraform", "modules", "modules.json")):
            init.append("-get=false")
        if args.plugin_dir:
            init.append("-plugin-dir=" + args.plugin_dir)
        if subprocess.run(init, cwd=d, capture_output=True).returncode != 0:
            counts["skipped"] += 1
            continue
        tf = run_json([args.terraform, "validate", "-json", "-no-color"], d)
        te = run_json([tfeval, "validate", "-json", "-schemas", schemas, "."], d)
        if tf is None or te is None:
            print("== %s: %s gave no JSON document" % (d, "terraform" if tf is None else "tfeval"))
            counts["differ"] += 1
            continue
        a, b = diagnostics(tf), diagnostics(te)
        if a == b:
            counts["same"] += 1
            continue
        counts["differ"] += 1
        print("== %s" % d)
        for side, only in (("terraform only", a - b), ("tfeval only", b - a)):
            for k in sorted(only.elements(), key=str):
                print("  %s: %s %s | %s @ %s:%s:%s" % ((side,) + k[:2] + (k[2].replace("\n", " ")[:200],) + k[3:]))
    print("validate-vs-terraform: %d same, %d differ, %d skipped" % (counts["same"], counts["differ"], counts["skipped"]))
    return 1 if counts["differ"] else 0


if __name__ == "__main__":
    sys.exit(main())
