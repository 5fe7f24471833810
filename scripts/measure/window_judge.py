#!/usr/bin/env python3
"""Judges decoder windows by ear-proxies: several kokoro servers speak the same sentences with
the same voices, and each system is compared with one that speaks every sentence whole.

  window_judge.py --system NAME=URL ... --whole NAME --sentences FILE --voices a,b --out DIR

Per system and voice:
  WER       word error rate of the offline recognizer (listen_bench.py's judge: the audible
            speech framed in the same silence), with the 95 % interval of its difference from
            the whole system's and from the --baseline system's (paired bootstrap over
            sentences)
  level     |level difference| from the whole decode per 100 ms of speech (frames where the
            whole decode is above -40 dBFS), median and 95th percentile, dB: the two are aligned
            at their first audible sample, which the windows leave where the whole decode has it
            (same predictor, same durations); for a system that cuts the text into chunks the
            speech drifts apart after the first cut, and its figure says little
  floor     the noise floor in the pauses and at the edges: median level of the 10 ms frames
            that the whole decode has under -50 dBFS inside its speech and in the 100 ms around
            it, dBFS, beside the whole decode's own
  clicks    10 ms frames whose energy above 4 kHz stands 10 dB over the median of the 200 ms
            around them where the whole decode's does not: a join heard as a click
"""
import argparse
import concurrent.futures
import json
import os
import sys
import urllib.request

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import listen_bench as lb  # noqa: E402

RATE = lb.RATE


def speak(url, text, voice, path):
    if not os.path.exists(path):
        body = json.dumps({"text": text, "voice": voice, "stream": False}).encode()
        req = urllib.request.Request(url + "/invocations", data=body, headers={"Content-Type": "application/json"})
        with urllib.request.urlopen(req, timeout=600) as r:
            data = r.read()
        with open(path, "wb") as f:
            f.write(data)
    return lb.read_wav(path)


def frame_db(x, n):
    m = len(x) // n
    f = np.asarray(x[: m * n], dtype=np.float64).reshape(m, n)
    return 10 * np.log10((f**2).mean(axis=1) + 1e-12)


def aligned(a, b):
    sa, _ = lb.audible_span(a)
    sb, _ = lb.audible_span(b)
    a, b = a[sa:], b[sb:]
    n = min(len(a), len(b))
    return a[:n], b[:n]


def level_diffs(x, whole):
    x, w = aligned(x, whole)
    lx, lw = frame_db(x, RATE // 10), frame_db(w, RATE // 10)
    speech = lw > -40
    return np.abs(lx - lw)[speech]


def floor(x, whole):
    """Median level of the frames the whole decode has silent inside its speech and around it."""
    x, w = aligned(x, whole)
    lx, lw = frame_db(x, RATE // 100), frame_db(w, RATE // 100)
    loud = np.flatnonzero(lw > lb.FLOOR_DB)
    if len(loud) == 0:
        return None, None
    lo, hi = max(0, loud[0] - 10), min(len(lw), loud[-1] + 10)
    quiet = np.zeros(len(lw), bool)
    quiet[lo:hi] = lw[lo:hi] <= lb.FLOOR_DB
    if not quiet.any():
        return None, None
    return float(np.median(lx[quiet])), float(np.median(lw[quiet]))


def high_band_db(x):
    n = RATE // 100
    m = len(x) // n
    f = np.asarray(x[: m * n], dtype=np.float64).reshape(m, n) * np.hanning(n)
    spec = np.abs(np.fft.rfft(f, axis=1)) ** 2
    hz = np.fft.rfftfreq(n, 1 / RATE)
    return 10 * np.log10(spec[:, hz >= 4000].sum(axis=1) + 1e-12)


def clicks(x, whole):
    x, w = aligned(x, whole)
    hx, hw = high_band_db(x), high_band_db(w)

    def spikes(h):
        out = np.zeros(len(h), bool)
        for i in range(len(h)):
            around = np.concatenate([h[max(0, i - 10):i], h[i + 1:i + 11]])
            if len(around):
                out[i] = h[i] > np.median(around) + 10
        return out
    sx, sw = spikes(hx), spikes(hw)
    near = np.convolve(sw.astype(int), np.ones(5, int), mode="same") > 0  # within 20 ms
    return int((sx & ~near).sum())


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--system", action="append", required=True, help="NAME=URL")
    ap.add_argument("--whole", required=True, help="the system that speaks each sentence whole")
    ap.add_argument("--baseline", help="a system every other is also compared with (today's default)")
    ap.add_argument("--sentences", required=True)
    ap.add_argument("--voices", default="af_heart,bf_emma")
    ap.add_argument("--out", required=True)
    ap.add_argument("--jobs", type=int, default=2)
    args = ap.parse_args()
    systems = dict(s.split("=", 1) for s in args.system)
    sentences = lb.read_sentences(args.sentences)
    voices = args.voices.split(",")
    os.makedirs(args.out, exist_ok=True)

    def job(k):
        name, voice, i = k
        path = os.path.join(args.out, f"{name}-{voice}-{i:02d}.wav")
        x = speak(systems[name], sentences[i], voice, path)
        hyp = lb.transcribe(path)
        return k, x, lb.word_errors(sentences[i], hyp)

    keys = [(n, v, i) for i in range(len(sentences)) for v in voices for n in systems]
    got = {}
    with concurrent.futures.ThreadPoolExecutor(args.jobs) as ex:
        for k, x, we in ex.map(job, keys):
            got[k] = (x, we)
    lines = [f"sentences: {args.sentences} ({len(sentences)}); whole: {args.whole}", "",
             f"| system | voice | WER | WER − whole (95 % interval) | WER − {args.baseline or 'baseline'} | level |d| median / p95 dB | floor dBFS (whole) | clicks |",
             "|---|---|---|---|---|---|---|---|"]
    for voice in voices:
        for name in systems:
            errs = [got[(name, voice, i)][1][0] for i in range(len(sentences))]
            refs = [got[(name, voice, i)][1][1] for i in range(len(sentences))]
            werr = sum(errs) / sum(refs)
            wh = [got[(args.whole, voice, i)][1][0] for i in range(len(sentences))]
            lo, hi = lb.bootstrap_diff(errs, wh, refs)
            vs = "—"
            if args.baseline:
                bl = [got[(args.baseline, voice, i)][1][0] for i in range(len(sentences))]
                blo, bhi = lb.bootstrap_diff(errs, bl, refs)
                vs = f"{100 * blo:+.1f} … {100 * bhi:+.1f}"
            d, fl, fw, ck = [], [], [], 0
            for i in range(len(sentences)):
                x, w = got[(name, voice, i)][0], got[(args.whole, voice, i)][0]
                d.extend(level_diffs(x, w))
                a, b = floor(x, w)
                if a is not None:
                    fl.append(a)
                    fw.append(b)
                ck += clicks(x, w)
            lines.append(f"| {name} | {voice} | {100 * werr:.1f} % | {100 * lo:+.1f} … {100 * hi:+.1f} | {vs} | "
                         f"{np.median(d):.2f} / {np.percentile(d, 95):.2f} | {np.median(fl):.1f} ({np.median(fw):.1f}) | {ck} |")
    text = "\n".join(lines) + "\n"
    with open(os.path.join(args.out, "report.md"), "w") as f:
        f.write(text)
    print(text)


if __name__ == "__main__":
    main()
