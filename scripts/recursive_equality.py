#!/usr/bin/env python3
"""Check that `tfeval eval -json -recursive` gives, root by root, the documents separate runs give.

Usage:
  python3 scripts/recursive_equality.py --bin TFEVAL [--repos ~/realworld] [--shared ../shared]
                                        [--only OWNER/NAME ...] [--measure] [--tests] [-v]

For every repository of SHARED/realworld/repos.txt exported to REPOS (see SHARED/realworld/README.md),
in a temporary copy, prepared as SHARED/realworld/run.py prepares one (its own functions do it): every
directory holding configuration files gets a .terraform/modules/modules.json resolving registry and
GitHub sources to the exported trees, and values for its required variables, here in an
*.auto.tfvars.json file so that a scan and a separate run read them alike. Then

  TFEVAL eval -json -recursive [-all-dirs] .       one JSON document a line, {"root": ROOT, ...}
  TFEVAL eval -json ROOT                            for every ROOT the scan names

and every line, without "root", must equal the separate run's document (as JSON values), for the
default roots and with -all-dirs (every module directory). Exit status 1 when any differs or a run
crashes. --measure also prints, per repository, the CPU time (user+sys) and peak memory of the scan
against the sum and the largest of the separate runs, and the wall time of -parallelism=1 over the
default (a figure to take only on a quiet machine).

With --tests, the same for test files, on the repositories of SHARED/realworld/tftest-repos.txt:

  TFEVAL test -json -recursive [-test-directory=D] .   every module's events, each line with its "root"
  TFEVAL test -json -chdir=ROOT [-test-directory=D]    for every ROOT the scan names

for "tests" and every other test directory the repository's test files are in (tests/unit, ...),
and each root's lines, without "root", must be the separate run's lines, in the same order.
"""
import argparse, ast, json, os, shutil, subprocess, sys, tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
VARS_FILE = "zz-recursive-equality.auto.tfvars.json"


# The measured process is started by a small, fresh Python process: on Linux
# a process's peak resident set (ru_maxrss) counts the peak of the process
# that started it, up to its exec, and this one holds the scan's output.
LAUNCH = """
import os, subprocess, sys, time
start = time.monotonic()
p = subprocess.Popen(sys.argv[2:])
_, status, usage = os.wait4(p.pid, 0)
with open(sys.argv[1], "w") as f:
    f.write(repr((os.waitstatus_to_exitcode(status), usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024.0,
                  time.monotonic() - start)))
"""


def run(cmd, cwd=None):
    """stdout, exit status, CPU seconds (user+sys), peak RSS in MiB, wall seconds of one process."""
    with tempfile.TemporaryFile() as out, tempfile.NamedTemporaryFile("r") as figures:
        subprocess.run([sys.executable, "-c", LAUNCH, figures.name] + cmd, cwd=cwd, stdout=out,
                       stderr=subprocess.DEVNULL, stdin=subprocess.DEVNULL, check=True)
        status, cpu, rss, wall = ast.literal_eval(figures.read())
        out.seek(0)
        return out.read().decode("utf-8", "replace"), status, cpu, rss, wall


def prepare(rw, repo, src, idx, dest):
    """Copy a repository and install its modules and variable values as run.py does."""
    shutil.copytree(src, dest, symlinks=True)
    cache = {}
    for rel in rw.find_roots(dest):
        d = os.path.normpath(os.path.join(dest, rel))
        mods, _, _ = rw.install(d, idx, cache)
        os.makedirs(os.path.join(d, ".terraform", "modules"), exist_ok=True)
        with open(os.path.join(d, ".terraform", "modules", "modules.json"), "w") as f:
            json.dump({"Modules": mods}, f, indent=1)
        values = rw.var_values(cache[d][1])
        if values:
            with open(os.path.join(d, VARS_FILE), "w") as f:
                json.dump(values, f, indent=1)


