#!/usr/bin/env python3
"""Merge the benchmarks' per-configuration JSON files and print the compact device summary.

Used by bench/run_device.sh:
  python3 bench/summarize.py --out-dir OUT [--merge] [--no-peers] [--suite geometry|filters|all]
--merge combines OUT/bench_<config>.json (bench_geometry) into OUT/bench.json and
OUT/filters_<config>.json (bench_filters) into OUT/filters.json.

geometry: one line per op variant: texcv's median ms per path, what path=auto chose, the NPP (or
cudaMemcpy2D) peer, the best texcv path's share of the copy floor and the mean |NPP - texcv|;
then the CuPy / PyTorch peers side by side.
filters: one line per op x configuration x texcv path: texcv ms, %copy, NPP ms (its main
function; extra NPP variants in the note column), CuPy ms, torch ms, and on the default path
(auto, or "-" for path-less ops) the issue's target and whether it is met (FILTER_TARGETS).
versus the best peer (--suite all, with peers): every op x configuration that texcv and at least
one peer ran, texcv's default path against NPP, CuPy, torch / torchvision and CV-CUDA, the fastest
peer and texcv / fastest (above 1: texcv is slower); rows whose peer ran another image size say so.
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


def merge(out_dir, prefix="bench"):
    rows, metas = [], []
    for p in sorted(glob.glob(os.path.join(out_dir, f"{prefix}_*.json"))):
        doc = load(p)
        if not doc:
            continue
        metas.append(doc.get("meta", {}))
        rows.extend(doc.get("rows", []))
    meta = metas[0] if metas else {}
    doc = {"meta": meta, "rows": rows}
    with open(os.path.join(out_dir, f"{prefix}.json"), "w") as f:
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
          f"torchvision {meta.get('torchvision', '?')}, cvcuda {meta.get('cvcuda', '-')}; ms per "
          f"call (see peers.json notes)")
    order, groups = [], {}
    for r in rows:
        # cupy's floor copy and torch's copy_ share one line
        key = (r["config"], r["op"], "" if r["op"] == "copy" else r["params"])
        if key not in groups:
            order.append(key)
            groups[key] = {}
        groups[key][r["lib"]] = r
    print(f"{'cfg':<6} {'op':<16} {'params':<18} {'cupy':>9} {'cupy-tex':>9} {'torch':>9} "
          f"{'torchvision':>11} {'cvcuda':>9}")
    for key in order:
        g = groups[key]
        cfg, op, params = key
        if op == "all":
            for lib, r in g.items():
                print(f"{cfg:<6} {lib}: {r['status']}: {r.get('note', '')}"[:120])
            continue
        print(f"{cfg:<6} {op:<16} {params:<18} {ms(g.get('cupy')):>9} "
              f"{ms(g.get('cupy-texture')):>9} {ms(g.get('torch')):>9} "
              f"{ms(g.get('torchvision')):>11} {ms(g.get('cvcuda')):>9}")

# --------------------------------------------------------------------------------------------
# Filters (bench_filters + the peers' "filters" suite)

# Issue 3's targets, all on 8192x8192 and texcv's default path (path=auto, or the path-less op):
# (op, params prefix, configuration, kind, value); kind "ms": median below value; kind "copy":
# %copy at least value.
FILTER_TARGETS = [
    ("convolve", "3x3", "f32x1", "ms", 0.15),
    ("convolve", "3x3", "u8x1", "ms", 0.07),
    ("gaussian_blur", "sigma 2", "f32x1", "ms", 0.25),
    ("box_filter", "5x5", "f32x1", "ms", 0.20),
    ("median_blur", "3x3", "u8x1", "ms", 0.15),
    ("cvt_color", "rgb2gray", "u8x3", "ms", 0.08),
    ("gamma", "", "*", "copy", 85.0),
    ("threshold", "", "*", "copy", 85.0),
    ("convert", "", "*", "copy", 85.0),
]
TARGET_SIZE = (8192, 8192)


def target_for(cfg, op, params):
    for t_op, t_params, t_cfg, kind, value in FILTER_TARGETS:
        if t_op == op and params.startswith(t_params) and t_cfg in ("*", cfg):
            return kind, value
    return None


def target_text(target):
    if target is None:
        return ""
    kind, value = target
    return f"< {value:g} ms" if kind == "ms" else f">= {value:g} % copy"


def target_met(target, row):
    """'yes', 'no', 'n/a (why)' or '' for a texcv row on the default path."""
    if target is None:
        return ""
    if row is None or row.get("status") != "ok" or row.get("median_ms") is None:
        return "n/a (not run)"
    if (row.get("width"), row.get("height")) != TARGET_SIZE:
        return "n/a (size)"
    kind, value = target
    if kind == "ms":
        return "yes" if row["median_ms"] < value else "no"
    return "yes" if (row.get("pct_copy") or 0) >= value else "no"


def is_default_path(row):
    return row.get("path") in ("auto", "-")


def filter_groups(bench_rows, peer_rows):
    """[(cfg, op, params, texcv rows, npp rows, {lib: peer row})] in the benchmark's order."""
    order, groups = [], {}
    for r in bench_rows:
        if r["op"] in ("copy", "setup"):
            continue
        key = (r["config"], r["op"], r["params"])
        if key not in groups:
            order.append(key)
            groups[key] = ([], [], {})
        (groups[key][0] if r["impl"] == "texcv" else groups[key][1]).append(r)
    for r in peer_rows or []:
        if r.get("suite", "geometry") != "filters" or r["op"] in ("copy", "all"):
            continue
        key = (r["config"], r["op"], r["params"])
        if key in groups:
            groups[key][2].setdefault(r["lib"], r)
    return [(k[0], k[1], k[2], *groups[k]) for k in order]


