"""The model's reference audio, made by code that shares nothing with kokoro: kokoro-onnx.

For each case of testdata/reference/cases.tsv (voice, speed, phoneme string) kokoro-onnx 0.6.1
maps the phonemes to token ids with its own vocabulary, picks the voice's style row for that
many tokens, pads the ids and runs the ONNX model through the onnxruntime Python package; its
untrimmed output is written as 16-bit WAV beside reference.json, which records the ids, the
style row, the sample count and every version and checksum. tts/reference_test.go compares
kokoro's model output for the same phonemes, voice and speed with these files.

Run through scripts/reference/model_reference.sh, which builds the pinned environment.
"""

import argparse
import hashlib
import importlib.metadata as md
import json
import os
import platform
import wave

import numpy as np

RATE = 24000


def sha256(path):
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def cpu_model():
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--model", default="assets/model/model.onnx")
    ap.add_argument("--voices-dir", default="assets/voices")
    ap.add_argument("--dir", default="testdata/reference")
    args = ap.parse_args()

    from kokoro_onnx import Kokoro

    cases = []
    with open(os.path.join(args.dir, "cases.tsv"), encoding="utf-8") as f:
        for line in f:
            line = line.rstrip("\n")
            if not line or line.startswith("#"):
                continue
            name, voice, speed, phonemes = line.split("\t")
            cases.append((name, voice, float(speed), phonemes))

    # kokoro-onnx reads voices from one .npz; the packs are raw float32 [510, 1, 256].
    npz = os.path.join(args.dir, ".voices.npz")
    packs = {}
    for _, voice, _, _ in cases:
        path = os.path.join(args.voices_dir, voice + ".bin")
        packs[voice] = (np.fromfile(path, dtype="<f4").reshape(510, 1, 256), sha256(path))
    np.savez(npz, **{v: p for v, (p, _) in packs.items()})
    try:
        k = Kokoro(args.model, npz)
    finally:
        os.remove(npz)

    out = []
    for name, voice, speed, phonemes in cases:
        ids = k.tokenizer.tokenize(phonemes)
        if k.tokenizer.known(phonemes) != phonemes:
            raise SystemExit(f"{name}: kokoro-onnx's vocabulary drops some of {phonemes!r}")
        if len(k._split_phonemes(phonemes)) != 1:
            raise SystemExit(f"{name}: kokoro-onnx would split {phonemes!r} into batches")
        audio, rate = k.create(phonemes, voice=voice, speed=speed, is_phonemes=True, trim=False,
                               sentence_pause=0, clause_pause=0)
        assert rate == RATE
        pcm = np.round(np.clip(audio, -1, 1) * 32767).astype("<i2")
        wav = name + ".wav"
        with wave.open(os.path.join(args.dir, wav), "wb") as w:
            w.setnchannels(1)
            w.setsampwidth(2)
            w.setframerate(RATE)
            w.writeframes(pcm.tobytes())
        # The row kokoro-onnx takes for this many tokens (its _style_for), recorded for the reader.
        row = min(len(ids), 510) - 1
        out.append({"name": name, "voice": voice, "voice_sha256": packs[voice][1], "speed": speed,
                    "phonemes": phonemes, "ids": ids, "style_row": row, "samples": len(pcm), "wav": wav})
        print(f"{name}: {len(ids)} ids, style row {row}, {len(pcm) / RATE:.2f} s")

    manifest = {
        "made_by": "scripts/reference/model_reference.sh",
        "kokoro_onnx": md.version("kokoro-onnx"),
        "onnxruntime": md.version("onnxruntime"),
        "numpy": md.version("numpy"),
        "model_sha256": sha256(args.model),
        "host": f"{cpu_model()}, {os.cpu_count()} CPUs, {platform.system()} {platform.machine()}",
        "cases": out,
    }
    # One case a line, so that a regeneration's diff reads case by case.
    head = json.dumps({k: v for k, v in manifest.items() if k != "cases"}, ensure_ascii=False, indent=1)
    lines = ",\n".join("  " + json.dumps(c, ensure_ascii=False) for c in out)
    with open(os.path.join(args.dir, "reference.json"), "w", encoding="utf-8") as f:
        f.write(head[:-2] + ',\n "cases": [\n' + lines + "\n ]\n}\n")

if __name__ == "__main__":
    main()
