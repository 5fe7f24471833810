#!/usr/bin/env python3
"""Reference phonemes for the languages other than English, from Kokoro's own pipeline.

For each sentence file phonemize/testdata/lang/<lang>_<bucket>_sentences.txt (written by
scripts/gen_lang_corpus.py) it writes phonemize/testdata/lang/<lang>_<bucket>.tsv, one
`text<TAB>phonemes` row a sentence, the phonemes being what kokoro 0.9.4's KPipeline hands
the model for that sentence: misaki 0.9.4's EspeakG2P for es, fr-fr, hi, it and pt-br (one
sentence is one chunk of KPipeline's 400-character splitting), ZHG2P for zh as KPipeline
builds it for Kokoro-82M v1.0 (version None: jieba, pypinyin, cn2an, no tone sandhi), JAG2P
for ja. The header line names every version.

    bash scripts/lang_reference.sh [--lang es ...] [--bucket dev ...]

(which builds the pinned venv and runs this script). --espeak loader (the default) uses the
espeak-ng library that misaki loads, espeakng-loader's; --espeak system uses the host's
libespeak-ng.so.1 and its data, the library the Go phonemizer loads, so that the G2P is
compared on the same espeak-ng.
With --sentences FILE --lang L it prints one row per line of FILE instead (for a quick look).
"""
import argparse
import ctypes
import importlib.metadata as md
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DIR = os.path.join(ROOT, "phonemize", "testdata", "lang")

ESPEAK = {"es": "es", "fr-fr": "fr-fr", "hi": "hi", "it": "it", "pt-br": "pt-br"}
FILES = {"es": "es", "fr-fr": "fr", "hi": "hi", "it": "it", "pt-br": "pt-br", "zh": "zh", "ja": "ja"}


def espeak_version(lib):
    c = ctypes.CDLL(lib)
    c.espeak_Info.restype = ctypes.c_char_p
    return c.espeak_Info(None).decode()


def make_g2p(lang, espeak):
    if lang in ESPEAK:
        from misaki import espeak as me
        from phonemizer.backend.espeak.wrapper import EspeakWrapper
        if espeak == "system":
            EspeakWrapper.set_library("libespeak-ng.so.1")
            EspeakWrapper.set_data_path(None)
        lib = EspeakWrapper.library()
        g2p = me.EspeakG2P(language=ESPEAK[lang])
        desc = (f"misaki {md.version('misaki')} EspeakG2P('{ESPEAK[lang]}'), phonemizer-fork "
                f"{md.version('phonemizer-fork')}, espeak-ng {espeak_version(lib)} "
                + (f"(espeakng-loader {md.version('espeakng_loader')})" if espeak == "loader" else f"({lib}, the host's)"))
        return g2p, desc
    if lang == "zh":
        from misaki import zh
        g2p = zh.ZHG2P(version=None)  # KPipeline's choice for hexgrad/Kokoro-82M (v1.0)
        desc = (f"misaki {md.version('misaki')} ZHG2P(version=None), jieba {md.version('jieba')}, "
                f"pypinyin {md.version('pypinyin')}, cn2an {md.version('cn2an')}")
        return g2p, desc
    if lang == "ja":
        from misaki import ja
        g2p = ja.JAG2P()
        desc = f"misaki {md.version('misaki')} JAG2P, pyopenjtalk {md.version('pyopenjtalk')}"
        return g2p, desc
    raise SystemExit(f"unknown language {lang}")


def phonemize(g2p, text):
    ps, _ = g2p(text.strip())
    return ps


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--espeak", choices=["loader", "system"], default="loader")
    ap.add_argument("--lang", action="append")
    ap.add_argument("--bucket", action="append")
    ap.add_argument("--sentences")
    ap.add_argument("--suffix", default="", help="appended to each output file's name")
    args = ap.parse_args()
    langs = args.lang or list(FILES)
    if args.sentences:
        g2p, _ = make_g2p(langs[0], args.espeak)
        with open(args.sentences, encoding="utf-8") as f:
            for line in f:
                line = line.rstrip("\n")
                if line and not line.startswith("#"):
                    print(f"{line}\t{phonemize(g2p, line)}")
        return
    for lang in langs:
        g2p, desc = make_g2p(lang, args.espeak)
        for bucket in args.bucket or ["dev", "heldout"]:
            src = os.path.join(DIR, f"{FILES[lang]}_{bucket}_sentences.txt")
            if not os.path.exists(src):
                continue
            out = os.path.join(DIR, f"{FILES[lang]}_{bucket}{args.suffix}.tsv")
            with open(src, encoding="utf-8") as f, open(out, "w", encoding="utf-8") as w:
                w.write(f"# {lang}\t{desc}\n")
                n = 0
                for line in f:
                    line = line.rstrip("\n")
                    if not line or line.startswith("#"):
                        continue
                    w.write(f"{line}\t{phonemize(g2p, line)}\n")
                    n += 1
            print(f"{out}: {n} rows", file=sys.stderr)


if __name__ == "__main__":
    main()
