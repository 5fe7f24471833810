#!/usr/bin/env python3
"""Side-by-side listening benchmark: kokoro against its peers on the same model and voices.

Every system speaks the same sentences with the same int8 model file and the same voice
vectors (assets/), and one judge scores them all: the offline recognizer from Debian
(pocketsphinx with its US English model) for the word error rate, hearing each clip's audible
speech in the same frame of silence (internal/listen does the same), and the waveform for
silence (10 ms frames under -50 dBFS RMS, as audio.SilenceFloorDB in Go). Jobs run sentence by
sentence across voices, each clip judged as soon as it is made; transcripts are cached beside
the clips by content hash.

Systems:
  kokoro        this repository's server, POST /invocations, streamed WAV, default chunking
  kokoro@REV    the same from another build (scripts/measure/listen_bench.sh --baseline REV)
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

scripts/measure/listen_bench.sh sets up both environments and runs everything.
"""
import argparse
import concurrent.futures
import hashlib
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
    sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "reference"))
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

# The recognizer estimates its noise floor and segments speech from the audio's first frames, and
# its 10 ms analysis frames fall where the clip's first sample puts them: the same speech framed
# 14 ms differently was heard as "the library closes" and as "but i agree guys" (bf_emma,
# sentence 1). So the judge hears the audible speech only, cut where a sliding 10 ms window
# first and last rises above the silence floor (to the sample, whatever grid the clip was made
# on; 5 ms fades), with the same half second of silence around it: two systems that make the
# same speech get the same transcript, however much silence each left around it. Silence is
# measured on the clip itself.
JUDGE_PAD_S = 0.5
JUDGE_FADE = RATE // 200


def audible_span(x):
    """First and one-past-last sample of the speech: where a sliding 10 ms window's mean power
    first and last exceeds the silence floor; (0, 0) for a silent clip. As listen.AudibleSpan."""
    win = RATE // 100
    if len(x) < win:
        return 0, 0
    c = np.concatenate([[0.0], np.cumsum(np.asarray(x, dtype=np.float64) ** 2)])
    loud = np.flatnonzero((c[win:] - c[:-win]) / win > 10 ** (FLOOR_DB / 10))
    if len(loud) == 0:
        return 0, 0
    return int(loud[0]), int(loud[-1]) + win


def judge_input(x):
    """The clip as the judge hears it: its audible speech, faded at the cuts, in silence."""
    start, end = audible_span(x)
    y = np.array(x[start:end], dtype=np.float64)
    n = min(JUDGE_FADE, len(y))
    ramp = 0.5 - 0.5 * np.cos(np.pi * (np.arange(n) + 0.5) / n)
    y[:n] *= ramp
    y[len(y) - n:] *= ramp[::-1]
    pad = np.zeros(int(JUDGE_PAD_S * RATE))
    return np.concatenate([pad, y, pad])


def transcribe(wav24):
    x = resample(judge_input(read_wav(wav24)), RATE, JUDGE_RATE)
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


def speak_and_judge(name, url, args, npz, sentences, jobs):
    """Speaks one system's jobs, one at a time, in a process of its own, and judges each clip as
    soon as it is made, so that an interrupted run leaves every finished clip judged."""
    sys_, rows = None, []
    for job in jobs:
        _, voice, i, text, path = job
        # The peers' audio is kept between runs (same model, same input, same samples);
        # kokoro's is made anew unless its label names a fixed build (kokoro@REV).
        if not (os.path.exists(path) and (not url or "@" in name or args.reuse)):
            sys_ = sys_ or make_system(name, url, args, npz, sentences)
            os.makedirs(os.path.dirname(path), exist_ok=True)
            t0 = time.time()
            pcm = sys_.speak(text, voice)
            write_wav(path + ".part", pcm, RATE)
            os.replace(path + ".part", path)
            print(f"{name} {voice} {i + 1}: {len(pcm) / RATE:.2f} s audio in {time.time() - t0:.1f} s",
                  file=sys.stderr, flush=True)
        rows.append(judge(job))
    return rows


# What the judge heard is kept beside each clip, keyed by the clip's bytes and the judge's
# settings: the recognizer is deterministic, so the cached peers' audio is not heard again.
JUDGE_ID = f"pocketsphinx_continuous {MODEL_DIR} audible span, fade {JUDGE_FADE}, pad {JUDGE_PAD_S}"


