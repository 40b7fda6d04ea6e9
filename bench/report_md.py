#!/usr/bin/env python3
"""Markdown tables for docs/performance.md from a run's bench.json and peers.json.

  python3 bench/report_md.py --bench OUT/bench.json --peers OUT/peers.json --commit HASH
  python3 bench/report_md.py --suite filters --bench OUT/filters.json --peers OUT/peers.json

--suite filters (bench_filters' JSON): per configuration, each op's median ms on every texcv
path (global, shared, texture, auto and its choice), NPP's main function and its no-border
variant, the default path's share of the copy floor and NPP over the default; then one table
op, config, path, texcv ms, %copy, NPP ms, CuPy ms, torch ms, target, met? (the targets are
summarize.py's FILTER_TARGETS).

Per configuration: each op's median ms on every texcv path, the automatic choice, NPP, the best
exact (default) path's share of the copy floor, and texcv's best exact path over NPP; then the
Python peers beside texcv's default path.
"""
import argparse
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import summarize  # noqa: E402  (FILTER_TARGETS and the grouping of filter rows)


def fmt(v):
    if v is None:
        return ""
    return f"{v:.4f}" if v < 0.1 else f"{v:.3f}"


def cell(r):
    if r is None:
        return ""
    return fmt(r["median_ms"]) if r.get("status") == "ok" and r.get("median_ms") is not None \
        else "n/a"


