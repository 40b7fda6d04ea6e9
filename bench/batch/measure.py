#!/usr/bin/env python3
"""Time one benchmark command and append a JSON line to a results file; or print the table.

measure.py run --results R.jsonl --tool NAME --dataset NAME --outdir DIR -- CMD ARGS...
    runs CMD once (its stdout and stderr go to --log, default DIR.log), then records: wall
    seconds (time.perf_counter around the child), user and system CPU seconds and the peak
    resident set of the child (getrusage(RUSAGE_CHILDREN): this script runs exactly one child,
    so ru_maxrss is that process's peak, in KiB on Linux), the 1-minute load average just
    before (it includes the decaying load of the previous run), the CPU seconds the rest of the
    machine used meanwhile (/proc/stat busy time minus the child's user + sys: about 0 when
    nothing else runs), the number of output files under --outdir and images/s = files / wall.
    Exit status: the command's.
measure.py table R.jsonl
    prints a Markdown table: per dataset and tool the median run (by wall time), the largest
    peak RSS, every run's other-CPU seconds and load average.
measure.py stages REPORT.jsonl
    prints the mean read / process / write / total milliseconds per file of a texcv --report.
"""

import argparse
import json
import os
import platform
import resource
import subprocess
import sys
import time


def count_files(d):
    n = 0
    for _, _, files in os.walk(d):
        n += sum(1 for f in files if not f.startswith("."))
    return n


def busy_seconds():
    """CPU seconds spent busy by the whole machine so far (/proc/stat; None where absent)."""
    try:
        with open("/proc/stat") as f:
            v = [int(x) for x in f.readline().split()[1:]]
    except OSError:
        return None
    # user nice system idle iowait irq softirq steal ...: busy = all but idle and iowait
    return (sum(v[:8]) - v[3] - v[4]) / os.sysconf("SC_CLK_TCK")


def run(a, cmd):
    log = a.log or a.outdir.rstrip("/") + ".log"
    load1 = os.getloadavg()[0]
    busy0 = busy_seconds()
    with open(log, "w") as f:
        t0 = time.perf_counter()
        rc = subprocess.call(cmd, stdout=f, stderr=subprocess.STDOUT)
        wall = time.perf_counter() - t0
    busy1 = busy_seconds()
    ru = resource.getrusage(resource.RUSAGE_CHILDREN)
    n = count_files(a.outdir) if os.path.isdir(a.outdir) else 0
    rec = {
        "tool": a.tool,
        "dataset": a.dataset,
        "files": n,
        "wall_s": round(wall, 3),
        "images_per_s": round(n / wall, 2) if wall > 0 else None,
        "user_s": round(ru.ru_utime, 2),
        "sys_s": round(ru.ru_stime, 2),
        "peak_rss_mb": round(ru.ru_maxrss / 1024, 1),
        "rc": rc,
        "load1_before": round(load1, 2),
        # CPU seconds the rest of the machine used during the run: machine busy time minus
        # the child's user + sys (about 0 on an otherwise idle machine)
        "other_cpu_s": None
        if busy0 is None
        else round(busy1 - busy0 - ru.ru_utime - ru.ru_stime, 2),
        "host": platform.node(),
        "cpus": os.cpu_count(),
        "cmd": " ".join(cmd),
        "log": log,
    }
    with open(a.results, "a") as f:
        f.write(json.dumps(rec) + "\n")
    print(
        f"{a.dataset:>5} {a.tool:<12} {n:5d} files {wall:8.2f} s {rec['images_per_s']:8.2f} images/s "
        f"peak RSS {rec['peak_rss_mb']:8.1f} MB  user {rec['user_s']:.1f} s sys {rec['sys_s']:.1f} s  rc {rc}"
    )
    return rc


def load(path):
    with open(path) as f:
        return [json.loads(line) for line in f if line.strip()]


def table(path):
    rows = load(path)
    groups = {}
    for r in rows:
        groups.setdefault((r["dataset"], r["tool"]), []).append(r)
    print(
        "| dataset | tool | files | runs | wall s (median) | images/s | peak RSS MB "
        "| CPU s (user+sys) | other CPU s during each run | load before each run | rc |"
    )
    print("| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | --- | --- | --- |")
    for (ds, tool), rs in groups.items():
        rs = sorted(rs, key=lambda r: r["wall_s"])
        m = rs[(len(rs) - 1) // 2]
        loads = ", ".join(str(r["load1_before"]) for r in rs)
        other = ", ".join(str(r.get("other_cpu_s")) for r in rs)
        rcs = ",".join(sorted({str(r["rc"]) for r in rs}))
        print(
            f"| {ds} | {tool} | {m['files']} | {len(rs)} | {m['wall_s']:.2f} | {m['images_per_s']:.2f} | "
            f"{max(r['peak_rss_mb'] for r in rs):.0f} | {m['user_s'] + m['sys_s']:.1f} | {other} | "
            f"{loads} | {rcs} |"
        )


def stages(path):
    """Mean milliseconds per file of texcv's --report stages (ok files)."""
    rows = load(path)
    ok = [r for r in rows if r.get("status") == "ok"]
    if not ok:
        print(f"{path}: no ok file")
        return
    mean = {k: sum(r["ms"][k] for r in ok) / len(ok) for k in ("read", "process", "write", "total")}
    print(
        f"texcv --report, {len(ok)} ok file(s), mean ms per file: read {mean['read']:.1f}, "
        f"process {mean['process']:.1f}, write {mean['write']:.1f}, total {mean['total']:.1f}"
    )


def main():
    if len(sys.argv) == 3 and sys.argv[1] in ("table", "stages"):
        (table if sys.argv[1] == "table" else stages)(sys.argv[2])
        return 0
    if "--" not in sys.argv:
        sys.exit(__doc__)
    i = sys.argv.index("--")
    ap = argparse.ArgumentParser()
    ap.add_argument("mode", choices=("run",))
    ap.add_argument("--results", required=True)
    ap.add_argument("--tool", required=True)
    ap.add_argument("--dataset", required=True)
    ap.add_argument("--outdir", required=True)
    ap.add_argument("--log")
    a = ap.parse_args(sys.argv[1:i])
    return run(a, sys.argv[i + 1 :])


if __name__ == "__main__":
    sys.exit(main())