def add_run_modules(rt, rw, repo, repos, idx, tree):
    """Record every test run block's module in its root's modules.json under the key terraform init
    gives it (test.<dirs>.<file>.<run>), as run_tests.py does, so that the test command finds a run's
    module as it would after init (an initialised manifest without a run's module is "Module not
    installed" in Terraform and tfeval alike)."""
    by_root = {}
    for info in rt.classify_repo(repo, repos, idx):
        if info["root"] is not None:
            by_root.setdefault(info["root"], []).append(info)
    for root_rel, infos in sorted(by_root.items()):
        root = os.path.normpath(os.path.join(tree, root_rel))
        manifest = os.path.join(root, ".terraform", "modules", "modules.json")
        if not os.path.exists(manifest):
            continue
        records = json.load(open(manifest))["Modules"]
        cache, missing, remote = {}, set(), set()
        for info in infos:
            rel = os.path.relpath(os.path.join(tree, info["file"]), root).replace(os.sep, "/")
            for run in rt.parse_test_file(os.path.join(tree, info["file"]))["runs"]:
                if run["module"] is None:
                    continue
                start = os.path.normpath(os.path.join(root, run["module"])) if rw.is_local(run["module"]) else rw.resolve_remote(run["module"], idx)
                if start is None or not os.path.isdir(start):
                    continue
                rt.walk_tree(root, start, rt.run_key(rel, run["name"]), run["module"], idx, cache, records, missing, remote)
        with open(manifest, "w") as f:
            json.dump({"Modules": records}, f, indent=1)


def json_lines(out):
    """The lines of a JSON Lines text: split at newlines only, as str.splitlines also splits at
    characters a JSON string may hold unescaped (U+0085, U+2028), as a file read as a string can."""
    return out.split("\n")


def first_difference(a, b, path="$"):
    """Where two JSON values first differ, as a path."""
    if type(a) is not type(b):
        return path
    if isinstance(a, dict):
        for k in sorted(set(a) | set(b)):
            if k not in a or k not in b:
                return "%s.%s" % (path, k)
            d = first_difference(a[k], b[k], "%s.%s" % (path, k))
            if d:
                return d
        return None
    if isinstance(a, list):
        if len(a) != len(b):
            return "%s (length %d, %d)" % (path, len(a), len(b))
        for i, (x, y) in enumerate(zip(a, b)):
            d = first_difference(x, y, "%s[%d]" % (path, i))
            if d:
                return d
        return None
    return None if a == b else path


def compare_separate(args, problems, root, got, cmd, parse):
    """Run cmd, a separate run of root, and add to problems where its output (parse gives its JSON
    values) differs from got, the scan's; returns the run's CPU seconds and peak MiB."""
    out, status, cpu, rss, _ = run(cmd)
    try:
        want = parse(out)
    except ValueError:
        problems.append("%s: the separate run wrote output that is not JSON (exit %d)" % (root, status))
        return cpu, rss
    where = first_difference(got, want)
    if where:
        problems.append("%s: differs from the separate run at %s" % (root, where))
    elif args.v:
        print("    %s: equal" % root)
    return cpu, rss


def check(args, tree, flags):
    """Compare the scan of tree with separate runs; returns (roots, problems, figures)."""
    out, status, cpu, rss, wall = run([args.bin, "eval", "-json", "-recursive", "-no-progress"] + flags + ["."], cwd=tree)
    problems, each_cpu, each_rss = [], 0.0, 0.0
    if status > 1:
        return 0, ["the scan exited %d" % status], None
    lines = [l for l in json_lines(out) if l.strip()]
    for line in lines:
        try:
            doc = json.loads(line)
        except ValueError as e:
            problems.append("a line is not JSON (%s): %.80s" % (e, line))
            continue
        root = doc.pop("root", None)
        c, r = compare_separate(args, problems, root, doc, [args.bin, "eval", "-json", os.path.join(tree, root)], json.loads)
        each_cpu, each_rss = each_cpu + c, max(each_rss, r)
    figures = None
    if args.measure:
        _, _, cpu1, rss1, wall1 = run([args.bin, "eval", "-json", "-recursive", "-no-progress", "-parallelism=1"] + flags + ["."], cwd=tree)
        figures = {"cpu": cpu, "rss": rss, "wall": wall, "each_cpu": each_cpu, "each_rss": each_rss, "wall1": wall1, "cpu1": cpu1, "rss1": rss1}
    return len(lines), problems, figures


def test_directories(tree):
    """The test directories of tree's test files, as -test-directory names them: "tests" and, for a
    file below a folder named tests (modules/a/tests/unit/x.tftest.hcl), the path from that folder."""
    found = {"tests"}
    for dirpath, _, files in os.walk(tree):
        if any(f.endswith((".tftest.hcl", ".tftest.json")) for f in files):
            parts = os.path.relpath(dirpath, tree).split(os.sep)
            if "tests" in parts:
                i = len(parts) - 1 - parts[::-1].index("tests")
                found.add("/".join(parts[i:]))
    return sorted(found)


