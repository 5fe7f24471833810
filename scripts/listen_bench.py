#!/usr/bin/env python3
"""Side-by-side listening benchmark: kokoro against its peers on the same model and voices.

Every system speaks the same sentences with the same int8 model file and the same voice
vectors (assets/), and one judge scores them all: the offline recognizer from Debian
(pocketsphinx with its US English model) for the word error rate, and the waveform for
silence (10 ms frames under -50 dBFS RMS, as audio.SilenceFloorDB in Go).

Systems:
  kokoro        this repository's server, POST /invocations, streamed WAV, default chunking
  kokoro@REV    the same from another build (scripts/listen_bench.sh --baseline REV)
  fastkokoro    fastkokoro 0.7.0 (espeak-ng phonemes)
  kokoro-onnx   kokoro-onnx 0.6.1 (espeak-ng phonemes)
  reference     misaki 0.9.4's own phonemes (the G2P Kokoro was trained with), spoken by
                kokoro-onnx from phonemes: the model and voice with misaki's reading and no
                chunking, to tell our defects from the judge's accent

Modes:
  phonemes  (run with the misaki environment) writes misaki's phonemes for the sentences
  run       (run with the peers' environment) synthesizes, judges and writes the report
  pauses    measures the silences kokoro leaves at each kind of punctuation when it speaks a
            sentence unsplit (serve with --first-chunk-ids 510 --max-chunk-ids 510): the
            calibration of tts/joins.go

scripts/listen_bench.sh sets up both environments and runs everything.
"""
import argparse
import concurrent.futures
import json
import os
import platform
import random
import re
import subprocess
import sys
import tempfile
import time
import urllib.request
import wave

import numpy as np

RATE = 24000
JUDGE_RATE = 16000
FLOOR_DB = -50.0
MODEL_DIR = "/usr/share/pocketsphinx/model/en-us"


def read_sentences(path):
    with open(path, encoding="utf-8") as f:
        return [line.strip() for line in f if line.strip() and not line.startswith("#")]


def lang_of(voice):
    return "gb" if voice.startswith("b") else "us"


# --- misaki (the reference G2P) ------------------------------------------------------------

def cmd_phonemes(args):
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    from gen_phoneme_corpus import load_spacy_model

    load_spacy_model()
    from misaki import en, espeak

    out = {}
    for lang in ("us", "gb"):
        brit = lang == "gb"
        g2p = en.G2P(trf=False, british=brit, fallback=espeak.EspeakFallback(british=brit), unk="")
        out[lang] = [g2p(s)[0] for s in read_sentences(args.sentences)]
    with open(args.out, "w", encoding="utf-8") as f:
        json.dump(out, f, ensure_ascii=False, indent=1)


# --- audio helpers -------------------------------------------------------------------------

def write_wav(path, pcm, rate):
    x = np.clip(np.asarray(pcm, dtype=np.float64), -1, 1)
    data = np.round(x * 32767).astype("<i2").tobytes()
    with wave.open(path, "wb") as w:
        w.setnchannels(1)
        w.setsampwidth(2)
        w.setframerate(rate)
        w.writeframes(data)


def read_wav(path):
    with wave.open(path, "rb") as w:
        assert w.getframerate() == RATE and w.getnchannels() == 1 and w.getsampwidth() == 2, path
        return np.frombuffer(w.readframes(w.getnframes()), dtype="<i2").astype(np.float32) / 32768


def resample(x, rate_in, rate_out, half_taps=24):
    """Windowed-sinc resampler with the same design as internal/listen.Resample."""
    step = rate_in / rate_out
    cut = 0.9 * 0.5 * min(1, 1 / step)
    width = half_taps * max(1, step)
    m = int(len(x) / step)
    t = np.arange(m) * step
    k0 = np.ceil(t - width).astype(int)
    span = int(2 * width) + 2
    idx = k0[:, None] + np.arange(span)[None, :]
    d = t[:, None] - idx
    win = np.where(np.abs(d / width) < 1, 0.42 + 0.5 * np.cos(np.pi * d / width) + 0.08 * np.cos(2 * np.pi * d / width), 0)
    h = 2 * cut * np.sinc(2 * cut * d) * win
    valid = (idx >= 0) & (idx < len(x))
    xs = np.where(valid, np.asarray(x, dtype=np.float64)[np.clip(idx, 0, len(x) - 1)], 0)
    return (xs * h).sum(axis=1)


