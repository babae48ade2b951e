#!/usr/bin/env python3
"""Compare `tfeval test -json` with `terraform test -json` on published test files.

Where Terraform and the aws provider are installed (offline: `terraform init
-plugin-dir=DIR`), `terraform test` is the truth for every test file whose
providers are all mocked (or that needs none): tfeval must give its status for
every run and its diagnostics, with the provider's schema (-schemas); without
the schema, Terraform's status or an honest skip, never another verdict.

    python3 scripts/test_against_terraform.py --bin ./tfeval \\
        --schemas aws-schema.json --plugin-dir /opt/tf-plugins \\
        --repos ~/realworld --list ../shared/realworld/tftest-repos.txt [--work DIR] [-v] [--json OUT] \\
        [--aws-unmocked] [--timeout SECONDS]

With --aws-unmocked, the files whose only unmocked provider is aws run too:
Terraform's aws provider gets fake static credentials and a local endpoint
(AWS_ENDPOINT_URL) that answers STS GetCallerIdentity and denies every other
call, so its plans of resources run offline; a run that reads a data source
or applies errors in Terraform ("operation error ...") and must be a skip in
tfeval, never a pass or failure of its own.

The repositories are found and prepared as ../shared/realworld/run_tests.py
does (its classification picks the "offline" test files; its module tree
walk writes .terraform/modules/modules.json, registry and GitHub sources
resolved in REPOS_DIR), in a scratch copy of REPOS_DIR (--work; nothing is
written into REPOS_DIR) whose `aws` version constraints are relaxed to
accept the installed provider. Each (module root, test directory) group is
run as run_tests.py runs it; a group whose `terraform init -get=false` fails
(a provider that is not installed, a registry module without a recorded
version, a newer Terraform required) is skipped and counted by cause.

For every run block it compares Terraform's status with tfeval's, without
and with the schema, and the error summaries (as multisets: Terraform's
order is its graph walk's). It prints every difference and a summary line
`test-vs-terraform: N runs; offline: A same, K honest skips, D differ;
with schema: A same, D differ (S of them summaries only)`.
"""

import argparse
import collections
import json
import os
import re
import shutil
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
TIMEOUT = 300


MODULE_HEAD = re.compile(r'\bmodule\s+"[^"]*"\s*\{')
MODULE_VERSION = re.compile(r'(^[ \t]*version\s*=\s*)"[^"]*"', re.M)


def relax_module_versions(text):
    """Give every module call's `version` the constraint ">= 0.0.0" (the manifest records 0.0.0)."""
    out, pos = [], 0
    for m in MODULE_HEAD.finditer(text):
        if m.start() < pos:
            continue
        depth, i, in_str = 1, m.end(), False
        while i < len(text) and depth:
            c = text[i]
            if in_str:
                if c == "\\":
                    i += 1
                elif c == '"':
                    in_str = False
            elif c == '"':
                in_str = True
            elif c == "{":
                depth += 1
            elif c == "}":
                depth -= 1
            i += 1
        out.append(text[pos:m.end()])
        out.append(MODULE_VERSION.sub(r'\1">= 0.0.0"', text[m.end():i]))
        pos = i
    out.append(text[pos:])
    return "".join(out)


def _version(text):
    parts = [int(x) for x in re.findall(r"\d+", text)[:3]]
    return tuple(parts + [0] * (3 - len(parts))), len(parts)


def admits(constraint, version=(5, 100, 0)):
    """Whether a provider version constraint ("~> 5.0, != 5.3.1") admits version."""
    for part in constraint.split(","):
        m = re.match(r"\s*(~>|>=|<=|!=|>|<|=)?\s*v?([\d.]+)", part)
        if not m:
            continue
        op, (v, n) = m.group(1) or "=", _version(m.group(2))
        if op == "~>":
            upper = (v[0] + 1, 0, 0) if n <= 2 else (v[0], v[1] + 1, 0)
            ok = v <= version < upper
        else:
            ok = {"=": version == v, "!=": version != v, ">=": version >= v, ">": version > v,
                  "<=": version <= v, "<": version < v}[op]
        if not ok:
            return False
    return True


