#!/usr/bin/env python3
"""Compare `tfeval show -json -schemas` with `terraform show -json` of a real plan.

Where Terraform and a provider are installed, `terraform plan` is the truth
tfeval's plan document must give: every value tfeval gives as known must be
the value Terraform plans, and what tfeval leaves unknown that Terraform knows
is counted, by cause. The aws provider plans without calling AWS when told
not to (a provider block with fake keys and skip_* settings, which this
script writes: an override file when the root has `provider "aws"` blocks, a
file of its own when it has none); data sources other than the ones the
provider computes itself (aws_iam_policy_document, ...) still call AWS and
fail, and such a directory is counted as skipped.

For every root module directory given, the script runs

    terraform init -backend=false [-get=false] [-plugin-dir=DIR]
    terraform plan -refresh=false -input=false -out=PLAN
    terraform show -json PLAN
    tfeval show -json -schemas SCHEMAS -data=DATA .

where DATA is the result of every data source Terraform read while planning
(from its plan's prior_state), so that tfeval is given what Terraform had;
then tfeval once more without -data, to count what only the data sources
decided. It compares, per managed resource instance of planned_values (with
resource_changes' after_unknown) and per root output (output_changes):

- the set of instance addresses;
- per top-level attribute (argument or nested block type), walking down to
  the leaves: `exact` (both known and equal, or both unknown at the same
  places), `honest` (tfeval unknown where Terraform knows the value; by
  cause), `defect` (tfeval known where Terraform is unknown, or known and
  different; the provider's own normalisation of a value the configuration
  sets is told apart as `normalised`).

    terraform providers schema -json > schema.json   # in a directory using the provider
    python3 scripts/plan_against_terraform.py --bin ./tfeval \\
        --schemas schema.json --plugin-dir /opt/tf-plugins DIR...

It prints each difference that is not `exact`, then the counts. It writes
into the directories (.terraform, the lock file, the plan and the documents
as pd-terraform.json, pd-tfeval.json, pd-tfeval-nodata.json, pd-data.json; the
provider file only while a directory is compared): give it copies.
With --reuse a directory whose pd-terraform.json exists is not planned again.
The script needs the terraform binary and the provider; it is not run by CI.
"""

import argparse
import collections
import json
import os
import re
import subprocess
import sys

PROVIDER_SETTINGS = """  region                      = "us-east-1"
  access_key                  = "x"
  secret_key                  = "y"
  skip_credentials_validation = true
  skip_requesting_account_id  = true
  skip_metadata_api_check     = true
  skip_region_validation      = true
"""

PROVIDER_FILE = "zz_pd_provider.tf"
OVERRIDE_FILE = "zz_pd_override.tf"


def block_body(src, start):
    """The text between the brace at src[start] and its match (strings and comments skipped roughly)."""
    depth, i, n = 0, start, len(src)
    while i < n:
        c = src[i]
        if c == '"':
            i += 1
            while i < n and src[i] != '"':
                i += 2 if src[i] == "\\" else 1
        elif c == "#" or src.startswith("//", i):
            while i < n and src[i] != "\n":
                i += 1
        elif c == "{":
            depth += 1
        elif c == "}":
            depth -= 1
            if depth == 0:
                return src[start + 1:i]
        i += 1
    return src[start + 1:]


def aws_provider_aliases(d):
    """The aliases of the root's provider "aws" blocks ("" for the default one); None when it has none."""
    aliases = None
    for f in sorted(os.listdir(d)):
        if not f.endswith(".tf") or f.endswith("override.tf") or f in (PROVIDER_FILE, OVERRIDE_FILE):
            continue
        src = open(os.path.join(d, f), errors="replace").read()
        for m in re.finditer(r'^\s*provider\s+"?aws"?\s*\{', src, re.M):
            body = block_body(src, m.end() - 1)
            a = re.search(r'^\s*alias\s*=\s*"([^"]*)"', body, re.M)
            aliases = aliases or []
            aliases.append(a.group(1) if a else "")
    return aliases