def silences(x):
    """Leading and trailing silence and the pauses inside the speech, in seconds."""
    f = RATE // 100
    m = (len(x) + f - 1) // f
    pad = np.zeros(m * f, dtype=np.float64)
    pad[: len(x)] = x
    frames = pad.reshape(m, f)
    counts = np.full(m, f)
    counts[-1] = len(x) - (m - 1) * f
    power = (frames**2).sum(axis=1) / counts
    loud = power > 10 ** (FLOOR_DB / 10)
    on = np.flatnonzero(loud)
    if len(on) == 0:
        return {"lead": len(x) / RATE, "trail": 0.0, "pauses": []}
    first, last = on[0], on[-1]
    pauses, run = [], 0
    for i in range(first, last + 1):
        if loud[i]:
            if run >= 5:
                pauses.append(run / 100)
            run = 0
        else:
            run += 1
    return {"lead": first * f / RATE, "trail": max(0.0, (len(x) - (last + 1) * f) / RATE), "pauses": pauses}


# --- the judge -----------------------------------------------------------------------------

# The recognizer estimates its noise floor and segments speech from the audio's first frames: a
# clip whose speech starts within tens of milliseconds loses its first word (measured: every
# system trimmed that tight lost "the"/"could"/"when" where an untrimmed one kept it). Every clip
# is heard with the same half second of silence around it, so the judge scores words; silence is
# measured on the clip itself.
JUDGE_PAD_S = 0.5


def transcribe(wav24):
    x = read_wav(wav24)
    pad = np.zeros(int(JUDGE_PAD_S * RATE), dtype=x.dtype)
    x = resample(np.concatenate([pad, x, pad]), RATE, JUDGE_RATE)
    with tempfile.NamedTemporaryFile(suffix=".wav", delete=False) as f:
        tmp = f.name
    try:
        write_wav(tmp, x, JUDGE_RATE)
        out = subprocess.run(
            ["pocketsphinx_continuous", "-infile", tmp, "-hmm", f"{MODEL_DIR}/en-us",
             "-lm", f"{MODEL_DIR}/en-us.lm.bin", "-dict", f"{MODEL_DIR}/cmudict-en-us.dict",
             "-logfn", os.devnull],
            check=True, capture_output=True, text=True)
        return " ".join(out.stdout.lower().split())
    finally:
        os.remove(tmp)


def words(text):
    text = re.sub(r"(?<=[a-z])['’](?=[a-z])", "'", text.lower())
    return re.sub(r"[^a-z0-9']+|(?<![a-z])'|'(?![a-z])", " ", text).split()


def word_errors(ref, hyp):
    r, h = words(ref), words(hyp)
    prev = list(range(len(h) + 1))
    for i in range(1, len(r) + 1):
        cur = [i] + [0] * len(h)
        for j in range(1, len(h) + 1):
            cur[j] = min(prev[j - 1] + (r[i - 1] != h[j - 1]), prev[j] + 1, cur[j - 1] + 1)
        prev = cur
    return prev[len(h)], len(r)


# --- the systems ---------------------------------------------------------------------------

def voices_npz(voices_dir, names, path):
    arrays = {}
    for v in names:
        raw = np.fromfile(os.path.join(voices_dir, v + ".bin"), dtype="<f4")
        arrays[v] = raw.reshape(510, 1, 256)
    np.savez(path, **arrays)


class Kokoro:
    """This repository's server over HTTP, exactly as a client hears it."""

    def __init__(self, url):
        self.url = url.rstrip("/") + "/invocations"

    def speak(self, text, voice):
        body = json.dumps({"text": text, "voice": voice, "stream": True, "format": "wav"}).encode()
        req = urllib.request.Request(self.url, data=body, headers={"Content-Type": "application/json"})
        with urllib.request.urlopen(req, timeout=600) as r:
            data = r.read()
        return np.frombuffer(data[44:], dtype="<i2").astype(np.float32) / 32768


class KokoroOnnx:
    def __init__(self, model, voices):
        from kokoro_onnx import Kokoro as K

        self.k = K(model, voices)

    def speak(self, text, voice):
        audio, _ = self.k.create(text, voice=voice, lang="en-gb" if lang_of(voice) == "gb" else "en-us")
        return audio


class Reference:
    """misaki's phonemes through the same model and voice, unsplit."""

    def __init__(self, onnx, phonemes, sentences):
        self.onnx, self.ps = onnx, {}
        for lang, rows in phonemes.items():
            for s, p in zip(sentences, rows):
                self.ps[(lang, s)] = p

    def speak(self, text, voice):
        audio, _ = self.onnx.k.create(self.ps[(lang_of(voice), text)], voice=voice, is_phonemes=True)
        return audio