NEWER_AWS = set()  # directories of the mirror whose aws constraint excludes the installed provider
AWS_V6 = set()  # directories whose aws constraint admits v6, which init would install (and tfeval's 6.x table)


def relax_aws_constraints(tree):
    """Rewrite every `aws = { ... version = "C" }` entry of required_providers to accept any version,
    and every module call's version constraint to accept the unversioned exported tree."""
    entry = re.compile(r'(\baws\s*=\s*\{[^{}]*?\bversion\s*=\s*)"([^"]*)"', re.S)
    n = 0
    for d, dirs, files in os.walk(tree):
        dirs[:] = [x for x in dirs if x != ".terraform"]
        for f in files:
            if not f.endswith((".tf", ".tofu")):
                continue
            p = os.path.join(d, f)
            if os.path.islink(p):
                continue
            try:
                text = open(p, encoding="utf-8").read()
            except (OSError, UnicodeDecodeError):
                continue
            for m in entry.finditer(text):
                if not admits(m.group(2)):
                    NEWER_AWS.add(os.path.normpath(d))
                elif admits(m.group(2), (6, 47, 0)):
                    AWS_V6.add(os.path.normpath(d))
            new, k = entry.subn(r'\1">= 0.0.0"', text)
            if "module" in new:
                new = relax_module_versions(new)
                k += new != text
            if k:
                n += k
                with open(p, "w", encoding="utf-8") as fh:
                    fh.write(new)
    return n


STS_IDENTITY = (b'<GetCallerIdentityResponse xmlns="https://sts.amazonaws.com/doc/2011-06-15/"><GetCallerIdentityResult>'
                b'<Arn>arn:aws:iam::123456789012:user/offline</Arn><UserId>AIDAOFFLINE</UserId><Account>123456789012</Account>'
                b'</GetCallerIdentityResult><ResponseMetadata><RequestId>0</RequestId></ResponseMetadata></GetCallerIdentityResponse>')
DENIED = b'<ErrorResponse><Error><Type>Sender</Type><Code>AccessDenied</Code><Message>offline</Message></Error></ErrorResponse>'


def fake_aws_endpoint():
    """A local endpoint for every AWS service: STS GetCallerIdentity answers (so an unmocked aws provider
    configures with fake static credentials), every other call is denied at once. Returns its URL."""
    import http.server
    import threading
    import urllib.parse

    class Handler(http.server.BaseHTTPRequestHandler):
        def log_message(self, *a):
            pass

        def answer(self):
            n = int(self.headers.get("Content-Length") or 0)
            body = self.rfile.read(n).decode("utf-8", "replace") if n else ""
            q = urllib.parse.parse_qs(body + "&" + urllib.parse.urlparse(self.path).query)
            code, out = (200, STS_IDENTITY) if q.get("Action", [""])[0] == "GetCallerIdentity" else (403, DENIED)
            self.send_response(code)
            self.send_header("Content-Type", "text/xml")
            self.send_header("Content-Length", str(len(out)))
            self.end_headers()
            self.wfile.write(out)
        do_GET = do_POST = do_PUT = do_DELETE = do_HEAD = answer

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return "http://127.0.0.1:%d" % server.server_address[1]


def run(cmd, cwd, env):
    """Run cmd in its own process group; on timeout the whole group (terraform's provider plugins too) is killed."""
    proc = subprocess.Popen(cmd, cwd=cwd, env=env, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, start_new_session=True)
    try:
        out, err = proc.communicate(timeout=TIMEOUT)
    except subprocess.TimeoutExpired:
        try:
            os.killpg(proc.pid, 9)
        except OSError:
            proc.kill()
        proc.communicate()
        return None, "timeout"
    return subprocess.CompletedProcess(cmd, proc.returncode, out, err), None


