#!/usr/bin/env python3
"""Build the "wild" corpora: real English nobody here wrote, from Debian packages.

Sources (each a Debian package fetched with `apt-get download`, pinned by version and SHA-256):
  news        Reuters-21578 and RCV1 newswire bodies (r-cran-tm's sample texts and acq data)
  titles      the same articles' headlines, written in capitals
  dialogue    quoted speech from Jane Austen's six novels (r-cran-janeaustenr)
  narrative   the same novels' narration
  technical   definitions from FOLDOC and the Jargon File (dict-foldoc, dict-jargon)
  quotations  Ambrose Bierce's Devil's Dictionary: a capitalised headword and its definition,
              and the quoted verse (dict-devil)

Every source document (an article, a chapter, a dictionary entry) is put in one of three
buckets by a hash of its name: held-out (20 %), development (20 %), training (60 %). Sentences
are drawn only from their own bucket, so a held-out sentence's document never reaches the
development corpus or the tagger's training text.

Each round's sources have a module of their own: scripts/wildN_sources.py holds round N's pinned
packages (PACKAGESn), its register quotas (QUOTAn) and the extractors that read them;
wild1_sources.py holds the sources above, for --sentences and --train. The helpers they share
(fetching a pinned package, splitting sentences, the usable-sentence filter) are in
scripts/wild_common.py.

    --sentences  write phonemize/en/testdata/wild_{heldout,dev}_sentences.txt (stratified sample)
    --train OUT  write the training bucket's sentences (never the held-out or development ones),
                 the second to fifth held-out rounds' sources (development data since they were
                 scored), less each round's own corpus sentences, and the older development corpora's
                 sentences (plus upper-cased copies of all titles and quotations and of UPPER_SHARE of
                 the rest, so the tagger sees capitals) to OUT, one per line, for
                 scripts/reference/gen_tagger_data.py

    --heldout2   write phonemize/en/testdata/wild2_heldout_sentences.txt: the second held-out round,
                 from the packages of PACKAGES2 (scripts/corpus/wild2_sources.py), which nothing else
                 here draws on
    --heldout3   write phonemize/en/testdata/wild3_heldout_sentences.txt: the third held-out round,
                 from the packages of PACKAGES3, which neither earlier round nor the training text used
    --heldout4   write phonemize/en/testdata/wild4_heldout_sentences.txt: the fourth held-out round,
                 from the packages of PACKAGES4, which no earlier round and no training text used
    --heldout5   write phonemize/en/testdata/wild5_heldout_sentences.txt: the fifth held-out round,
                 from the packages of PACKAGES5, which no earlier round and no training text used
    --heldout6   write phonemize/en/testdata/wild6_heldout_sentences.txt: the sixth held-out round,
                 from the packages of PACKAGES6, which no earlier round and no training text used
    --heldout7   write phonemize/en/testdata/wild7_heldout_sentences.txt: the seventh held-out round,
                 from the packages of PACKAGES7, which no earlier round and no training text used
    --heldout8   write phonemize/en/testdata/wild8_heldout_sentences.txt: the eighth held-out round, from
                 the packages and extractors of scripts/corpus/wild8_sources.py, which no earlier round used

The fortune packages are deliberately not used: they are kept as an outside judge.
Needs: apt-get (package lists updated), python3 with the `rdata` package (reads R data files;
1.1.0 made the committed files).
"""
import os
import random
import re
import sys
import tempfile

from wild1_sources import QUOTA, all_sentences
from wild2_sources import QUOTA2, all_sentences2
from wild3_sources import QUOTA3, all_sentences3
from wild4_sources import QUOTA4, all_sentences4
from wild5_sources import QUOTA5, all_sentences5
from wild6_sources import QUOTA6, all_sentences6
from wild7_sources import QUOTA7, all_sentences7

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
TESTDATA = os.path.join(ROOT, "phonemize", "en", "testdata")


# --- stratification ---------------------------------------------------------------------------

HETERONYMS = None