def check_tests(args, tree, test_dir):
    """Compare the test scan of tree with separate test runs; returns (roots, problems, None)."""
    flags = ["-test-directory=" + test_dir] if test_dir != "tests" else []
    out, status, _, _, _ = run([args.bin, "test", "-json", "-recursive", "-no-progress"] + flags + ["."], cwd=tree)
    if status > 1:
        return 0, ["the test scan exited %d" % status], None
    by_root, problems = {}, []
    for line in json_lines(out):
        if not line.strip():
            continue
        try:
            event = json.loads(line)
        except ValueError as e:
            problems.append("a line is not JSON (%s): %.80s" % (e, line))
            continue
        by_root.setdefault(event.pop("root", None), []).append(event)
    for root, events in by_root.items():
        if root is None:
            problems.append("%d lines name no root" % len(events))
            continue
        compare_separate(args, problems, root, events, [args.bin, "test", "-json", "-chdir=" + os.path.join(tree, root)] + flags,
                         lambda out: [json.loads(l) for l in json_lines(out) if l.strip()])
    return len(by_root), problems, None


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--bin", required=True)
    ap.add_argument("--repos", default=os.path.expanduser("~/realworld"))
    ap.add_argument("--shared", default=os.path.join(HERE, "..", "..", "shared"))
    ap.add_argument("--only", nargs="+", action="extend", metavar="OWNER/NAME")
    ap.add_argument("--measure", action="store_true")
    ap.add_argument("--tests", action="store_true", help="compare test runs (tftest-repos.txt) instead")
    ap.add_argument("-v", action="store_true")
    args = ap.parse_args()
    args.bin = os.path.abspath(args.bin)
    sys.path.insert(0, os.path.join(args.shared, "realworld"))
    import run as rw  # the realworld harness: how a tree is prepared
    listed = "tftest-repos.txt" if args.tests else "repos.txt"
    repos = args.only or [l.strip() for l in open(os.path.join(args.shared, "realworld", listed)) if l.strip() and not l.startswith("#")]
    def modes(tree):
        if args.tests:
            return [(d, lambda d=d: check_tests(args, tree, d)) for d in test_directories(tree)]
        return [(" ".join(flags) or "roots", lambda flags=flags: check(args, tree, flags)) for flags in ([], ["-all-dirs"])]
    idx = {r.lower(): os.path.join(os.path.abspath(args.repos), r) for r in rw.list_repos(args.repos)}
    failed, total = 0, 0
    for repo in repos:
        src = os.path.join(args.repos, repo)
        if not os.path.isdir(src):
            print("%s: not exported to %s, skipped" % (repo, args.repos))
            continue
        tmp = tempfile.mkdtemp(prefix="recursive-equality-")
        try:
            tree = os.path.join(tmp, "src")
            prepare(rw, repo, src, idx, tree)
            if args.tests:
                import run_tests as rt  # how run_tests.py records the run blocks' modules
                add_run_modules(rt, rw, repo, args.repos, idx, tree)
            for mode, checked in modes(tree):
                n, problems, fig = checked()
                total += n
                failed += len(problems)
                print("%-58s %-10s %3d roots, %s" % (repo, mode, n, "%d differ" % len(problems) if problems else "all equal"), flush=True)
                for p in problems:
                    print("    " + p)
                if fig:
                    print("    scan cpu %.2fs vs %.2fs separately (%.2fx); peak %.0f MiB vs largest root %.0f MiB (%.2fx); "
                          "wall -parallelism=1 %.2fs / default %.2fs = %.2fx" % (
                              fig["cpu"], fig["each_cpu"], fig["cpu"] / max(fig["each_cpu"], 1e-9), fig["rss"], fig["each_rss"],
                              fig["rss"] / max(fig["each_rss"], 1e-9), fig["wall1"], fig["wall"], fig["wall1"] / max(fig["wall"], 1e-9)), flush=True)
        finally:
            shutil.rmtree(tmp, ignore_errors=True)
    print("recursive-equality: %d of %d root %s differ" % (failed, total, "test streams" if args.tests else "documents"))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
