#!/usr/bin/env python3
"""Observe what the aws provider plans for the arguments a configuration leaves unset.

For every resource type of the older plugin SDK (an optional and computed
`id`) in a schema document (`terraform providers schema -json`), the script
writes resources that set only the required arguments (and the blocks a type
requires), plans them with Terraform and the provider told not to call AWS
(fake keys, skip_* settings; nothing is refreshed), and records, per unset
optional attribute and per nested block type not written, what the plan gave:
a known value (null, a default, an empty collection) or unknown. It plans
each type several times: alone ("base"); with other required values
("vary": other strings and numbers); and once per nested block type, down to
--depth levels, with the block written with its required arguments only
("block"), which gives the attributes of the block and a second
configuration of the type's own. A validation error that names the values a
required argument may take is answered by planning again with the first of
them; a resource that still fails is left out (and listed).

    python3 scripts/probe_aws_defaults.py --schemas schema.json \\
        --plugin-dir /opt/tf-plugins --work /tmp/probe --out observations.json

The observations (one record per resource planned: the type, the path of
the block it was about, the probe, and each unset attribute's planned value)
are what internal/defaultsgen turns into lang/defaults_aws.go. The script
needs terraform and the provider; it is not run by CI.
"""

import argparse
import json
import os
import re
import subprocess
import sys

PROVIDER = """provider "aws" {
  region                      = "us-east-1"
  access_key                  = "x"
  secret_key                  = "y"
  skip_credentials_validation = true
  skip_requesting_account_id  = true
  skip_metadata_api_check     = true
  skip_region_validation      = true
}
"""

UNKNOWN = {"unknown": True}


def legacy(block):
    a = block.get("attributes", {}).get("id", {})
    return a.get("optional") and a.get("computed") and a.get("type") == "string"


def string_for(name, vary):
    n = name.lower()
    if "arn" in n.split("_") or n.endswith("arn") or n.endswith("arns"):
        return "arn:aws:iam::123456789012:role/%s" % ("y" if vary else "x")
    if "ipv6" in n and "cidr" in n:
        return "2001:db8::/56"
    if "cidr" in n:
        return "10.1.0.0/16" if vary else "10.0.0.0/16"
    if "policy" in n or "document" in n:
        return '{"Version":"2012-10-17","Statement":[]}'
    if "email" in n:
        return "a@example.com"
    if n.endswith("url") or "endpoint" in n:
        return "https://example.com"
    if "json" in n or "definition" in n:
        return "{}"
    return "probe2" if vary else "probe1"


def value_for(name, ty, vary, fixes):
    """HCL text of a value of type ty for a required attribute."""
    if name in fixes:
        return fixes[name]
    if ty == "string":
        return json.dumps(string_for(name, vary))
    if ty == "number":
        return "2" if vary else "1"
    if ty == "bool":
        return "false" if vary else "true"
    if isinstance(ty, list):
        if ty[0] in ("list", "set"):
            return "[%s]" % value_for(name, ty[1], vary, {})
        if ty[0] == "map":
            return "{ k = %s }" % value_for(name, ty[1], vary, {})
        if ty[0] == "object":
            return "{ %s }" % ", ".join("%s = %s" % (k, value_for(k, t, vary, {})) for k, t in sorted(ty[1].items()))
    return "null"


class Writer:
    def __init__(self):
        self.lines = []
        self.where = {}  # line number -> (resource address, attribute path)

    def add(self, text, addr=None, path=None):
        self.lines.append(text)
        if addr:
            self.where[len(self.lines)] = (addr, path)


def write_block(w, block, indent, vary, fixes, prefix, addr, chain, depth_left):
    """Writes the required arguments and required blocks of block; chain
    names the optional nested blocks to write too (their path)."""
    for name, a in sorted(block.get("attributes", {}).items()):
        key = prefix + name
        if a.get("required") or key in fixes:
            if "nested_type" in a:
                w.add(indent + "%s = null" % name, addr, key)
                continue
            w.add(indent + "%s = %s" % (name, value_for(name, a.get("type"), vary, {name: fixes[key]} if key in fixes else {})), addr, key)
    for name, bt in sorted(block.get("block_types", {}).items()):
        key = prefix + name
        need = bt.get("min_items", 0) > 0 or (chain and chain[0] == name)
        if not need:
            continue
        n = max(1, bt.get("min_items", 0))
        for _ in range(n):
            w.add(indent + name + " {", addr, key)
            write_block(w, bt["block"], indent + "  ", vary, fixes, key + ".", addr,
                        chain[1:] if chain and chain[0] == name else [], depth_left - 1)
            w.add(indent + "}")