def classes(s):
    """The difficulty classes of the issue: heteronyms, numbers, capitals, quotes, names."""
    words = re.findall(r"[A-Za-z][A-Za-z'’]*", s)
    c = set()
    if any(w.lower() in HETERONYMS for w in words):
        c.add("heteronyms")
    if re.search(r"\d", s):
        c.add("numbers")
    if any(len(w) >= 2 and w.isupper() for w in words):
        c.add("capitals")
    if re.search(r"[\"“”‘’]|(^|\s)'", s):
        c.add("quotes")
    if any(w[0].isupper() and not w.isupper() for w in words[1:]):
        c.add("names")
    return c


def load_heteronyms():
    import json
    path = os.path.join(ROOT, "assets", "lexicon", "us_gold.json")
    gold = json.load(open(path, encoding="utf-8"))
    return {k.lower() for k, v in gold.items() if isinstance(v, dict)}
CLASS_MIN = {"heteronyms": 120, "numbers": 40, "capitals": 60, "quotes": 100, "names": 120}


def sample(pool, seed, quota=QUOTA):
    """Draw each register's quota at random, then make sure every class reaches its minimum by
    swapping in sentences that have it (same register), so no class is missing."""
    rng = random.Random(seed)
    by_reg = {}
    for reg, s in pool:
        by_reg.setdefault(reg, []).append(s)
    chosen = {}
    for reg, n in quota.items():
        cands = sorted(by_reg.get(reg, []))
        rng.shuffle(cands)
        chosen[reg] = cands[:n]
        by_reg[reg] = cands[n:]
    for cls, need in CLASS_MIN.items():
        have = sum(cls in classes(s) for ss in chosen.values() for s in ss)
        regs = sorted(quota)
        rng.shuffle(regs)
        while have < need:
            progressed = False
            for reg in regs:
                spare = [s for s in by_reg[reg] if cls in classes(s)]
                drop = [i for i, s in enumerate(chosen[reg]) if not classes(s)]
                if not spare or not drop or have >= need:
                    continue
                s = spare[0]
                by_reg[reg].remove(s)
                chosen[reg][drop[-1]] = s
                have += 1
                progressed = True
            if not progressed:
                break
    return [(reg, s) for reg in quota for s in chosen[reg]]


def write_sentences(name, rows, header):
    with open(os.path.join(TESTDATA, name), "w", encoding="utf-8") as f:
        f.write(header)
        for reg, s in rows:
            f.write(f"{reg}|{s}\n")


def draw_heldout(name, gather, quota, seed, out, header):
    """Draws a held-out corpus of quota's registers from gather's sentences and writes it."""
    with tempfile.TemporaryDirectory() as dest:
        rows = gather(dest)
    pool = [(reg, s) for reg, _, s in rows]
    print("pool", {r: sum(x == r for x, _ in pool) for r in quota}, file=sys.stderr)
    picked = sample(pool, seed, quota)
    counts = {c: sum(c in classes(s) for _, s in picked) for c in CLASS_MIN}
    print(name, len(picked), counts, file=sys.stderr)
    write_sentences(out, picked, header)


# The share of the training text's other sentences that also go in as upper-cased copies.
UPPER_SHARE = 0.5


def corpus_sentences(name):
    """The sentences of a committed corpus file (REGISTER|TEXT lines)."""
    out = set()
    for line in open(os.path.join(TESTDATA, name), encoding="utf-8"):
        if line.strip() and not line.startswith("#"):
            out.add(line.rstrip("\n").split("|", 1)[1])
    return out


