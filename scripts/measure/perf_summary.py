#!/usr/bin/env python3
"""The table of scripts/measure/perf_compare.sh from its artifacts: per system, TTFAB p50/p95 at each
rung, playback stalls, requests per second, audio seconds per wall second, Q_max at the SLO
(the highest rung, usable and within it, below which every rung was too), the load average
around each rung, and the saturated server throughput as a fraction of the model-only limit.

    python3 scripts/measure/perf_summary.py --dir testdata/perf/compare --slo-ms 2000 --systems a,b
"""
import argparse
import glob
import json
import os
import re

BYTES_PER_S = 48000  # PCM16 mono 24 kHz


def rung(dirpath):
    arts = glob.glob(os.path.join(dirpath, "qmax-*.json"))
    if not arts:
        return None
    with open(arts[0]) as f:
        a = json.load(f)
    if not a.get("steps"):
        return None
    st = a["steps"][0]
    hold, window = a["config"]["hold_s"], a["config"]["measure_window_s"]
    lo, hi = (hold - window) * 1e9, hold * 1e9
    audio, stalled, n_ok = 0.0, 0, 0
    for path in glob.glob(os.path.join(dirpath, "qmax-*.jsonl")):
        with open(path) as f:
            for line in f:
                r = json.loads(line)
                if r["outcome"] != "ok" or not lo <= r["end_ns"] <= hi:
                    continue
                n_ok += 1
                audio += r["audio_bytes"] / BYTES_PER_S
                stalled += r["stalls"] > 0
    load = ""
    for k in ("before", "after"):
        p = os.path.join(dirpath, f"load-{k}.txt")
        if os.path.exists(p):
            load += open(p).read().split()[0] + ("→" if k == "before" else "")
    return {
        "p50": st["ttfab_p50_ms"], "p95": st["ttfab_p95_ms"], "rps": st["achieved_rps"],
        "stall_p95": st.get("stall_p95_ms", 0), "stalled": stalled, "ok": n_ok,
        "usable": st["usable"], "audio_rate": audio / window, "load": load,
    }


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--dir", required=True)
    ap.add_argument("--slo-ms", type=float, default=2000)
    ap.add_argument("--systems", required=True)
    args = ap.parse_args()
    systems = args.systems.split(",")
    data, ladder = {}, set()
    for s in systems:
        data[s] = {}
        for d in glob.glob(os.path.join(args.dir, "runs", s, "n*")):
            n = int(os.path.basename(d)[1:])
            r = rung(d)
            if r:
                data[s][n] = r
                ladder.add(n)
    ladder = sorted(ladder)

    with open(os.path.join(args.dir, "host.txt")) as f:
        print("```\n" + f.read().strip() + "\n```\n")
    print(f"TTFAB p50 / p95 in ms (time to the first audio byte), playback stall p95 in ms and the requests "
          f"that stalled, requests per second, audio seconds delivered per wall-clock second; "
          f"the load average before→after each rung. Q_max: the highest rung with p95 TTFAB ≤ "
          f"{args.slo_ms:.0f} ms with every rung below it within the SLO too.\n")
    head = "| system | Q_max | " + " | ".join(f"N={n}" for n in ladder) + " |"
    print(head)
    print("|---|---|" + "---|" * len(ladder))
    qmax = {}
    for s in systems:
        q, ok = 0, True
        cells = []
        for n in ladder:
            r = data[s].get(n)
            if not r:
                cells.append("—")
                ok = False
                continue
            if ok and r["usable"] and r["p95"] <= args.slo_ms:
                q = n
            else:
                ok = False
            flag = "" if r["usable"] else " (unusable)"
            cells.append(f"{r['p50']:.0f} / {r['p95']:.0f}; stall {r['stall_p95']:.0f} ({r['stalled']}/{r['ok']}); "
                         f"{r['rps']:.2f} rps; {r['audio_rate']:.2f} s/s; load {r['load']}{flag}")
        qmax[s] = q
        print(f"| {s} | {q} | " + " | ".join(cells) + " |")

    limit = None
    mo = os.path.join(args.dir, "model-only.txt")
    if os.path.exists(mo):
        text = open(mo).read()
        m = re.search(r"model-only limit: ([0-9.]+) audio s/s \(slot threads ([0-9,]+)\)", text)
        if m:
            limit = float(m.group(1))
        print("\nModel-only limit (`kokoro tune --model-only`, no server, all cores busy, whole texts):\n")
        print("```\n" + text.strip() + "\n```")
    print()
    for s in systems:
        if not data[s]:
            continue
        top = max(data[s].values(), key=lambda r: r["audio_rate"])
        line = f"- {s}: saturated throughput {top['audio_rate']:.2f} audio s/s"
        if limit and s.startswith("kokoro") and s != "kokoro-onnx":
            line += f", {100 * top['audio_rate'] / limit:.0f} % of the model-only limit"
        print(line)
    base = "fastkokoro"
    if "kokoro" in data and base in data:
        print()
        k, f = data["kokoro"], data[base]
        if qmax.get(base):
            print(f"- Q_max at {args.slo_ms:.0f} ms: kokoro {qmax['kokoro']}, fastkokoro {qmax[base]} "
                  f"({qmax['kokoro'] / qmax[base]:.1f}×)")
        else:
            print(f"- Q_max at {args.slo_ms:.0f} ms: kokoro {qmax['kokoro']}, fastkokoro 0")
        if 1 in k:
            old = data.get("kokoro-old", {})
            print(f"- N=1 p50 TTFAB: kokoro {k[1]['p50']:.0f} ms" + (f", fastkokoro {f[1]['p50']:.0f} ms" if 1 in f else "")
                  + (f", kokoro's old default {old[1]['p50']:.0f} ms ({k[1]['p50'] / old[1]['p50']:.2f}×)" if 1 in old else ""))
        if 4 in k and 4 in f and f[4]["rps"] > 0:
            print(f"- rps at N=4: kokoro {k[4]['rps']:.2f}, fastkokoro {f[4]['rps']:.2f} ({k[4]['rps'] / f[4]['rps']:.2f}×)")
        q = qmax["kokoro"]
        if q in k:
            print(f"- playback stalls at kokoro's Q_max (N={q}): {k[q]['stalled']} of {k[q]['ok']} requests")


if __name__ == "__main__":
    main()