def judged(path):
    with open(path, "rb") as f:
        key = hashlib.sha256(f.read()).hexdigest() + " " + JUDGE_ID
    cache = path + ".heard"
    try:
        with open(cache, encoding="utf-8") as f:
            got = json.load(f)
        if got["key"] == key:
            return got["heard"]
    except (OSError, ValueError, KeyError):
        pass
    hyp = transcribe(path)
    with open(cache + ".part", "w", encoding="utf-8") as f:
        json.dump({"key": key, "heard": hyp}, f, ensure_ascii=False)
    os.replace(cache + ".part", cache)
    return hyp


def judge(job):
    name, voice, i, text, path = job
    hyp = judged(path)
    errs, n = word_errors(text, hyp)
    x = read_wav(path)
    return {"system": name, "voice": voice, "sentence": i + 1, "text": text, "heard": hyp,
            "errors": errs, "words": n, "audio_s": len(x) / RATE, "path": path, **silences(x)}


def same_speech(a, b, tolerance=2 / 32768):
    """Whether two clips hold the same speech sample for sample (within 2 LSB of 16-bit
    rounding), whatever silence surrounds each."""
    x, y = read_wav(a), read_wav(b)
    (s0, e0), (s1, e1) = audible_span(x), audible_span(y)
    return e0 - s0 == e1 - s1 and e0 > s0 and float(np.abs(x[s0:e0] - y[s1:e1]).max()) <= tolerance


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
    only = dict(spec.split("=", 1) for spec in args.only)
    # Sentence by sentence, every voice: a run cut short has compared all voices on its first
    # sentences.
    jobs = {name: [] for name in systems}
    for i, text in enumerate(sentences):
        for voice in voices:
            for name, url in systems.items():
                if not url and voice not in peer_voices:
                    continue
                if name in only and voice not in only[name].split(","):
                    continue
                path = os.path.join(args.out, "wav", name, voice, f"{i + 1:02d}.wav")
                if args.finished_only and not os.path.exists(path):
                    continue
                jobs[name].append((name, voice, i, text, path))
    # One process per system: they share nothing, and each keeps its model loaded.
    with concurrent.futures.ProcessPoolExecutor(max_workers=len(systems)) as pool:
        futures = [pool.submit(speak_and_judge, n, u, args, npz, sentences, jobs[n]) for n, u in systems.items()]
        rows = [r for f in futures for r in f.result()]
    with open(os.path.join(args.out, "results.jsonl"), "w", encoding="utf-8") as f:
        for r in rows:
            f.write(json.dumps(r, ensure_ascii=False) + "\n")
    with open(args.misaki, encoding="utf-8") as f:
        read = readings(args.kokoro_bin, json.load(f), sentences) if args.kokoro_bin else None
    report(rows, sentences, voices, list(systems), args, read)


def readings(kokoro_bin, phonemes, sentences):
    """Our phonemizer beside misaki, per dialect: for each sentence, whether the readings are
    identical, the words that differ (ours, misaki's), and how many chunks the server's default
    chunking cuts it into."""
    out = {}
    for lang, flag in (("us", "en-us"), ("gb", "en-gb")):
        rows = []
        for s, ref in zip(sentences, phonemes[lang]):
            lines = subprocess.run([kokoro_bin, "phonemize", "--lang", flag, s], check=True,
                                   capture_output=True, text=True).stdout.splitlines()
            got, ref = lines[0].strip(), ref.strip()
            a, b = got.split(), ref.split()
            diff = [(x, y) for x, y in zip(a, b) if x != y] if len(a) == len(b) else [(got, ref)]
            rows.append({"same": got == ref, "diff": diff,
                         "chunks": sum(1 for line in lines if line.startswith("chunk "))})
        out[lang] = rows
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