def filters_report(a):
    b = json.load(open(a.bench))
    meta = b.get("meta", {})
    rows = b["rows"]
    peers = json.load(open(a.peers)) if a.peers else None
    print(f"GPU: {meta.get('gpu', '?')} — commit {a.commit} — NPP {meta.get('npp', '?')} — "
          f"median of {meta.get('reps', 20)} after warm-up\n")
    groups = summarize.filter_groups(rows, (peers or {}).get("rows", []))
    configs = []
    for r in rows:
        if r["config"] not in configs:
            configs.append(r["config"])
    for cfg in configs:
        rs = [r for r in rows if r["config"] == cfg]
        floor = next((r for r in rs if r["op"] == "copy" and r["params"] == "floor d2d"), None)
        r0 = rs[0]
        head = f"### {cfg}: {r0['width']}x{r0['height']} {r0['type']} x{r0['channels']}"
        if floor and floor["status"] == "ok":
            head += (f" (copy floor {fmt(floor['median_ms'])} ms, {floor['gbps'] / 1000:.2f} TB/s"
                     " read + write)")
        print(head + "\n")
        print("| op | params | global | shared | texture | auto (chose) | NPP | NPP no border "
              "| default %copy | NPP / default |")
        print("| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |")
        for g_cfg, op, params, tx, npp, _ in groups:
            if g_cfg != cfg:
                continue
            by = {r["path"]: r for r in tx}
            auto = by.get("auto") or by.get("-")
            chose = f" ({auto['auto_choice']})" if auto and auto.get("auto_choice") else ""
            main = summarize.main_npp(npp)
            alt = next((r for r in npp if r.get("path") != "-"), None)
            ok = auto is not None and auto.get("status") == "ok"
            pct = f"{auto['pct_copy']:.0f} %" if ok else ""
            ratio = (f"{main['median_ms'] / auto['median_ms']:.2f}x"
                     if ok and main and main.get("status") == "ok" and auto["median_ms"] else "")
            paths = [cell(by.get(p)) if "-" not in by else "—"
                     for p in ("global", "shared", "texture")]
            print(f"| {op} | {params} | " + " | ".join(paths) +
                  f" | {cell(auto)}{chose} | {cell(main)} | {cell(alt)} | {pct} | {ratio} |")
        print()
    print("### Issue 3's targets and the peers (8192x8192, texcv's default path)\n")
    print("| op | config | path | texcv ms | %copy | NPP ms | CuPy ms | torch ms | target | met? |")
    print("| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |")
    for cfg, op, params, tx, npp, libs in groups:
        auto = next((r for r in tx if summarize.is_default_path(r)), None)
        target = summarize.target_for(cfg, op, params)
        path = "" if auto is None else auto["path"] + (
            f" ({auto['auto_choice']})" if auto.get("auto_choice") else "")
        pct = (f"{auto['pct_copy']:.0f} %" if auto and auto.get("status") == "ok"
               and auto.get("pct_copy") is not None else "")
        torch_row = libs.get("torch") or libs.get("torchvision")
        print(f"| {op} {params} | {cfg} | {path} | {cell(auto)} | {pct} | "
              f"{cell(summarize.main_npp(npp))} | {cell(libs.get('cupy'))} | {cell(torch_row)} | "
              f"{summarize.target_text(target)} | {summarize.target_met(target, auto)} |")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bench", required=True)
    ap.add_argument("--peers")
    ap.add_argument("--commit", default="?")
    ap.add_argument("--suite", default="geometry", choices=("geometry", "filters"))
    a = ap.parse_args()
    if a.suite == "filters":
        filters_report(a)
        return
    b = json.load(open(a.bench))
    meta = b.get("meta", {})
    rows = b["rows"]
    print(f"GPU: {meta.get('gpu', meta.get('device', '?'))} — commit {a.commit} — "
          f"NPP {meta.get('npp', '?')} — median of {meta.get('reps', 20)} after warm-up\n")
    configs = []
    for r in rows:
        if r["config"] not in configs:
            configs.append(r["config"])
    auto_ms = {}
    for cfg in configs:
        rs = [r for r in rows if r["config"] == cfg]
        floor = next((r for r in rs if r["op"] == "copy" and r["params"] == "floor d2d"), None)
        m2d = next((r for r in rs if r["op"] == "copy" and r["params"] == "cudaMemcpy2D"), None)
        r0 = rs[0]
        head = f"### {cfg}: {r0['width']}x{r0['height']} {r0['type']} x{r0['channels']}"
        if floor and floor["status"] == "ok":
            head += (f" (copy floor {fmt(floor['median_ms'])} ms, {floor['gbps'] / 1000:.2f} TB/s"
                     f" read + write")
            if m2d and m2d["status"] == "ok":
                head += f"; cudaMemcpy2DAsync {fmt(m2d['median_ms'])} ms"
            head += ")"
        print(head + "\n")
        print("| op | params | global | texture | texture_filter (fast) | auto (chose) | NPP "
              "| default %copy | NPP / default |")
        print("| --- | --- | --- | --- | --- | --- | --- | --- | --- |")
        keys = []
        for r in rs:
            k = (r["op"], r["params"])
            if r["op"] != "copy" and k not in keys:
                keys.append(k)
        for op, params in keys:
            g = [r for r in rs if (r["op"], r["params"]) == (op, params)]
            by = {}
            peer = None
            for r in g:
                if r["impl"] == "texcv":
                    by[r["path"].split("->")[0]] = r
                else:
                    peer = r

            def ms(p):
                r = by.get(p)
                if r is None:
                    return "—"
                return fmt(r["median_ms"]) if r["status"] == "ok" else "n/a"

            auto = by.get("auto") or by.get("-")
            chose = ""
            if auto is not None and "->" in auto.get("path", ""):
                chose = " (" + auto["path"].split("->")[1] + ")"
            default_ms = auto["median_ms"] if auto and auto["status"] == "ok" else None
            auto_ms[(cfg, op, params)] = default_ms
            pct = f"{auto['pct_copy']:.0f} %" if default_ms else ""
            npp = fmt(peer["median_ms"]) if peer and peer["status"] == "ok" else ""
            ratio = (f"{peer['median_ms'] / default_ms:.2f}x"
                     if peer and peer["status"] == "ok" and default_ms else "")
            if op in ("flip", "crop"):
                print(f"| {op} | {params} | — | — | — | {fmt(default_ms)} | {npp} | {pct} | {ratio} |")
            else:
                print(f"| {op} | {params} | {ms('global')} | {ms('texture')} | "
                      f"{ms('texture_filter')} | {fmt(default_ms)}{chose} | {npp} | {pct} | {ratio} |")
        print()
    if a.peers:
        p = json.load(open(a.peers))
        p["rows"] = [r for r in p["rows"] if r.get("suite", "geometry") == "geometry"]
        pm = p.get("meta", {})
        print("### Python peers, same inputs (bench/peers.py)\n")
        print(", ".join(f"{k} {v}" for k, v in pm.items() if isinstance(v, str))[:300] + "\n")
        libs = []
        for r in p["rows"]:
            if r["lib"] not in libs:
                libs.append(r["lib"])
        print("| config | op | params | texcv default | " + " | ".join(libs) + " |")
        print("| --- | --- | --- | --- | " + " | ".join("---" for _ in libs) + " |")
        keys = []
        for r in p["rows"]:
            k = (r["config"], r["op"], r["params"])
            if r["op"] != "copy" and k not in keys:
                keys.append(k)
        for k in keys:
            cells = []
            for lib in libs:
                r = next((r for r in p["rows"] if (r["config"], r["op"], r["params"]) == k
                          and r["lib"] == lib), None)
                cells.append("" if r is None else (fmt(r["median_ms"]) if r["status"] == "ok"
                                                   else "n/a"))
            print(f"| {k[0]} | {k[1]} | {k[2]} | {fmt(auto_ms.get(k))} | " + " | ".join(cells) + " |")


if __name__ == "__main__":
    main()