def read_stream(rt, stdout):
    events = []
    for line in stdout.splitlines():
        try:
            ev = json.loads(line)
        except ValueError:
            continue
        if isinstance(ev, dict):
            events.append(ev)
    statuses, files, _ = rt.read_events(events)[:3]
    diags, codes = collections.defaultdict(collections.Counter), collections.defaultdict(list)
    places = collections.defaultdict(collections.Counter)
    for ev in events:
        if ev.get("type") == "diagnostic":
            d = ev.get("diagnostic") or {}
            key = (ev.get("@testfile"), ev.get("@testrun"))
            diags[key][(d.get("severity"), d.get("summary", ""))] += 1
            at = d.get("range") or {}
            places[key][(d.get("severity"), d.get("summary", ""), at.get("filename"),
                         "%s,%s-%s,%s" % ((at.get("start") or {}).get("line"), (at.get("start") or {}).get("column"),
                                          (at.get("end") or {}).get("line"), (at.get("end") or {}).get("column")))] += 1
            if d.get("severity") == "error":
                rng = d.get("range") or {}
                codes[key].append((d.get("summary", ""), (d.get("snippet") or {}).get("code") or "", rng.get("filename"),
                                   (rng.get("start") or {}).get("line"), (rng.get("end") or {}).get("line")))
    return statuses, files, diags, codes, places


def context(root, diag):
    """The source lines around an error diagnostic's range (its snippet when the file cannot be read)."""
    summary, code, filename, first, last = diag
    if summary.startswith("Unsupported "):
        return ""  # an argument or attribute the provider's schema lacks: no operator involved
    if not (filename and first):
        return code
    try:
        lines = open(os.path.join(root, filename), encoding="utf-8", errors="replace").read().splitlines()
    except OSError:
        return code
    return "\n".join(lines[max(first - 4, 0):(last or first) + 1])