class FastKokoro:
    def __init__(self, model, voices):
        os.environ["FASTKOKORO_MODEL_PATH"] = model
        os.environ["FASTKOKORO_VOICES_PATH"] = voices
        os.environ.setdefault("FASTKOKORO_WARMUP", "false")
        from fastkokoro.engine import FastKokoro as F

        self.f = F()

    def speak(self, text, voice):
        data = self.f.create(text, voice=voice, response_format="pcm")
        return np.frombuffer(data, dtype="<i2").astype(np.float32) / 32768


# --- the run -------------------------------------------------------------------------------

def bootstrap_diff(a, b, n_ref, iters=10000, seed=1):
    """95 % interval of WER(a) - WER(b) over sentences, resampled in pairs."""
    rng = random.Random(seed)
    k = len(a)
    out = []
    for _ in range(iters):
        idx = [rng.randrange(k) for _ in range(k)]
        words_ = sum(n_ref[i] for i in idx)
        out.append((sum(a[i] for i in idx) - sum(b[i] for i in idx)) / words_)
    out.sort()
    return out[int(0.025 * iters)], out[int(0.975 * iters)]


def make_system(name, url, args, npz, sentences):
    """Builds one system in the process that will use it."""
    if url:
        return Kokoro(url)
    if name == "fastkokoro":
        return FastKokoro(args.model, npz)
    onnx = KokoroOnnx(args.model, npz)
    if name == "kokoro-onnx":
        return onnx
    with open(args.misaki, encoding="utf-8") as f:
        return Reference(onnx, json.load(f), sentences)


def synthesize(name, url, args, npz, sentences, jobs):
    """Speaks one system's jobs, one at a time, in a process of its own."""
    sys_ = None
    for _, voice, i, text, path in jobs:
        # The peers' audio is kept between runs (same model, same input, same samples);
        # kokoro's is made anew unless its label names a fixed build (kokoro@REV).
        if os.path.exists(path) and (not url or "@" in name):
            continue
        sys_ = sys_ or make_system(name, url, args, npz, sentences)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        t0 = time.time()
        pcm = sys_.speak(text, voice)
        write_wav(path + ".part", pcm, RATE)
        os.replace(path + ".part", path)
        print(f"{name} {voice} {i + 1}: {len(pcm) / RATE:.2f} s audio in {time.time() - t0:.1f} s",
              file=sys.stderr, flush=True)


def judge(job):
    name, voice, i, text, path = job
    hyp = transcribe(path)
    errs, n = word_errors(text, hyp)
    x = read_wav(path)
    return {"system": name, "voice": voice, "sentence": i + 1, "text": text, "heard": hyp,
            "errors": errs, "words": n, "audio_s": len(x) / RATE, **silences(x)}


def cmd_run(args):
    sentences = read_sentences(args.sentences)
    voices = args.voices.split(",")
    os.makedirs(args.out, exist_ok=True)
    systems = {}  # name -> server URL for kokoro builds, None for the peers
    for spec in args.kokoro:
        label, url = spec.split("=", 1)
        systems[label] = url
    for name in ("fastkokoro", "kokoro-onnx", "reference"):
        if not args.systems or name in args.systems.split(","):
            systems[name] = None
    npz = os.path.join(args.out, "voices.npz")
    voices_npz(args.voices_dir, voices, npz)

    peer_voices = args.peer_voices.split(",") if args.peer_voices else voices
    jobs = {name: [] for name in systems}
    for voice in voices:
        for name, url in systems.items():
            if not url and voice not in peer_voices:
                continue
            for i, text in enumerate(sentences):
                jobs[name].append((name, voice, i, text, os.path.join(args.out, "wav", name, voice, f"{i + 1:02d}.wav")))
    # One process per system: they share nothing, and each keeps its model loaded.
    with concurrent.futures.ProcessPoolExecutor(max_workers=len(systems)) as pool:
        for f in [pool.submit(synthesize, n, u, args, npz, sentences, jobs[n]) for n, u in systems.items()]:
            f.result()
    with concurrent.futures.ThreadPoolExecutor(max_workers=args.jobs) as pool:
        rows = list(pool.map(judge, [j for n in systems for j in jobs[n]]))
    with open(os.path.join(args.out, "results.jsonl"), "w", encoding="utf-8") as f:
        for r in rows:
            f.write(json.dumps(r, ensure_ascii=False) + "\n")
    with open(args.misaki, encoding="utf-8") as f:
        agree = phoneme_agreement(args.kokoro_bin, json.load(f), sentences) if args.kokoro_bin else None
    report(rows, sentences, voices, list(systems), args, agree)