def report(rows, sentences, voices, names, args, read):
    # Each voice is compared on the sentences every system that speaks it finished (all of them
    # unless a cut-short run is reported with --finished-only).
    done = {}
    for r in rows:
        done.setdefault(r["voice"], {}).setdefault(r["system"], set()).add(r["sentence"])
    common = {v: set.intersection(*d.values()) for v, d in done.items()}
    by = {}
    for r in rows:
        if r["sentence"] in common[r["voice"]]:
            by.setdefault((r["system"], r["voice"]), []).append(r)
    for v in by.values():
        v.sort(key=lambda r: r["sentence"])
    voices = [v for v in voices if common.get(v)]

    def wer(rs):
        return 100 * sum(r["errors"] for r in rs) / sum(r["words"] for r in rs)

    def cells(fmt):
        return " | ".join(fmt(by[(n, v)]) if (n, v) in by else "—" for n in names)

    lines = []
    w = lines.append
    w("# Listening benchmark: kokoro beside its peers\n")
    counts = ", ".join(f"{v} on {len(common[v])}" for v in voices)
    w(f"{len(sentences)} sentences ({args.sentences}; {counts}), voices {', '.join(voices)}, one judge: "
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
        w(f"| lead + trail per sentence, mean / max ({v}) | " + cells(
            lambda rs: f"{np.mean([r['lead'] + r['trail'] for r in rs]):.3f} / {max(r['lead'] + r['trail'] for r in rs):.3f} s") + " |")
    for v in voices:
        if ("kokoro-onnx", v) not in by:
            continue
        ref = {r["sentence"]: r["lead"] + r["trail"] for r in by[("kokoro-onnx", v)]}
        w(f"| sentences whose lead + trail exceed 1.2× kokoro-onnx's ({v}) | " + cells(
            lambda rs: f"{sum(1 for r in rs if r['lead'] + r['trail'] > 1.2 * ref[r['sentence']])} of {len(rs)}") + " |")
    for v in voices:
        w(f"| sentences with a pause ≥ 0.6 s inside ({v}) | " + cells(
            lambda rs: f"{sum(1 for r in rs if any(p >= 0.6 for p in r['pauses']))} of {len(rs)}") + " |")
    for v in voices:
        w(f"| longest pause inside a sentence ({v}) | " + cells(
            lambda rs: f"{max([0.0] + [p for r in rs for p in r['pauses']]):.2f} s") + " |")
    if any(("reference", v) in by for v in voices):
        for v in voices:
            if ("reference", v) not in by:
                continue
            ref = {r["sentence"]: r["path"] for r in by[("reference", v)]}
            w(f"| sentences whose speech is the reference's, sample for sample ({v}) | " + cells(
                lambda rs: f"{sum(1 for r in rs if same_speech(r['path'], ref[r['sentence']]))} of {len(rs)}") + " |")
    if read:
        for v in voices:
            split = {i + 1 for i, r in enumerate(read[lang_of(v)]) if r["chunks"] > 1} & common[v]
            whole = common[v] - split
            if split and whole:
                for label, part in ((f"split into chunks by kokoro ({len(split)})", split),
                                    (f"spoken whole by kokoro ({len(whole)})", whole)):
                    w(f"| WER {v}, sentences {label} | " + cells(
                        lambda rs: f"{wer([r for r in rs if r['sentence'] in part]):.1f} %") + " |")
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
    if read:
        same = {lang: sum(r["same"] for r in rows_) for lang, rows_ in read.items()}
        w(f"kokoro's phonemizer reads {same['us']} of {len(sentences)} sentences exactly as misaki 0.9.4 does "
          f"in American English and {same['gb']} of {len(sentences)} in British English (the reference "
          "system speaks misaki's reading).")
        for lang, rows_ in read.items():
            for i, r in enumerate(rows_):
                if not r["same"]:
                    w(f"- {lang} sentence {i + 1}: " + "; ".join(f"`{a}` (misaki `{b}`)" for a, b in r["diff"]))
        w("")
    w("Transcripts are kept beside each clip keyed by its SHA-256 and the judge's settings "
      "(`.heard` files): the recognizer is deterministic, so cached audio is not heard twice.\n")
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
    r.add_argument("--peer-voices", help="voices the peers speak (default: all of --voices)")
    r.add_argument("--only", action="append", default=[], metavar="SYSTEM=VOICES",
                   help="the voices one system speaks (default: all); repeatable")
    r.add_argument("--systems", help="peers to include (fastkokoro,kokoro-onnx,reference); default all")
    r.add_argument("--reuse", action="store_true",
                   help="judge kokoro's clips already in OUT/wav instead of making them anew (to report a run again)")
    r.add_argument("--finished-only", action="store_true",
                   help="with --reuse: report only the clips a cut-short run finished, each voice on the "
                        "sentences every system finished")
    r.add_argument("--kokoro-bin", help="kokoro binary, to compare its phonemes with misaki's")
    r.add_argument("--command-line", default="scripts/measure/listen_bench.sh")
    q = sub.add_parser("pauses")
    q.add_argument("--sentences", default="testdata/listen/pauses.tsv")
    q.add_argument("--voices", default="af_heart,am_michael,bf_emma,bm_george")
    q.add_argument("--url", required=True, help="a kokoro server that speaks each sentence unsplit")
    q.add_argument("--out", required=True)
    args = ap.parse_args()
    {"phonemes": cmd_phonemes, "run": cmd_run, "pauses": cmd_pauses}[args.mode](args)


if __name__ == "__main__":
    main()
