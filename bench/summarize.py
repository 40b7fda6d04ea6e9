#!/usr/bin/env python3
"""Merge bench_geometry's per-configuration JSON files and print the compact device summary.

Used by bench/run_device.sh:
  python3 bench/summarize.py --out-dir OUT [--merge] [--bench OUT/bench.json]
                             [--peers OUT/peers.json]
--merge combines OUT/bench_<config>.json into OUT/bench.json. The summary (at most ~130 lines)
has one line per op variant: texcv's median ms per path, what path=auto chose, the NPP (or
cudaMemcpy2D) peer, the best texcv path's share of the copy floor and the mean |NPP - texcv|;
then the CuPy / PyTorch peers side by side.
"""

import argparse
import glob
import json
import os
import sys


def load(path):
    try:
        with open(path) as f:
            return json.load(f)
    except Exception as e:  # noqa: BLE001
        print(f"summarize: cannot read {path}: {e}")
        return None


def merge(out_dir):
    rows, metas = [], []
    for p in sorted(glob.glob(os.path.join(out_dir, "bench_*.json"))):
        doc = load(p)
        if not doc:
            continue
        metas.append(doc.get("meta", {}))
        rows.extend(doc.get("rows", []))
    meta = metas[0] if metas else {}
    doc = {"meta": meta, "rows": rows}
    with open(os.path.join(out_dir, "bench.json"), "w") as f:
        json.dump(doc, f, indent=1)
    return doc


def ms(r):
    if r is None:
        return ""
    if r.get("status") == "ok" and r.get("median_ms") is not None:
        return f"{r['median_ms']:.4f}"
    return r.get("status", "?")


def bench_summary(doc):
    meta = doc.get("meta", {})
    rows = doc.get("rows", [])
    print(f"== texcv geometry on {meta.get('gpu', '?')} (commit {meta.get('commit', '?')}, "
          f"NPP {meta.get('npp', '?')}, {meta.get('mode', '?')}, median of "
          f"{meta.get('reps', '?')}); ms per call")
    order, groups = [], {}
    for r in rows:
        key = (r["config"], r["op"], r["params"])
        if key not in groups:
            order.append(key)
            groups[key] = []
        groups[key].append(r)
    print(f"{'cfg':<6} {'op':<16} {'params':<18} {'global':>8} {'texture':>8} {'tex_filt':>8} "
          f"{'auto':>8} {'auto->':<14} {'peer':>8} {'%copy':>6} {'|d|npp':>7}")
    for key in order:
        g = groups[key]
        by = {}
        best = 0.0
        for r in g:
            if r["impl"] == "texcv":
                by[r["path"]] = r
                if r["status"] == "ok":
                    best = max(best, r.get("pct_copy") or 0.0)
            else:
                by["peer"] = r
        cfg, op, params = key
        if op == "copy":
            c = by.get("peer")
            label = "copy floor" if params == "floor d2d" else params
            if c and c["status"] == "ok":
                print(f"{cfg:<6} {label}: {c['median_ms']:.4f} ms, {c['gbps']:.0f} GB/s "
                      f"(read + write), image {c['width']}x{c['height']} {c['type']} "
                      f"x{c['channels']}")
            else:
                print(f"{cfg:<6} {label}: {ms(c)} {c.get('note', '') if c else ''}"[:120])
            continue
        if op == "setup":
            print(f"{cfg:<6} setup error: {g[0].get('note', '')}"[:120])
            continue
        auto = by.get("auto") or by.get("-")
        peer = by.get("peer")
        d = peer.get("diff_mean") if peer else None
        dtxt = f"{d:.3g}" if isinstance(d, (int, float)) else ""
        print(f"{cfg:<6} {op:<16} {params:<18} {ms(by.get('global')):>8} "
              f"{ms(by.get('texture')):>8} {ms(by.get('texture_filter')):>8} {ms(auto):>8} "
              f"{(auto or {}).get('auto_choice', ''):<14} {ms(peer):>8} {best:5.1f}% {dtxt:>7}")
    errors = [r for r in rows if r["status"] == "error"]
    na = [r for r in rows if r["status"] == "n/a"]
    unwritten = [r for r in rows if (r.get("nonfinite") or 0) > 0]
    ok = sum(r["status"] == "ok" for r in rows)
    print(f"bench rows: {ok} ok, {len(na)} n/a, {len(errors)} error, "
          f"{len(rows) - ok - len(na) - len(errors)} skipped; "
          f"{len(unwritten)} with unwritten (NaN) samples")
    notes = {}
    for r in na:
        notes.setdefault(r.get("note", "")[:90], 0)
        notes[r.get("note", "")[:90]] += 1
    for n, k in list(notes.items())[:5]:
        print(f"  n/a x{k}: {n}")
    for r in errors[:8]:
        print(f"  error: {r['config']} {r['op']} {r['params']} {r['impl']} {r['path']}: "
              f"{r.get('note', '')}"[:150])
    for r in unwritten[:4]:
        print(f"  UNWRITTEN: {r['config']} {r['op']} {r['params']} {r['path']}: {r.get('note')}")


def peers_summary(doc):
    meta = doc.get("meta", {})
    rows = doc.get("rows", [])
    print(f"\n== peers: cupy {meta.get('cupy', '?')}, torch {meta.get('torch', '?')}, "
          f"torchvision {meta.get('torchvision', '?')}; ms per call (see peers.json notes)")
    order, groups = [], {}
    for r in rows:
        # cupy's floor copy and torch's copy_ share one line
        key = (r["config"], r["op"], "" if r["op"] == "copy" else r["params"])
        if key not in groups:
            order.append(key)
            groups[key] = {}
        groups[key][r["lib"]] = r
    print(f"{'cfg':<6} {'op':<16} {'params':<18} {'cupy':>9} {'cupy-tex':>9} {'torch':>9} "
          f"{'torchvision':>11}")
    for key in order:
        g = groups[key]
        cfg, op, params = key
        if op == "all":
            for lib, r in g.items():
                print(f"{cfg:<6} {lib}: {r['status']}: {r.get('note', '')}"[:120])
            continue
        print(f"{cfg:<6} {op:<16} {params:<18} {ms(g.get('cupy')):>9} "
              f"{ms(g.get('cupy-texture')):>9} {ms(g.get('torch')):>9} "
              f"{ms(g.get('torchvision')):>11}")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--out-dir", required=True)
    ap.add_argument("--merge", action="store_true")
    ap.add_argument("--no-peers", action="store_true")
    args = ap.parse_args()
    bench_path = os.path.join(args.out_dir, "bench.json")
    doc = merge(args.out_dir) if args.merge else (
        load(bench_path) if os.path.exists(bench_path) else None)
    if doc and doc.get("rows"):
        bench_summary(doc)
    else:
        print("== texcv geometry: no benchmark results")
    peers_path = os.path.join(args.out_dir, "peers.json")
    if not args.no_peers:
        if os.path.exists(peers_path):
            p = load(peers_path)
            if p:
                peers_summary(p)
        else:
            print("\n== peers: no results")
    return 0


if __name__ == "__main__":
    sys.exit(main())