def phoneme_agreement(kokoro_bin, phonemes, sentences):
    """How many sentences our phonemizer reads exactly as misaki does, per dialect."""
    out = {}
    for lang, flag in (("us", "en-us"), ("gb", "en-gb")):
        same = 0
        for s, ref in zip(sentences, phonemes[lang]):
            got = subprocess.run([kokoro_bin, "phonemize", "--lang", flag, s], check=True,
                                 capture_output=True, text=True).stdout.splitlines()[0].strip()
            same += got == ref.strip()
        out[lang] = same
    return out


def host():
    model = "unknown CPU"
    try:
        with open("/proc/cpuinfo") as f:
            model = next(line.split(":", 1)[1].strip() for line in f if line.startswith("model name"))
        with open("/proc/meminfo") as f:
            mem = int(next(line.split()[1] for line in f if line.startswith("MemTotal"))) / 2**20
        with open("/proc/loadavg") as f:
            load = f.read().split()[0]
    except (OSError, StopIteration):
        mem, load = 0, "?"
    import onnxruntime

    return (f"{model}, {os.cpu_count()} CPUs, {mem:.0f} GiB, {platform.platform()}, load average {load} "
            f"at the end of the run (a shared machine); Python {platform.python_version()}, "
            f"onnxruntime {onnxruntime.__version__} for the peers")


def report(rows, sentences, voices, names, args, agree):
    by = {}
    for r in rows:
        by.setdefault((r["system"], r["voice"]), []).append(r)
    for v in by.values():
        v.sort(key=lambda r: r["sentence"])

    def wer(rs):
        return 100 * sum(r["errors"] for r in rs) / sum(r["words"] for r in rs)

    def cells(fmt):
        return " | ".join(fmt(by[(n, v)]) if (n, v) in by else "—" for n in names)

    lines = []
    w = lines.append
    w("# Listening benchmark: kokoro beside its peers\n")
    w(f"{len(sentences)} sentences (testdata/listen/sentences.txt), voices {', '.join(voices)}, one judge: "
      "pocketsphinx (Debian's pocketsphinx-en-us, an American recognizer) for the word error rate; "
      "silence = 10 ms frames under -50 dBFS RMS; a pause = a silent run of 50 ms or more inside the speech.\n")
    w("Every system runs the same model file (assets/model, int8) and the same voice vectors (assets/voices).\n")
    w("| | " + " | ".join(names) + " |")
    w("|---|" + "---|" * len(names))
    for v in voices:
        w(f"| WER {v} | " + cells(lambda rs: f"{wer(rs):.1f} %") + " |")
    for v in voices:
        w(f"| total audio ({v}) | " + cells(lambda rs: f"{sum(r['audio_s'] for r in rs):.1f} s") + " |")
    for v in voices:
        w(f"| leading + trailing silence ({v}) | " + cells(lambda rs: f"{sum(r['lead'] + r['trail'] for r in rs):.2f} s") + " |")
    for v in voices:
        w(f"| sentences with a pause ≥ 0.6 s inside ({v}) | " + cells(
            lambda rs: f"{sum(1 for r in rs if any(p >= 0.6 for p in r['pauses']))} of {len(rs)}") + " |")
    for v in voices:
        w(f"| longest pause inside a sentence ({v}) | " + cells(
            lambda rs: f"{max([0.0] + [p for r in rs for p in r['pauses']]):.2f} s") + " |")
    w("")
    w("Paired differences in WER (percentage points, 95 % bootstrap interval over sentences):\n")
    pairs = [(names[0], b) for b in names[1:]]  # the build under test against each of the others
    for v in voices:
        for a, b in pairs:
            if (a, v) not in by or (b, v) not in by:
                continue
            ra, rb = by[(a, v)], by[(b, v)]
            lo, hi = bootstrap_diff([r["errors"] for r in ra], [r["errors"] for r in rb], [r["words"] for r in ra])
            w(f"- {v}: {a} − {b} = {wer(ra) - wer(rb):+.1f} [{100 * lo:+.1f}, {100 * hi:+.1f}]")
    w("")
    if agree:
        w(f"kokoro's phonemizer reads {agree['us']} of {len(sentences)} sentences exactly as misaki 0.9.4 does "
          f"in American English and {agree['gb']} of {len(sentences)} in British English.\n")
    w(f"Host: {host()}; run {time.strftime('%Y-%m-%d', time.gmtime())}.\n")
    w(f"Command: `{args.command_line}`")
    text = "\n".join(lines) + "\n"
    with open(os.path.join(args.out, "report.md"), "w", encoding="utf-8") as f:
        f.write(text)
    print(text)