def main_npp(npp_rows):
    return next((r for r in npp_rows if r.get("path") == "-"), None)


def filters_summary(doc, peers_doc):
    meta = doc.get("meta", {})
    rows = doc.get("rows", [])
    print(f"\n== texcv filters on {meta.get('gpu', '?')} (commit {meta.get('commit', '?')}, "
          f"NPP {meta.get('npp', '?')}, {meta.get('mode', '?')}, median of "
          f"{meta.get('reps', '?')}); ms per call")
    for r in rows:
        if r["op"] == "copy" and r["params"] == "floor d2d":
            print(f"{r['config']:<6} copy floor: {ms(r)} ms"
                  + (f", {r['gbps']:.0f} GB/s" if r.get("status") == "ok" else "")
                  + f" (image {r['width']}x{r['height']} {r['type']} x{r['channels']})")
        if r["op"] == "setup":
            print(f"{r['config']:<6} setup error: {r.get('note', '')}"[:120])
    print(f"{'op':<16} {'cfg':<6} {'params':<20} {'path':<14} {'texcv':>8} {'%copy':>6} "
          f"{'NPP':>8} {'CuPy':>8} {'torch':>8} {'target':<14} met?")
    peer_rows = (peers_doc or {}).get("rows", [])
    for cfg, op, params, tx, npp, libs in filter_groups(rows, peer_rows):
        target = target_for(cfg, op, params)
        n = main_npp(npp)
        torch_row = libs.get("torch") or libs.get("torchvision")
        for r in tx or [None]:
            path = "" if r is None else r["path"]
            if r is not None and r.get("auto_choice"):
                path += "->" + r["auto_choice"]
            pct = (f"{r['pct_copy']:5.1f}%" if r is not None and r.get("status") == "ok"
                   and r.get("pct_copy") is not None else "")
            default = r is not None and is_default_path(r)
            print(f"{op:<16} {cfg:<6} {params:<20} {path:<14} {ms(r):>8} {pct:>6} {ms(n):>8} "
                  f"{ms(libs.get('cupy')):>8} {ms(torch_row):>8} "
                  f"{target_text(target) if default else '':<14} "
                  f"{target_met(target, r) if default else ''}")
    ok = sum(r["status"] == "ok" for r in rows)
    na = [r for r in rows if r["status"] == "n/a"]
    errors = [r for r in rows if r["status"] == "error"]
    print(f"filter rows: {ok} ok, {len(na)} n/a, {len(errors)} error, "
          f"{len(rows) - ok - len(na) - len(errors)} skipped")
    notes = {}
    for r in na:
        key = r.get("note", "")[:90]
        notes[key] = notes.get(key, 0) + 1
    for note, k in list(notes.items())[:6]:
        print(f"  n/a x{k}: {note}")
    for r in errors[:8]:
        print(f"  error: {r['config']} {r['op']} {r['params']} {r['impl']} {r['path']}: "
              f"{r.get('note', '')}"[:150])


