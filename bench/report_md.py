#!/usr/bin/env python3
"""Markdown tables for docs/performance.md from a run's bench.json and peers.json.

  python3 bench/report_md.py --bench OUT/bench.json --peers OUT/peers.json --commit HASH

Per configuration: each op's median ms on every texcv path, the automatic choice, NPP, the best
exact (default) path's share of the copy floor, and texcv's best exact path over NPP; then the
Python peers beside texcv's default path.
"""
import argparse
import json


def fmt(v):
    if v is None:
        return ""
    return f"{v:.4f}" if v < 0.1 else f"{v:.3f}"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bench", required=True)
    ap.add_argument("--peers")
    ap.add_argument("--commit", default="?")
    a = ap.parse_args()
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
