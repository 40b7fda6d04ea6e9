"""What Ray Data costs a texcv job before texcv does any work (issue 19, item 7), on the device.

One Ray session (ray.init outside the times), the same job shape as texcv.ray.process (rows of
paths from from_items, one block per batch, one actor with num_gpus=1 in an ActorPoolStrategy,
the rows read back with iter_rows), with three actor classes:
  noop   constructor and call do nothing (the call returns the paths): Ray Data's own floor
  ctor   the constructor is texcv.ray.Processor's (import texcv, the engine's CUDA workers and
         nvJPEG set up), the call returns the paths: Ray's floor plus texcv's set-up
  texcv  texcv.ray.process itself
Each actor reports when its constructor started and ended and when its first call started
(wall clock, same machine), so the time before any file is read is split into: job start to
constructor (Ray starts the actor's worker process), the constructor, constructor to first call.
Alternated, `--reps` rounds. Usage (PYTHONPATH with texcv and Ray):
  python3 ray_floor.py IN OUT PIPELINE [--reps 2] [--json FILE]
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import time

import numpy as np
import ray


class Noop:
    def __init__(self):
        self.t_init0 = time.time()
        self.t_init1 = time.time()
        self.t_call0 = None

    def __call__(self, batch):
        if self.t_call0 is None:
            self.t_call0 = time.time()
        n = len(batch["path"])
        return {"path": batch["path"],
                "times": np.array([json.dumps([self.t_init0, self.t_init1, self.t_call0])] * n,
                                  dtype=object)}


class Ctor(Noop):
    def __init__(self, **kwargs):
        self.t_init0 = time.time()
        import texcv.ray

        self.proc = texcv.ray.Processor(**kwargs)
        self.t_init1 = time.time()
        self.t_call0 = None


def job(cls, paths, batch, kwargs, gpus, cpus):
    t0 = time.time()
    ds = ray.data.from_items([{"path": p} for p in paths],
                             override_num_blocks=-(-len(paths) // batch))
    done = ds.map_batches(cls, fn_constructor_kwargs=kwargs, batch_size=batch, num_gpus=gpus,
                          num_cpus=cpus, compute=ray.data.ActorPoolStrategy(size=1))
    times = None
    n = 0
    for row in done.iter_rows():
        n += 1
        if times is None:
            times = json.loads(row["times"])
    t1 = time.time()
    a0, a1, c0 = times
    return {"total": t1 - t0, "to_ctor": a0 - t0, "ctor": a1 - a0, "to_call": c0 - a1,
            "rows": n}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("input")
    ap.add_argument("output")
    ap.add_argument("pipeline")
    ap.add_argument("--reps", type=int, default=2)
    ap.add_argument("--json")
    ap.add_argument("--device", default="cuda", help="cuda (one GPU actor) or cpu (a smoke test)")
    ap.add_argument("--cpus", type=float, default=15, help="the actor's CPUs (of 16)")
    a = ap.parse_args()
    import texcv.ray

    paths = texcv.ray._input_files(os.path.abspath(a.input), None, os.path.abspath(a.output))
    batch = texcv.ray.auto_batch_size(len(paths), 1)
    t = time.perf_counter()
    gpus = 1 if a.device == "cuda" else 0
    ray.init(num_cpus=max(2, int(a.cpus) + 1), num_gpus=gpus, include_dashboard=False,
             log_to_driver=False)
    print(f"ray.init {time.perf_counter() - t:.3f} s; {len(paths)} files, batches of {batch}",
          flush=True)
    kwargs = dict(pipeline=a.pipeline, output=os.path.abspath(a.output),
                  root=os.path.abspath(a.input), device=a.device, quality=90,
                  workers=max(1, int(a.cpus) + 1))
    res: dict[str, list] = {}
    for rep in range(1, a.reps + 1):
        for name in ("noop", "ctor", "texcv"):
            shutil.rmtree(a.output, ignore_errors=True)
            if name == "texcv":
                t = time.perf_counter()
                rows = texcv.ray.process(a.input, a.output, a.pipeline, num_gpus=gpus,
                                         num_cpus=a.cpus, concurrency=1, device=a.device,
                                         quality=90, resume=False,
                                         workers=kwargs["workers"])
                r = {"total": time.perf_counter() - t,
                     "rows": sum(x["status"] == "ok" for x in rows)}
            elif name == "noop":
                r = job(Noop, paths, batch, {}, gpus, a.cpus)
            else:
                r = job(Ctor, paths, batch, kwargs, gpus, a.cpus)
            res.setdefault(name, []).append(r)
            print(f"{name} run {rep}: " + ", ".join(
                f"{k} {v:.3f} s" if isinstance(v, float) else f"{k} {v}" for k, v in r.items()),
                flush=True)
    for name, rs in res.items():
        print(f"{name}: total median {statistics.median(r['total'] for r in rs):.3f} s")
    if a.json:
        with open(a.json, "w", encoding="utf-8") as f:
            json.dump(res, f, indent=1)


if __name__ == "__main__":
    main()