PEER_LIBS = ("npp", "cupy", "cupy-texture", "torch", "torchvision", "cvcuda")


def versus_best_summary(docs, peers_doc):
    """texcv's default path against the fastest peer, per op x configuration (issue 21)."""
    texcv, peers, sizes = {}, {}, {}
    for doc in docs:
        for r in (doc or {}).get("rows", []):
            if r["op"] in ("copy", "setup") or r.get("status") != "ok":
                continue
            key = (r["config"], r["op"], r["params"])
            if r["impl"] == "texcv" and is_default_path(r):
                texcv[key] = r
                sizes[key] = (r.get("width"), r.get("height"))
            elif r["impl"] == "npp" and r.get("path") == "-":
                peers.setdefault(key, {})["npp"] = r
    for r in (peers_doc or {}).get("rows", []):
        if r["op"] in ("copy", "all") or r.get("status") != "ok":
            continue
        peers.setdefault((r["config"], r["op"], r["params"]), {})[r["lib"]] = r
    print("\n== texcv (default path) against the fastest peer; ms per call; texcv/best above 1: "
          "texcv is slower")
    print(f"{'cfg':<6} {'op':<16} {'params':<20} {'texcv':>8} " +
          " ".join(f"{lib:>9}" for lib in PEER_LIBS) + f" {'best':>12} {'texcv/best':>10}")
    behind = 0
    for key in sorted(texcv, key=lambda k: (k[1], k[0], k[2])):
        libs = peers.get(key, {})
        if not libs:
            continue
        t = texcv[key]["median_ms"]
        best_lib, best = min(((lib, r["median_ms"]) for lib, r in libs.items()),
                             key=lambda x: x[1])
        other = [lib for lib, r in libs.items() if lib != "npp" and
                 (r.get("width"), r.get("height")) != sizes[key]]
        behind += t > best
        print(f"{key[0]:<6} {key[1]:<16} {key[2][:20]:<20} {t:8.4f} " +
              " ".join(f"{ms(libs.get(lib)):>9}" for lib in PEER_LIBS) +
              f" {best_lib:>12} {t / best:10.2f}" +
              (f"  (other size: {', '.join(other)})" if other else ""))
    print(f"texcv behind the fastest peer on {behind} rows")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--out-dir", required=True)
    ap.add_argument("--merge", action="store_true")
    ap.add_argument("--no-peers", action="store_true")
    ap.add_argument("--suite", default="all", choices=("geometry", "filters", "all"))
    args = ap.parse_args()
    peers_path = os.path.join(args.out_dir, "peers.json")
    peers = None
    if not args.no_peers and os.path.exists(peers_path):
        peers = load(peers_path)
    if args.suite in ("geometry", "all"):
        bench_path = os.path.join(args.out_dir, "bench.json")
        doc = merge(args.out_dir) if args.merge else (
            load(bench_path) if os.path.exists(bench_path) else None)
        if doc and doc.get("rows"):
            bench_summary(doc)
        else:
            print("== texcv geometry: no benchmark results")
        if not args.no_peers:
            if peers:
                geometry_peers = dict(peers)
                geometry_peers["rows"] = [r for r in peers.get("rows", [])
                                          if r.get("suite", "geometry") == "geometry"]
                if geometry_peers["rows"]:
                    peers_summary(geometry_peers)
            else:
                print("\n== peers: no results")
    if args.suite in ("filters", "all"):
        filters_path = os.path.join(args.out_dir, "filters.json")
        doc = merge(args.out_dir, "filters") if args.merge else (
            load(filters_path) if os.path.exists(filters_path) else None)
        if doc and doc.get("rows"):
            filters_summary(doc, peers)
        else:
            print("\n== texcv filters: no benchmark results")
    if args.suite == "all" and peers:
        docs = [load(f) for f in (os.path.join(args.out_dir, "bench.json"),
                                  os.path.join(args.out_dir, "filters.json")) if os.path.exists(f)]
        versus_best_summary(docs, peers)
    return 0


if __name__ == "__main__":
    sys.exit(main())
