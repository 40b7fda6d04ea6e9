"""Issue 19, item 7: what one texcv.ray actor costs without Ray. texcv.ray.Processor (the class
Ray Data's actors run) called directly on rows of paths, in batches of several sizes, over the
same files: each call is one run of the actor's engine (its decode, GPU and encode stages fill
and drain once per call), so the time against the batch size shows the per-call cost that a
Ray job pays per batch. The constructor (CUDA, nvJPEG, workers) is timed apart, once.

    python3 actor_batches.py IN OUT PIPELINE [BATCH ...]

Prints one line per batch size: total wall, calls, files ok, files/s.
"""

import os
import shutil
import sys
import time

import numpy as np

import texcv.ray as tray

src, out, pipe = sys.argv[1], sys.argv[2], sys.argv[3]
sizes = [int(s) for s in sys.argv[4:]] or [64, 500, 2000, 8000]
files = sorted(os.path.join(src, f) for f in os.listdir(src))
t = time.perf_counter()
p = tray.Processor(pipe, output=out, root=src, device="cuda", quality=90, workers=16)
print(f"actor: constructor {time.perf_counter() - t:.3f} s, workers {p.session.workers()}",
      flush=True)
for rep in (1, 2):
    for bs in sizes:
        shutil.rmtree(out, ignore_errors=True)
        os.makedirs(out)
        t = time.perf_counter()
        ok = calls = 0
        for i in range(0, len(files), bs):
            rows = p({"path": np.array(files[i:i + bs], dtype=object)})
            ok += int((rows["status"] == "ok").sum())
            calls += 1
        dt = time.perf_counter() - t
        print(f"actor batch {bs} run {rep}: {dt:.3f} s, {calls} calls, {ok} ok of {len(files)}, "
              f"{len(files) / dt:.0f}/s", flush=True)
shutil.rmtree(out, ignore_errors=True)