def block_paths(block, depth, prefix=()):
    for name, bt in sorted(block.get("block_types", {}).items()):
        if bt.get("nesting_mode") not in ("list", "set"):
            continue
        yield prefix + (name,)
        if depth > 1:
            yield from block_paths(bt["block"], depth - 1, prefix + (name,))


def run(cmd, cwd):
    return subprocess.run(cmd, cwd=cwd, capture_output=True, text=True)


ENUM = re.compile(r'one of \[([^\]]*)\]')
RANGE = re.compile(r'in the range \((-?\d+) - (-?\d+)\)')
AT_LEAST = re.compile(r'at least (\d+)')


def diagnostics(text, where):
    """(address, attribute path or None, message) of each error of plan's output."""
    out = []
    for chunk in re.split(r"\n(?=Error: )", text):
        if not chunk.startswith("Error: "):
            continue
        msg = chunk.split("\n", 1)[0][7:]
        m = re.search(r"with ([\w.\[\]\"-]+),\n\s+on main\.tf line (\d+)", chunk)
        if m:
            addr, line = m.group(1), int(m.group(2))
        else:
            m = re.search(r'on main\.tf line (\d+), in resource "([\w-]+)" "(\w+)"', chunk)
            if not m:
                out.append((None, None, msg))
                continue
            addr, line = m.group(2) + "." + m.group(3), int(m.group(1))
        path = where.get(line, (None, None))[1] if where.get(line, (None,))[0] == addr else None
        out.append((addr, path, msg + " " + chunk[:1500]))
    return out


def crash_types(text, types):
    """The types whose code the stack of a provider crash names (its
    function resourceNAME, NAME the type's name without underscores)."""
    if "plugin crashed" not in text:
        return set()
    out = set()
    for fn in re.findall(r"internal/service/\w+\.(resource\w+)", text):
        name = re.split(r"\.|func", fn[len("resource"):])[0].lower()
        for t in types:
            if t.replace("_", "").endswith(name):
                out.add(t)
    return out


def fix_for(msg, path, schema_attr):
    """A value answering a validation error, or None."""
    m = ENUM.search(msg)
    if m:
        opts = re.findall(r'"((?:[^"\\]|\\.)*)"', m.group(1)) or m.group(1).split()
        if opts:
            ty = schema_attr.get("type") if schema_attr else None
            if isinstance(ty, list) and ty[0] in ("map", "object"):
                return None
            if isinstance(ty, list):
                return "[%s]" % json.dumps(opts[0])
            return json.dumps(opts[0])
    m = RANGE.search(msg)
    if m and schema_attr and schema_attr.get("type") == "number":
        return str(max(int(m.group(1)), 1))
    return None


MISSING_ONE = re.compile(r'"([\w.]+)": one of\s+`([^`]*)`\s+must be specified')
INVALID_ARN = re.compile(r'"([\w.]+)" \([^)]*\) is an invalid ARN')
EXPECTED = re.compile(r'expected ([\w.]+) to be')

# Values some types need that no validation message names (a CustomizeDiff
# that rejects the default of another argument).
MANUAL = {
    "aws_dynamodb_table": {"billing_mode": '"PAY_PER_REQUEST"', "hash_key": '"probe1"',
                           "global_secondary_index.projection_type": '"ALL"'},
    "aws_ecs_task_definition": {"container_definitions": '"[]"'},
}

# Blocks some types need written for their other blocks to plan (an index
# must name a declared attribute).
EXTRA = {
    "aws_dynamodb_table": ("attribute", 'attribute {\n    name = "probe1"\n    type = "S"\n  }'),
}


