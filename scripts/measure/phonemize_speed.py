#!/usr/bin/env python3
"""Phonemizer speed against misaki 0.9.4, side by side in one run on one machine.

Both read the same sentences (the wild development corpus, US and GB) in alternating rounds:
misaki in this process (spaCy and its espeak-ng library loaded and warmed up first), the Go
phonemizer as `kokoro phonemize --batch - --timing`, a fresh process per round that reads the
sentences twice: the first pass meets every unknown word for the first time (each read by
espeak-ng's library, or by its helper process where the library does not load), the second
finds them in its cache. Only the time spent phonemizing is
counted on either side (not start-up or loading). Writes the result, with a description of the
host, to phonemize/en/testdata/speed_vs_misaki.json:

    make build
    .venv-misaki/bin/python scripts/measure/phonemize_speed.py [--rounds 5] [--kokoro bin/kokoro]
"""
import argparse
import datetime
import json
import os
import platform
import statistics
import subprocess
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "reference"))
from gen_phoneme_corpus import ROOT, TESTDATA, load_spacy_model, versions  # noqa: E402


def sentences():
    out = []
    with open(os.path.join(TESTDATA, "misaki_wild_dev.tsv"), encoding="utf-8") as f:
        for line in f:
            if line.startswith("#") or not line.strip():
                continue
            d, text, _ = line.rstrip("\n").split("\t")
            out.append((d, text))
    return out


def go_round(kokoro, rows):
    """One fresh process per dialect; each reads its sentences twice. Returns (first, warm)
    total seconds over all rows."""
    first = warm = 0.0
    for d in ("us", "gb"):
        texts = [t for dd, t in rows if dd == d]
        data = ("\n".join(texts) + "\n") * 2
        r = subprocess.run([kokoro, "phonemize", "--lang", "en-" + d, "--batch", "-", "--timing"],
                           input=data, capture_output=True, text=True, check=True)
        ns = [int(x) for x in r.stderr.split()]
        if len(ns) != 2 * len(texts):
            sys.exit(f"kokoro reported {len(ns)} timings for {2 * len(texts)} lines")
        first += sum(ns[:len(texts)]) / 1e9
        warm += sum(ns[len(texts):]) / 1e9
    return first, warm


def host():
    cpu = ""
    try:
        for line in open("/proc/cpuinfo"):
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    esp = subprocess.run(["espeak-ng", "--version"], capture_output=True, text=True).stdout.strip()
    gov = subprocess.run(["go", "version"], capture_output=True, text=True).stdout.strip()
    return {
        "cpu": cpu, "cores": os.cpu_count(), "load_average_at_start": os.getloadavg(),
        "os": platform.platform(), "python": platform.python_version(), "go": gov,
        "espeak_ng_cli": esp, "reference": versions(),
        "date": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
    }


def compare(old, new, rounds):
    """Alternating rounds of two kokoro binaries; prints each one's median µs per sentence."""
    rows = sentences()
    times = {old: ([], []), new: ([], [])}
    for _ in range(rounds):
        for b in (old, new):
            f, w = go_round(b, rows)
            times[b][0].append(f / len(rows) * 1e6)
            times[b][1].append(w / len(rows) * 1e6)
    for name, b in (("old", old), ("new", new)):
        f, w = times[b]
        print("%s %s: first sight %.1f µs, warm cache %.1f µs a sentence (medians of %d rounds; warm by round: %s)"
              % (name, b, statistics.median(f), statistics.median(w), rounds, " ".join("%.0f" % x for x in w)))
    ratios = [o / n for o, n in zip(times[old][1], times[new][1])]
    print("warm cache, old/new by round: median %.3f, %d of %d rounds above 1"
          % (statistics.median(ratios), sum(r > 1 for r in ratios), rounds))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--kokoro", default=os.path.join(ROOT, "bin", "kokoro"))
    ap.add_argument("--against", metavar="OLD", help="time this kokoro binary against --kokoro instead of misaki")
    args = ap.parse_args()
    if args.against:
        compare(args.against, args.kokoro, args.rounds)
        return
    info = host()
    load_spacy_model()
    from misaki import en, espeak
    g2ps = {d: en.G2P(trf=False, british=(d == "gb"), fallback=espeak.EspeakFallback(british=(d == "gb")), unk="")
            for d in ("us", "gb")}
    rows = sentences()
    for d, t in rows[:50]:  # warm-up: models loaded, caches of the Python runtime filled
        g2ps[d](t)
    misaki, first, warm = [], [], []
    for _ in range(args.rounds):
        t0 = time.perf_counter()
        for d, t in rows:
            g2ps[d](t)
        misaki.append(time.perf_counter() - t0)
        f, w = go_round(args.kokoro, rows)
        first.append(f)
        warm.append(w)
    n = len(rows)

    def per(xs):
        us = [x / n * 1e6 for x in xs]
        return {"median_us": round(statistics.median(us), 1), "min_us": round(min(us), 1),
                "max_us": round(max(us), 1)}
    m, f, w = per(misaki), per(first), per(warm)
    ratio = lambda a, b: [round(x / y, 1) for x, y in zip(a, b)]  # noqa: E731
    out = {
        "what": "microseconds per sentence over the wild development corpus (US and GB), "
                "misaki in-process and the Go phonemizer in a fresh process per round, "
                "alternating rounds in one run; ratios are misaki time / Go time per round",
        "command": ".venv-misaki/bin/python scripts/measure/phonemize_speed.py --rounds %d" % args.rounds,
        "sentences": n, "rounds": args.rounds, "host": info,
        "misaki": m, "go_first_sight": f, "go_warm_cache": w,
        "ratio_first_sight": {"median": round(statistics.median(ratio(misaki, first)), 1),
                              "per_round": ratio(misaki, first)},
        "ratio_warm_cache": {"median": round(statistics.median(ratio(misaki, warm)), 1),
                             "per_round": ratio(misaki, warm)},
    }
    path = os.path.join(TESTDATA, "speed_vs_misaki.json")
    with open(path, "w") as fh:
        json.dump(out, fh, indent=2)
        fh.write("\n")
    print(json.dumps(out, indent=2))


if __name__ == "__main__":
    main()