def init_failure_cause(text):
    for pat, cause in ((r"Failed to query available provider packages|Failed to install provider|provider registry", "provider not installed"),
                       (r"Module not installed|Module version requirements have changed|module version|Module source has changed", "module not installable"),
                       (r"Unsupported Terraform Core version", "newer Terraform required")):
        if re.search(pat, text, re.I):
            return cause
    errs = [e.strip() for e in re.findall(r"Error: ([^\n]+)", text) if not e.startswith("Terraform encountered problems")]
    if "Unsupported block type" in errs and re.search(r'\.tftest\.hcl line \d+:\s*\n\s*\d+: (test|state_key)', text):
        return "test file needs a newer Terraform (test block)"
    return "init: " + (errs[0] if errs else "failed")


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--bin", required=True, help="the tfeval binary")
    ap.add_argument("--terraform", default="terraform")
    ap.add_argument("--schemas", required=True, help="terraform providers schema -json output")
    ap.add_argument("--plugin-dir", help="terraform init -plugin-dir")
    ap.add_argument("--repos", required=True, help="REPOS_DIR: exported trees at REPOS_DIR/OWNER/NAME")
    ap.add_argument("--list", action="append", default=[], metavar="FILE")
    ap.add_argument("--only", nargs="+", action="extend", default=[], metavar="OWNER/NAME")
    ap.add_argument("--harness", default=os.path.join(HERE, "..", "..", "shared", "realworld"),
                    help="the directory of run_tests.py and run.py (default ../shared/realworld)")
    ap.add_argument("--work", help="scratch directory for the copy of REPOS_DIR (default: a new temporary one)")
    ap.add_argument("--json", help="write every run's statuses and diagnostics")
    ap.add_argument("-v", action="store_true", help="also print the warnings that differ, and the diagnostics "
                    "placed elsewhere where statuses and summaries agree")
    ap.add_argument("--timeout", type=int, default=TIMEOUT, help="seconds for each command (default %d)" % TIMEOUT)
    ap.add_argument("--aws-unmocked", action="store_true",
                    help="also the test files whose only unmocked provider is aws: terraform's aws provider gets fake "
                         "credentials and a local endpoint that answers STS GetCallerIdentity and denies the rest, so "
                         "its plans run offline; a run that needs AWS errors in terraform and must be skipped by tfeval")
    args = ap.parse_args()
    globals()["TIMEOUT"] = args.timeout
    sys.path.insert(0, os.path.abspath(args.harness))
    import run_tests as rt  # noqa: E402
    import run as rw  # noqa: E402

    tfeval, schemas = os.path.abspath(args.bin), os.path.abspath(args.schemas)
    repos = list(args.only)
    for f in args.list:
        repos += rt.read_list(f)
    repos = [r for r in dict.fromkeys(repos) if os.path.isdir(os.path.join(args.repos, r))]
    work = args.work or __import__("tempfile").mkdtemp(prefix="tftest-oracle-")
    mirror = os.path.join(work, "repos")
    if os.path.exists(mirror):
        shutil.rmtree(mirror)
    shutil.copytree(args.repos, mirror, symlinks=True)
    relax_aws_constraints(mirror)
    idx = {r.lower(): os.path.join(mirror, r) for r in rw.list_repos(mirror)}
    env = rt.clean_env()
    env["TF_IN_AUTOMATION"] = "1"
    env.setdefault("CHECKPOINT_DISABLE", "1")
    if args.aws_unmocked:
        env.update(AWS_ACCESS_KEY_ID="AKIAOFFLINE", AWS_SECRET_ACCESS_KEY="offline", AWS_REGION="us-east-1",
                   AWS_ENDPOINT_URL=fake_aws_endpoint(), AWS_EC2_METADATA_DISABLED="true", AWS_MAX_ATTEMPTS="1")
        for k in ("AWS_PROFILE", "AWS_CONFIG_FILE", "AWS_SHARED_CREDENTIALS_FILE", "AWS_SESSION_TOKEN"):
            env.pop(k, None)

    counts, causes, records, causes_diff = collections.Counter(), collections.Counter(), [], collections.Counter()
    for repo in repos:
        copy = os.path.join(mirror, repo)
        infos = [i for i in rt.classify_repo(repo, mirror, idx) if i["root"] is not None and (i["class"] == "offline" or (args.aws_unmocked and set(i["unmocked"]) <= {"aws"}))]
        by_root = collections.defaultdict(list)
        for info in infos:
            by_root[info["root"]].append(info)
        for root_rel in sorted(by_root):
            root = os.path.normpath(os.path.join(copy, root_rel))
            cache, mods, missing, remote = {}, [{"Key": "", "Source": "", "Dir": "."}], set(), set()
            rt.walk_tree(root, root, "", "", idx, cache, mods, missing, remote)
            for info in by_root[root_rel]:
                rel = os.path.relpath(os.path.join(copy, info["file"]), root).replace(os.sep, "/")
                for r in rt.parse_test_file(os.path.join(copy, info["file"]))["runs"]:
                    if r["module"] is None:
                        continue
                    start = os.path.normpath(os.path.join(root, r["module"])) if rw.is_local(r["module"]) else rw.resolve_remote(r["module"], idx)
                    if start is None or not os.path.isdir(start):
                        missing.add(r["module"])
                        continue
                    rt.walk_tree(root, start, rt.run_key(rel, r["name"]), r["module"], idx, cache, mods, missing, remote)
            for rec in mods:
                if rec["Source"] and not rw.is_local(rec["Source"]) and not rw._GIT.match(rec["Source"]):
                    rec["Version"] = "0.0.0"
            os.makedirs(os.path.join(root, ".terraform", "modules"), exist_ok=True)
            with open(os.path.join(root, ".terraform", "modules", "modules.json"), "w") as f:
                json.dump({"Modules": mods}, f, indent=1)
            groups = collections.defaultdict(list)
            for info in by_root[root_rel]:
                groups[info["test_dir"] or "tests"].append(info)
            init = [args.terraform, "init", "-backend=false", "-input=false", "-no-color", "-get=false"]
            if args.plugin_dir:
                init.append("-plugin-dir=" + args.plugin_dir)
            p, err = run(init, root, env)
            nruns = sum(len(i["runs"]) for i in by_root[root_rel])
            if err or p.returncode != 0:
                cause = err or init_failure_cause(p.stdout + p.stderr)
                causes[cause] += nruns
                counts["init failed"] += nruns
                print("-- skipped %s/%s (%d runs): %s" % (repo, root_rel, nruns, cause))
                continue
            all_found = rt.find_test_files(root)
            dirs = {os.path.normpath(r["Dir"] if os.path.isabs(r["Dir"]) else os.path.join(root, r["Dir"])) for r in mods}
            newer_aws, aws_v6 = bool(dirs & NEWER_AWS), bool(dirs & AWS_V6)
            for test_dir in sorted(groups):
                chosen = groups[test_dir]
                rels = sorted(os.path.relpath(os.path.join(copy, i["file"]), root).replace(os.sep, "/") for i in chosen)
                found = sorted(os.path.relpath(f, root).replace(os.sep, "/") for f in all_found
                               if os.path.dirname(os.path.relpath(f, root)) in ("", test_dir.replace("/", os.sep)) and f.endswith((".tftest.hcl", ".tftest.json")))
                tail = (["-test-directory=" + test_dir] if test_dir != "tests" else []) + \
                    (["-filter=" + r for r in rels] if rels != found else [])
                out, timed_out = {}, False
                for name, cmd in (("terraform", [args.terraform, "test", "-json", "-no-color"] + tail),
                                  ("offline", [tfeval, "test", "-json"] + tail),
                                  ("schema", [tfeval, "test", "-json", "-schemas=" + schemas] + tail)):
                    p, err = run(cmd, root, env)
                    out[name] = read_stream(rt, p.stdout) if p else ({}, {}, {}, {}, {})
                    if err:
                        print("== %s/%s %s: %s timed out" % (repo, root_rel, test_dir, name))
                        timed_out = True
                if timed_out:
                    n = sum(len(i["runs"]) for i in chosen)
                    counts["timed out"] += n
                    causes["timed out (--timeout)"] += n
                    continue
                for info in chosen:
                    rel = os.path.relpath(os.path.join(copy, info["file"]), root).replace(os.sep, "/")
                    keys, earlier_cause = [None] + info["runs"], None
                    for run_name in info["runs"]:
                        st = {k: out[k][0].get((rel, run_name)) for k in out}
                        errs = {k: sorted((s for (sev, s), n in out[k][2].get((rel, run_name), {}).items() if sev == "error" for _ in range(n))) for k in out}
                        warns = {k: sorted((s for (sev, s), n in out[k][2].get((rel, run_name), {}).items() if sev == "warning" for _ in range(n))) for k in out}
                        counts["runs"] += 1
                        off_ok = st["offline"] == st["terraform"] or st["offline"] == "skip"
                        counts["offline same" if st["offline"] == st["terraform"] else ("offline skip" if off_ok else "offline differ")] += 1
                        sch_skip = st["schema"] == "skip" and st["terraform"] != "skip"
                        sch_same = st["schema"] == st["terraform"] or sch_skip
                        sum_same = errs["schema"] == errs["terraform"] or sch_skip
                        counts["schema skip" if sch_skip else "schema same" if sch_same and sum_same else ("schema summaries" if sch_same else "schema differ")] += 1
                        cause = None
                        if not (off_ok and sch_same and sum_same):
                            code = " ".join(context(root, c) for c in out["terraform"][3].get((rel, run_name), []))
                            if re.search(r"&&|\|\|", code):
                                cause = "logical operator short-circuit (Terraform < 1.12 evaluates both operands)"
                            elif earlier_cause and st["terraform"] == "skip":
                                cause = "after an earlier difference: " + earlier_cause
                            elif newer_aws:
                                cause = "module needs a newer aws provider (constraint relaxed)"
                            elif aws_v6 and st["schema"] == st["terraform"]:
                                cause = "module admits aws v6, which init installs (tfeval without -schemas uses its 6.x table)"
                            elif args.aws_unmocked and any("https response error" in e or "operation error" in e for e in errs["terraform"]):
                                cause = "calls AWS, which the offline endpoint denies (a real account decides)"
                            elif any(e.startswith("expected ") for e in errs["terraform"]):
                                cause = "the provider's own validation (not in its schema)"
                            else:
                                cause = "unexplained"
                            earlier_cause = earlier_cause or cause
                            for k in ("offline", "schema"):
                                if (k == "offline" and not off_ok) or (k == "schema" and not (sch_same and sum_same)):
                                    causes_diff[(k, cause)] += 1
                        rec = {"repo": repo, "root": root_rel, "file": info["file"], "run": run_name, "status": st,
                               "errors": errs, "warnings": warns, "cause": cause}
                        records.append(rec)
                        if not off_ok or not sch_same or not sum_same or (args.v and warns["schema"] != warns["terraform"]):
                            print("== %s/%s :: %s  terraform=%s offline=%s schema=%s%s" % (repo, info["file"], run_name, st["terraform"], st["offline"], st["schema"], "  [%s]" % cause if cause else ""))
                            for k in ("terraform", "schema", "offline"):
                                if errs[k] and (k == "terraform" or errs[k] != errs["terraform"]):
                                    print("     %-9s errors: %s" % (k, "; ".join(errs[k])[:400]))
                            if args.v and warns["schema"] != warns["terraform"]:
                                print("     warnings terraform: %s\n     warnings schema:    %s" % ("; ".join(warns["terraform"])[:300], "; ".join(warns["schema"])[:300]))
                        if args.v and st["schema"] == st["terraform"] and sum_same and warns["schema"] == warns["terraform"]:
                            tp, sp = out["terraform"][4].get((rel, run_name), {}), out["schema"][4].get((rel, run_name), {})
                            if tp != sp:
                                print("== %s/%s :: %s  (diagnostics at other places)" % (repo, info["file"], run_name))
                                for k, v in sorted((tp - sp).items()):
                                    print("     terraform: %s %s at %s:%s" % k)
                                for k, v in sorted((sp - tp).items()):
                                    print("     schema:    %s %s at %s:%s" % k)
                    for k in keys[:1]:
                        fe = {n: sorted(s for (sev, s), c in out[n][2].get((rel, None), {}).items() if sev == "error" for _ in range(c)) for n in out}
                        if fe["schema"] != fe["terraform"]:
                            print("== %s/%s (file diagnostics)\n     terraform: %s\n     schema:    %s" % (repo, info["file"], "; ".join(fe["terraform"])[:300], "; ".join(fe["schema"])[:300]))
    for cause, n in sorted(causes.items(), key=lambda x: -x[1]):
        print("  skipped %4d runs: %s" % (n, cause))
    for (k, cause), n in sorted(causes_diff.items()):
        print("  %-7s differ %4d runs: %s" % (k, n, cause))
    if args.json:
        with open(args.json, "w") as f:
            json.dump(records, f, indent=1, sort_keys=True)
    print("test-vs-terraform: %d runs (%d more in groups whose init failed, %d timed out); offline: %d same, %d honest skips, %d differ; "
          "with schema: %d same, %d honest skips, %d differ (%d of them in error summaries only)" % (
              counts["runs"], counts["init failed"], counts["timed out"], counts["offline same"], counts["offline skip"], counts["offline differ"],
              counts["schema same"], counts["schema skip"], counts["schema differ"] + counts["schema summaries"], counts["schema summaries"]))
    if not args.work:
        shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