def heldout_round(n):
    """Round n's sentence source, quotas, seed, output file and file header, for draw_heldout."""
    if n == 8:
        import wild8_sources as w8
        return w8.all_sentences8, w8.QUOTA8, w8.SEED8, "wild8_heldout_sentences.txt", w8.HEADER8
    unused = {2: "no earlier corpus or training text used", 3: "neither earlier round nor the training text used"}
    header = ("# REGISTER|TEXT: real English drawn by scripts/corpus/gen_wild_corpus.py --heldout%d from packages\n"
              "# %s (see the script). Each line is read in US and GB.\n"
              % (n, unused.get(n, "no earlier round and no training text used")))
    if n == 2:
        header += "# Scored once at 6698677 (rules frozen at d25d46a); development data since: tuned on.\n"
    rounds = {2: (all_sentences2, QUOTA2), 3: (all_sentences3, QUOTA3), 4: (all_sentences4, QUOTA4),
              5: (all_sentences5, QUOTA5), 6: (all_sentences6, QUOTA6), 7: (all_sentences7, QUOTA7)}
    sentences_of, quota = rounds[n]
    return sentences_of, quota, 2024 + n, "wild%d_heldout_sentences.txt" % n, header


def main():
    global HETERONYMS
    HETERONYMS = load_heteronyms()
    for n in range(2, 9):
        if "--heldout%d" % n in sys.argv[1:]:
            draw_heldout("heldout%d" % n, *heldout_round(n))
            return
    with tempfile.TemporaryDirectory() as dest:
        rows = all_sentences(dest)
    if "--sentences" in sys.argv[1:]:
        for b, seed in (("heldout", 13), ("dev", 31)):
            pool = [(reg, s) for reg, bk, s in rows if bk == b]
            picked = sample(pool, seed)
            counts = {c: sum(c in classes(s) for _, s in picked) for c in CLASS_MIN}
            print(b, len(picked), counts, file=sys.stderr)
            write_sentences(f"wild_{b}_sentences.txt", picked,
                            f"# REGISTER|TEXT: real English drawn by scripts/corpus/gen_wild_corpus.py from the {b} bucket\n"
                            f"# (documents hashed into buckets; see the script). Each line is read in US and GB.\n")
    if "--train" in sys.argv[1:]:
        out = sys.argv[sys.argv.index("--train") + 1]
        rng = random.Random(5)
        with open(out, "w", encoding="utf-8") as f:
            for reg, b, s in rows:
                if b != "train":
                    continue
                f.write(s + "\n")
                # Capitals read differently (a headline's words are often proper nouns to the
                # reference's tagger): upper-cased copies teach the tagger how.
                if reg in ("news", "titles", "quotations") or rng.random() < UPPER_SHARE:
                    f.write(s.upper() + "\n")
            # The second held-out round's sources, development data since their one scoring:
            # every sentence of them but the wild2 corpus's own (kept out, to measure on).
            with tempfile.TemporaryDirectory() as dest2:
                rows2 = all_sentences2(dest2, train=True)
            corpus2 = corpus_sentences("wild2_heldout_sentences.txt")
            for reg, _, s in rows2:
                if s in corpus2:
                    continue
                f.write(s + "\n")
                if reg in ("speeches", "titles", "quotations") or rng.random() < UPPER_SHARE:
                    f.write(s.upper() + "\n")
            # The third to fifth rounds' sources, development data since their scorings, the same
            # way: every usable sentence but the corpus's own.
            for gather, corpus_file in ((all_sentences3, "wild3_heldout_sentences.txt"),
                                        (all_sentences4, "wild4_heldout_sentences.txt"),
                                        (all_sentences5, "wild5_heldout_sentences.txt")):
                with tempfile.TemporaryDirectory() as dest3:
                    rows3 = gather(dest3)
                corpus = corpus_sentences(corpus_file)
                for reg, _, s in rows3:
                    if s in corpus:
                        continue
                    f.write(s + "\n")
                    if reg in ("titles", "quotations") or rng.random() < UPPER_SHARE:
                        f.write(s.upper() + "\n")
            for name in ("corpus_sentences.txt", "heldout_sentences.txt", "fresh_sentences.txt"):
                for line in open(os.path.join(TESTDATA, name), encoding="utf-8"):
                    if line.strip() and not line.startswith("#"):
                        f.write(line.rstrip("\n").split("|", 1)[1] + "\n")


if __name__ == "__main__":
    main()
