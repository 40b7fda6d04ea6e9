"""Runs bench/batch/exit_teardown (built by nvcc) in its two exit modes and prints, for each,
the median and range of the time from the process's last timestamp to waitpid's return, and of
the whole run, over N runs alternating the modes.

    python3 bench/batch/exit_teardown.py ./exit_teardown [N] [args for the program...]
"""

import os
import statistics
import subprocess
import sys
import time


def one(exe, mode, args):
    t0 = time.monotonic()
    p = subprocess.Popen([exe, mode, *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    out, err = p.communicate()  # returns at EOF on both pipes, then waits for the process
    t1 = time.monotonic()
    if p.returncode != 0 or not out.strip():
        raise SystemExit(f"{mode}: rc {p.returncode}: {err.decode(errors='replace')}")
    mark = float(out.split()[-1])
    return t1 - mark, t1 - t0


def main():
    exe = sys.argv[1]
    n = int(sys.argv[2]) if len(sys.argv) > 2 else 5
    args = sys.argv[3:]
    res = {"plain": [], "handoff": []}
    for _ in range(n):
        for mode in res:
            res[mode].append(one(exe, mode, args))
    print(f"exit_teardown {' '.join(args) or '(defaults)'}: {n} runs each, pid {os.getpid()}")
    for mode, r in res.items():
        ex = [x[0] for x in r]
        wall = [x[1] for x in r]
        print(
            f"  {mode:8s} exit median {statistics.median(ex) * 1e3:7.1f} ms "
            f"(range {min(ex) * 1e3:.1f}-{max(ex) * 1e3:.1f}), whole run median "
            f"{statistics.median(wall):.3f} s"
        )


if __name__ == "__main__":
    main()