def remove_provider(d):
    for f in (PROVIDER_FILE, OVERRIDE_FILE):
        if os.path.exists(os.path.join(d, f)):
            os.remove(os.path.join(d, f))


def write_provider(d):
    remove_provider(d)
    aliases = aws_provider_aliases(d)
    if aliases is None:
        with open(os.path.join(d, PROVIDER_FILE), "w") as f:
            f.write('provider "aws" {\n' + PROVIDER_SETTINGS + "}\n")
        return
    with open(os.path.join(d, OVERRIDE_FILE), "w") as f:
        for a in aliases:
            f.write('provider "aws" {\n' + ('  alias = "%s"\n' % a if a else "") + PROVIDER_SETTINGS + "}\n")


def run(cmd, cwd, timeout=900):
    try:
        return subprocess.run(cmd, cwd=cwd, capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return None


def first_error(text):
    for line in text.splitlines():
        line = line.strip("│╷╵ ")
        if line.startswith("Error: "):
            return line[7:][:100]
    return "failed"


def plan_terraform(args, d):
    """Runs terraform in d; returns (plan document, None) or (None, reason skipped)."""
    out = os.path.join(d, "pd-terraform.json")
    skip = os.path.join(d, "pd-skipped.txt")
    if args.reuse and os.path.exists(out):
        with open(out) as f:
            return json.load(f), None
    if args.reuse and os.path.exists(skip):
        with open(skip) as f:
            return None, f.read().strip()
    try:
        reason = plan_terraform_run(args, d, out)
    finally:
        remove_provider(d)
    if isinstance(reason, str):
        with open(skip, "w") as f:
            f.write(reason + "\n")
        return None, reason
    return reason, None


def plan_terraform_run(args, d, out):
    """Runs terraform in d: the plan document, or why it could not be made."""
    for f in ("pd-skipped.txt", out):
        if os.path.exists(os.path.join(d, f)):
            os.remove(os.path.join(d, f))
    write_provider(d)
    init = [args.terraform, "init", "-backend=false", "-input=false", "-no-color"]
    if os.path.exists(os.path.join(d, ".terraform", "modules", "modules.json")):
        init.append("-get=false")
    if args.plugin_dir:
        init.append("-plugin-dir=" + args.plugin_dir)
    p = run(init, d)
    if p is None or p.returncode != 0:
        return "init: " + (first_error(p.stderr + p.stdout) if p else "timeout")
    p = run([args.terraform, "plan", "-refresh=false", "-input=false", "-no-color", "-lock=false", "-out=pd.plan"], d)
    if p is None or p.returncode != 0:
        return "plan: " + (first_error(p.stderr + p.stdout) if p else "timeout")
    p = run([args.terraform, "show", "-json", "pd.plan"], d)
    if p is None or p.returncode != 0:
        return "show: failed"
    with open(out, "w") as f:
        f.write(p.stdout)
    return json.loads(p.stdout)


def walk_module(m, out):
    for r in m.get("resources", []):
        out[r["address"]] = r
    for c in m.get("child_modules", []):
        walk_module(c, out)


def data_results(plan):
    """Data source results Terraform read while planning, for -data."""
    res = {}
    walk_module((plan.get("prior_state") or {}).get("values", {}).get("root_module", {}), res)
    return {a: r.get("values") for a, r in res.items() if r.get("mode") == "data"}


def plan_tfeval(args, d, data):
    cmd = [args.bin, "show", "-json", "-schemas", args.schemas]
    name = "pd-tfeval-nodata.json"
    if data is not None:
        with open(os.path.join(d, "pd-data.json"), "w") as f:
            json.dump(data, f)
        cmd.append("-data=pd-data.json")
        name = "pd-tfeval.json"
    p = run(cmd + ["."], d, timeout=300)
    if p is None or p.returncode != 0:
        return None, (first_error(p.stderr) if p else "timeout")
    with open(os.path.join(d, name), "w") as f:
        f.write(p.stdout)
    return json.loads(p.stdout), None


def instances(plan):
    """Managed resource instances: address -> (type, after, after_unknown)."""
    out = {}
    for rc in plan.get("resource_changes", []):
        if rc.get("mode") != "managed":
            continue
        ch = rc.get("change", {})
        out[rc["address"]] = (rc["type"], ch.get("after"), ch.get("after_unknown"))
    return out


def outputs(plan):
    out = {}
    for name, ch in (plan.get("output_changes") or {}).items():
        out[name] = (ch.get("after"), ch.get("after_unknown"))
    return out


MISSING = object()


def leaves(tv, tu, ev, eu, path, out):
    """Appends (path, kind) for each place Terraform's (tv, tu) and tfeval's (ev, eu) differ or agree."""
    if tv is MISSING and tu is not True:
        tv = None
    if ev is MISSING and eu is not True:
        ev = None
    if tu is True:
        out.append((path, "exact" if eu is True else "known-where-unknown"))
        return
    if eu is True:
        out.append((path, "honest"))
        return
    if isinstance(tv, dict) and isinstance(ev, dict):
        tu = tu if isinstance(tu, dict) else {}
        eu = eu if isinstance(eu, dict) else {}
        for k in sorted(set(tv) | set(ev) | set(tu) | set(eu)):
            leaves(tv.get(k, MISSING), tu.get(k, False), ev.get(k, MISSING), eu.get(k, False), path + (k,), out)
        return
    if isinstance(tv, list) and isinstance(ev, list) and len(tv) == len(ev):
        tu = tu if isinstance(tu, list) else [False] * len(tv)
        eu = eu if isinstance(eu, list) else [False] * len(ev)
        for i in range(len(tv)):
            leaves(tv[i], tu[i] if i < len(tu) else False, ev[i], eu[i] if i < len(eu) else False, path + (i,), out)
        return
    out.append((path, "exact" if tv == ev else "differ"))


def json_equal(a, b):
    try:
        return isinstance(a, str) and isinstance(b, str) and json.loads(a) == json.loads(b)
    except ValueError:
        return False


def top_attr_kind(ls):
    kinds = set(k for _, k in ls)
    for k in ("known-where-unknown", "differ", "honest"):
        if k in kinds:
            return k
    return "exact"


def value_at(v, path):
    for p in path:
        if isinstance(v, dict) and isinstance(p, str) and p in v:
            v = v[p]
        elif isinstance(v, list) and isinstance(p, int) and p < len(v):
            v = v[p]
        else:
            return MISSING
    return v


class Schemas:
    def __init__(self, path):
        with open(path) as f:
            doc = json.load(f)
        self.res = {}
        for ps in doc.get("provider_schemas", {}).values():
            self.res.update(ps.get("resource_schemas", {}))

    def attr(self, rtype, name):
        b = self.res.get(rtype, {}).get("block", {})
        if name in b.get("attributes", {}):
            return b["attributes"][name]
        if name in b.get("block_types", {}):
            return {"block": True}
        return {}


def honest_cause(schemas, rtype, attr, tfv):
    """Why tfeval may not know what Terraform planned: the provider's code, not its schema, decides it."""
    if attr == "tags_all":
        return "tags_all: the provider merges its default_tags"
    a = schemas.attr(rtype, attr)
    empty = tfv is None or tfv == [] or tfv == {}
    if a.get("block"):
        return "block the plugin SDK may compute: Terraform %s" % ("empty" if empty else "has blocks")
    if a.get("computed") and not a.get("optional"):
        return "computed: the provider plans it"
    if a.get("computed"):
        return "optional and computed: the provider plans it"
    if not empty:
        return "optional: a plugin SDK default"
    return "optional: a plugin SDK default could be (Terraform null)"


def compare(schemas, d, tf, te, tenodata, counts, causes, details, verbose):
    ti, ei = instances(tf), instances(te)
    ni = instances(tenodata) if tenodata else ei
    only_tf = sorted(set(ti) - set(ei))
    only_te = sorted(set(ei) - set(ti))
    lines = []
    for a in only_tf:
        lines.append("  instance only in terraform: %s" % a)
    for a in only_te:
        lines.append("  instance only in tfeval: %s" % a)
    counts["instances"] += len(ti)
    counts["instances matched"] += len(set(ti) & set(ei))
    counts["instances only terraform"] += len(only_tf)
    counts["instances only tfeval"] += len(only_te)
    for addr in sorted(set(ti) & set(ei)):
        rtype, tv, tu = ti[addr]
        _, ev, eu = ei[addr]
        nv, nu = (ni[addr][1], ni[addr][2]) if addr in ni else (None, True)
        tv, ev, nv = tv or {}, ev or {}, nv or {}
        tu = tu if isinstance(tu, dict) else {}
        eu = eu if isinstance(eu, dict) else {}
        nu = nu if isinstance(nu, dict) else ({} if nu is not True else None)
        for k in sorted(set(tv) | set(tu) | set(ev) | set(eu)):
            ls = []
            leaves(tv.get(k, MISSING), tu.get(k, False), ev.get(k, MISSING), eu.get(k, False), (k,), ls)
            kind = top_attr_kind(ls)
            counts["attributes"] += 1
            if kind == "exact":
                counts["exact"] += 1
                if tenodata:
                    nls = []
                    leaves(tv.get(k, MISSING), tu.get(k, False), nv.get(k, MISSING), True if nu is None else nu.get(k, False), (k,), nls)
                    if top_attr_kind(nls) == "honest":
                        counts["exact only with data"] += 1
                continue
            if kind == "honest":
                cause = honest_cause(schemas, rtype, k, tv.get(k))
                counts["honest"] += 1
                causes["honest: " + cause] += 1
                details["honest: " + cause][rtype + "." + k] += 1
                if verbose:
                    lines.append("  honest (%s): %s.%s = %s" % (cause, addr, k, json.dumps(tv.get(k))[:160]))
                continue
            bad = [(p, kk) for p, kk in ls if kk in ("differ", "known-where-unknown")]
            norm = all(kk == "differ" and json_equal(value_at(tv, p), value_at(ev, p)) for p, kk in bad)
            if norm:
                counts["normalised"] += 1
                causes["normalised: JSON text"] += 1
                lines.append("  normalised: %s.%s" % (addr, k))
                continue
            counts["defect"] += 1
            causes["defect: " + kind] += 1
            details["defect: " + kind][rtype + "." + k] += 1
            for p, kk in bad[:3]:
                lines.append("  DEFECT %s %s%s: terraform %s, tfeval %s" % (
                    kk, addr, "".join("[%s]" % json.dumps(x) if isinstance(x, int) or not re.match(r"^[A-Za-z_][\w-]*$", x) else "." + x for x in p),
                    "unknown" if kk == "known-where-unknown" else json.dumps(value_at(tv, p))[:200],
                    json.dumps(value_at(ev, p))[:200]))
    to, eo = outputs(tf), outputs(te)
    no = outputs(tenodata) if tenodata else eo
    for name in sorted(set(to) | set(eo)):
        counts["outputs"] += 1
        if name not in to or name not in eo:
            counts["output defect"] += 1
            lines.append("  DEFECT output %s only in %s" % (name, "terraform" if name in to else "tfeval"))
            continue
        ls = []
        leaves(to[name][0], to[name][1], eo[name][0], eo[name][1], ("output." + name,), ls)
        kind = top_attr_kind(ls)
        if kind == "exact":
            counts["output exact"] += 1
            if tenodata and name in no:
                nls = []
                leaves(to[name][0], to[name][1], no[name][0], no[name][1], ("output." + name,), nls)
                if top_attr_kind(nls) == "honest":
                    counts["output exact only with data"] += 1
        elif kind == "honest":
            counts["output honest"] += 1
            if verbose:
                lines.append("  honest output %s" % name)
        else:
            bad = [(p, kk) for p, kk in ls if kk in ("differ", "known-where-unknown")]
            if all(kk == "differ" and json_equal(value_at(to[name][0], p[1:]), value_at(eo[name][0], p[1:])) for p, kk in bad):
                counts["output normalised"] += 1
                causes["output normalised: JSON text"] += 1
                lines.append("  normalised: output %s" % name)
                continue
            counts["output defect"] += 1
            for p, kk in bad[:3]:
                lines.append("  DEFECT output %s %s: terraform %s, tfeval %s" % (kk, ".".join(str(x) for x in p),
                             "unknown" if kk == "known-where-unknown" else json.dumps(value_at(to[name][0], p[1:]))[:200],
                             json.dumps(value_at(eo[name][0], p[1:]))[:200]))
    if lines:
        print("== %s" % d)
        print("\n".join(lines))


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--bin", required=True, help="the tfeval binary")
    ap.add_argument("--terraform", default="terraform")
    ap.add_argument("--schemas", required=True, help="terraform providers schema -json output")
    ap.add_argument("--plugin-dir", help="terraform init -plugin-dir")
    ap.add_argument("--reuse", action="store_true", help="use pd-terraform.json (or pd-skipped.txt) where a directory has one")
    ap.add_argument("--verbose", action="store_true", help="print every honest unknown too")
    ap.add_argument("dirs", nargs="+")
    args = ap.parse_args()
    args.bin = os.path.abspath(args.bin)
    args.schemas = os.path.abspath(args.schemas)
    schemas = Schemas(args.schemas)
    counts, causes, skipped = collections.Counter(), collections.Counter(), collections.Counter()
    details = collections.defaultdict(collections.Counter)
    for d in args.dirs:
        tf, why = plan_terraform(args, d)
        if tf is None:
            skipped[why] += 1
            counts["skipped"] += 1
            continue
        # A directory may be another's module: its provider file is there
        # only while it is compared.
        write_provider(d)
        try:
            data = data_results(tf)
            te, why = plan_tfeval(args, d, data)
            tenodata = plan_tfeval(args, d, None)[0] if data and te is not None else None
        finally:
            remove_provider(d)
        if te is None:
            print("== %s\n  DEFECT tfeval has no plan: %s" % (d, why))
            counts["tfeval failed"] += 1
            continue
        counts["directories"] += 1
        compare(schemas, d, tf, te, tenodata, counts, causes, details, args.verbose)
    print()
    for why, n in skipped.most_common():
        print("skipped %4d  %s" % (n, why))
    for c, n in sorted(causes.items()):
        print("%-60s %6d" % (c, n))
    for c in sorted(details):
        print("%s: %s" % (c, ", ".join("%s %d" % kv for kv in details[c].most_common(12))))
    print("plan-vs-terraform: %d directories (%d skipped, %d tfeval failed); instances %d (%d matched, %d only terraform, %d only tfeval); "
          "attributes %d: %d exact (%d of them only with -data), %d honest unknown, %d normalised, %d defects; "
          "outputs %d: %d exact (%d only with -data), %d honest, %d normalised, %d defects" % (
              counts["directories"], counts["skipped"], counts["tfeval failed"], counts["instances"], counts["instances matched"],
              counts["instances only terraform"], counts["instances only tfeval"], counts["attributes"], counts["exact"],
              counts["exact only with data"], counts["honest"], counts["normalised"], counts["defect"], counts["outputs"], counts["output exact"],
              counts["output exact only with data"], counts["output honest"], counts["output normalised"], counts["output defect"]))
    return 1 if counts["defect"] or counts["output defect"] or counts["tfeval failed"] else 0


if __name__ == "__main__":
    sys.exit(main())