def fixes_for(msg, path, written, block):
    """(attribute path, HCL value) pairs answering a validation error."""
    out = []
    m = MISSING_ONE.search(msg)
    if m:
        first = re.sub(r"\.\d+\.", ".", m.group(2).split(",")[0].strip())
        sa = attr_at(block, first)
        if sa and not sa.get("computed") or sa and sa.get("optional"):
            out.append((first, value_for(first.split(".")[-1], sa.get("type"), False, {})))
        return out
    m = INVALID_ARN.search(msg)
    if m:
        name = m.group(1).split(".")[-1]
        cands = [k for k in written if k.split(".")[-1] == name]
        if len(cands) == 1:
            return [(cands[0], json.dumps("arn:aws:iam::123456789012:role/probe"))]
        return out
    m = EXPECTED.search(msg)
    if m and not path:
        name = m.group(1).split(".")[-1]
        cands = [k for k in written if k.split(".")[-1] == name]
        if len(cands) == 1:
            path = cands[0]
    sa = attr_at(block, path) if path else None
    fx = fix_for(msg, path, sa) if sa else None
    if fx:
        out.append((path, fx))
    return out


def attr_at(block, path):
    parts = path.split(".")
    for p in parts[:-1]:
        block = block.get("block_types", {}).get(p, {}).get("block", {})
    return block.get("attributes", {}).get(parts[-1])


def observe(after, unknown, block, written, prefix, out):
    """Records the planned value of each attribute of block not written."""
    for name, a in block.get("attributes", {}).items():
        key = prefix + name
        if key in written or a.get("required"):
            continue
        u = unknown.get(name) if isinstance(unknown, dict) else None
        if u is True:
            out[key] = UNKNOWN
        elif u:
            out[key] = {"partial": after.get(name)}
        else:
            out[key] = {"value": after.get(name)}
    for name, bt in block.get("block_types", {}).items():
        key = prefix + name
        if key in written:
            continue
        u = unknown.get(name) if isinstance(unknown, dict) else None
        if u is True:
            out[key] = UNKNOWN
        elif u and u != [] and u != [{}] * len(u):
            out[key] = {"partial": after.get(name)}
        else:
            out[key] = {"value": after.get(name)}