def silent_runs(x, min_frames=3):
    """(start, length) in seconds of the silent runs inside the speech, and lead and trail."""
    f = RATE // 100
    m = len(x) // f
    loud = (x[: m * f].astype(np.float64).reshape(m, f) ** 2).mean(axis=1) > 10 ** (FLOOR_DB / 10)
    on = np.flatnonzero(loud)
    first, last = on[0], on[-1]
    runs, i = [], first
    while i <= last:
        if loud[i]:
            i += 1
            continue
        j = i
        while not loud[j]:
            j += 1
        if j - i >= min_frames:
            runs.append((i / 100, (j - i) / 100))
        i = j
    return runs, first / 100, len(x) / RATE - (last + 1) / 100


def cmd_pauses(args):
    """Each punctuation mark is given the silent run nearest to where it falls (its place in the
    text scaled onto the speech), within 0.4 s; none = no pause there."""
    kinds = {",": "comma", "—": "comma", ";": "clause", ":": "clause", ".": "sentence", "!": "sentence", "?": "sentence"}
    rows = [line.rstrip("\n").split("\t") for line in open(args.sentences, encoding="utf-8") if line.strip()]
    got = {"comma": [], "clause": [], "sentence": [], "between words": [], "lead": [], "tail": []}
    for voice in args.voices.split(","):
        for i, (_, text) in enumerate(rows):
            path = os.path.join(args.out, voice, f"{i + 1:02d}.wav")
            if not os.path.exists(path):
                os.makedirs(os.path.dirname(path), exist_ok=True)
                write_wav(path, Kokoro(args.url).speak(text, voice), RATE)
            runs, lead, tail = silent_runs(read_wav(path))
            got["lead"].append(lead)
            got["tail"].append(tail)
            start, end = lead, len(read_wav(path)) / RATE - tail
            used = set()
            for m in re.finditer(r"[,;:.!?—](?=\s)", text):
                at = start + m.start() / len(text) * (end - start)
                near = [k for k, (t, d) in enumerate(runs) if k not in used and abs(t + d / 2 - at) < 0.4]
                best = max(near, key=lambda k: runs[k][1], default=None)
                if best is not None:
                    used.add(best)
                got[kinds[m.group()]].append(runs[best][1] if best is not None else 0.0)
            got["between words"] += [d for k, (_, d) in enumerate(runs) if k not in used]
    print("| at | n | paused | median | upper quartile | max |")
    print("|---|---|---|---|---|---|")
    for k, v in got.items():
        v = np.array(v)
        print(f"| {k} | {len(v)} | {int((v > 0).sum())} | {np.median(v):.3f} s | {np.percentile(v, 75):.3f} s | {v.max():.3f} s |")


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="mode", required=True)
    p = sub.add_parser("phonemes")
    p.add_argument("--sentences", required=True)
    p.add_argument("--out", required=True)
    r = sub.add_parser("run")
    r.add_argument("--sentences", required=True)
    r.add_argument("--voices", default="af_heart,am_michael,bf_emma")
    r.add_argument("--kokoro", action="append", default=[], help="LABEL=URL of a kokoro server; repeatable")
    r.add_argument("--model", required=True)
    r.add_argument("--voices-dir", required=True)
    r.add_argument("--misaki", required=True, help="phonemes written by the phonemes mode")
    r.add_argument("--out", required=True)
    r.add_argument("--jobs", type=int, default=2, help="recognizers run at once")
    r.add_argument("--peer-voices", help="voices the peers speak (default: all of --voices)")
    r.add_argument("--systems", help="peers to include (fastkokoro,kokoro-onnx,reference); default all")
    r.add_argument("--kokoro-bin", help="kokoro binary, to compare its phonemes with misaki's")
    r.add_argument("--command-line", default="scripts/listen_bench.sh")
    q = sub.add_parser("pauses")
    q.add_argument("--sentences", default="testdata/listen/pauses.tsv")
    q.add_argument("--voices", default="af_heart,am_michael,bf_emma,bm_george")
    q.add_argument("--url", required=True, help="a kokoro server that speaks each sentence unsplit")
    q.add_argument("--out", required=True)
    args = ap.parse_args()
    {"phonemes": cmd_phonemes, "run": cmd_run, "pauses": cmd_pauses}[args.mode](args)


if __name__ == "__main__":
    main()