def record(plan_after, plan_unknown, block, chain, written):
    """Observations of one resource: the root's attributes and those of each block of the chain."""
    out = {}
    observe(plan_after, plan_unknown, block, written, "", out)
    after, unknown, prefix = plan_after, plan_unknown, ""
    for name in chain:
        bt = block["block_types"][name]
        block = bt["block"]
        after = (after or {}).get(name)
        unknown = (unknown or {}).get(name) if isinstance(unknown, dict) else None
        if not isinstance(after, list) or len(after) != 1:
            break
        after = after[0]
        unknown = unknown[0] if isinstance(unknown, list) and unknown else {}
        prefix += name + "."
        observe(after, unknown, block, written, prefix, out)
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--schemas", required=True)
    ap.add_argument("--plugin-dir", required=True)
    ap.add_argument("--terraform", default="terraform")
    ap.add_argument("--work", required=True, help="a scratch directory")
    ap.add_argument("--out", required=True)
    ap.add_argument("--depth", type=int, default=1, help="nested block levels probed")
    ap.add_argument("--batch", type=int, default=700)
    ap.add_argument("--only", help="comma-separated resource types")
    ap.add_argument("--shard", default="0/1", help="I/N: probe the I-th of N shares of the types")
    args = ap.parse_args()
    doc = json.load(open(args.schemas))
    rs = doc["provider_schemas"]["registry.terraform.io/hashicorp/aws"]["resource_schemas"]
    types = sorted(t for t, s in rs.items() if legacy(s["block"]))
    if args.only:
        types = [t for t in types if t in args.only.split(",")]
    i, n = map(int, args.shard.split("/"))
    types = types[i::n]
    jobs = []  # (type, chain, probe)
    for t in types:
        jobs.append((t, (), "base"))
        jobs.append((t, (), "vary"))
        for p in block_paths(rs[t]["block"], args.depth):
            jobs.append((t, p, "block"))
    os.makedirs(args.work, exist_ok=True)
    with open(os.path.join(args.work, "provider.tf"), "w") as f:
        f.write(PROVIDER)
    p = run([args.terraform, "init", "-backend=false", "-input=false", "-no-color", "-plugin-dir=" + args.plugin_dir], args.work)
    if p.returncode:
        sys.exit(p.stderr)
    fixes = {t: dict(v) for t, v in MANUAL.items()}  # type -> {attribute path: HCL value}
    tried = {}
    records, failed = [], {}
    for start in range(0, len(jobs), args.batch):
        batch = jobs[start:start + args.batch]
        dropped = set()
        for attempt in range(8):
            w = Writer()
            names = {}
            for i, (t, chain, probe) in enumerate(batch):
                if i in dropped:
                    continue
                addr = "%s.r%d" % (t, start + i)
                names[addr] = i
                w.add('resource "%s" "r%d" {' % (t, start + i))
                write_block(w, rs[t]["block"], "  ", probe == "vary", fixes.get(t, {}), "", addr, list(chain), args.depth + 1)
                if t in EXTRA and chain[:1] != (EXTRA[t][0],):
                    w.add("  " + EXTRA[t][1], addr, EXTRA[t][0])
                w.add("}")
            with open(os.path.join(args.work, "main.tf"), "w") as f:
                f.write("\n".join(w.lines) + "\n")
            if os.path.exists(os.path.join(args.work, "p.plan")):
                os.remove(os.path.join(args.work, "p.plan"))
            p = run([args.terraform, "plan", "-refresh=false", "-input=false", "-no-color", "-lock=false", "-out=p.plan"], args.work)
            with open(os.path.join(args.work, "plan-%d-%d.log" % (start, attempt)), "w") as f:
                f.write(p.stdout + p.stderr)
            diags = diagnostics(p.stdout + p.stderr, w.where)
            planned = os.path.exists(os.path.join(args.work, "p.plan"))
            fixed = False
            blamed = False
            this_round = set()
            for addr, path, msg in diags:
                if addr not in names:
                    continue
                blamed = True
                t = addr.split(".")[0]
                written = [k for a, k in w.where.values() if a == addr]
                answered = False
                for path, fx in fixes_for(msg, path, written, rs[t]["block"]):
                    if (t, path) in this_round:
                        answered = True
                    elif fixes.get(t, {}).get(path) != fx and path not in tried.setdefault(t, set()):
                        tried[t].add(path)
                        this_round.add((t, path))
                        fixes.setdefault(t, {})[path] = fx
                        fixed = answered = True
                if not answered and not planned and names[addr] not in dropped:
                    # Its error will not go away: plan the others.
                    dropped.add(names[addr])
                    failed[addr] = msg[:300]
            crashed = crash_types(p.stdout + p.stderr, set(addr.split(".")[0] for addr in names))
            if crashed:
                # The provider crashed planning one of them, and cancelled
                # every other request: leave the type out, plan again.
                for addr, i in names.items():
                    if addr.split(".")[0] in crashed:
                        dropped.add(i)
                        failed[addr] = "the provider crashed"
                planned, fixed = False, True
            print("batch %d attempt %d: %d errors, planned %s, fixed %s, crashed %s" % (start, attempt, len(diags), planned, fixed, sorted(crashed)), file=sys.stderr, flush=True)
            if planned and not fixed:
                break
            if not planned and not blamed:
                print("plan failed without a resource to blame:\n" + (p.stdout + p.stderr)[-3000:], file=sys.stderr)
                break
        else:
            planned = planned and not fixed
        if not planned:
            print("batch %d: left out, it does not plan" % start, file=sys.stderr)
            continue
        for addr, path, msg in diags:
            if addr in names and addr not in failed:
                failed[addr] = msg[:300]
        show = run([args.terraform, "show", "-json", "p.plan"], args.work)
        plan = json.loads(show.stdout)
        for rc in plan.get("resource_changes", []):
            i = names.get(rc["address"])
            if i is None or rc["address"] in failed:
                continue
            t, chain, probe = batch[i]
            written = set(k for a, k in w.where.values() if a == rc["address"])
            obs = record(rc["change"].get("after") or {}, rc["change"].get("after_unknown") or {}, rs[t]["block"], chain, written)
            records.append({"type": t, "block": ".".join(chain), "probe": probe, "values": obs})
        print("batch %d: %d planned, %d failed so far" % (start, len(records), len(failed)), file=sys.stderr)
        # What is planned so far, in case a later batch does not end.
        with open(args.out, "w") as f:
            json.dump({"provider": "hashicorp/aws", "records": records, "failed": failed}, f, indent=0, sort_keys=True)


if __name__ == "__main__":
    main()
