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

    --sentences  write phonemize/testdata/wild_{heldout,dev}_sentences.txt (stratified sample)
    --train OUT  write the training bucket's sentences (never the held-out or development ones)
                 and the older development corpora's sentences (plus upper-cased copies of some, so the
                 tagger sees capitals) to OUT, one per line, for scripts/gen_tagger_data.py

The fortune packages are deliberately not used: they are kept as an outside judge.
Needs: apt-get (package lists updated), python3 with the `rdata` package (reads R data files).
"""
import glob
import hashlib
import html
import os
import random
import re
import struct
import subprocess
import sys
import tempfile
import zlib

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TESTDATA = os.path.join(ROOT, "phonemize", "testdata")
CACHE = os.environ.get("KOKORO_CACHE", os.path.expanduser("~/.cache/kokoro"))

PACKAGES = {
    "r-cran-tm": ("0.7-11-1", "483fa4e8c8fec74a36875470932b71c21ed2209bbab504f50844aca2d24cb51b"),
    "r-cran-janeaustenr": ("1.0.0-1", "df6bddf211906d1ff404f8ff662c21b34e6660e7f54a311084e749050c019c95"),
    "dict-foldoc": ("20230119-1", "745cbedb55c2da609cc88ee0284e9d11a67a11ae3709daf7bad0e895ac3294c3"),
    "dict-jargon": ("4.4.7-3.1", "405f8168d7994ed2cb71407bb95493daec2e9aa66fc0461dafa74a9d6728a8c1"),
    "dict-devil": ("1.0-13.1", "6a535684def2a1f70cd42da16d12d43f0e9dc3e54e4a329178eebab3170e3154"),
    # Training text only (never sampled into a corpus): the Python documentation's sources.
    "python3.11-doc": ("3.11.2-6+deb12u9", "5b3594189d6ef9a6963ce0347fd307a1cc67620ad697e144db366070e2e146be"),
}


def sha256(path):
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for b in iter(lambda: f.read(1 << 20), b""):
            h.update(b)
    return h.hexdigest()


def fetch(pkg, dest):
    version, want = PACKAGES[pkg]
    arch = "amd64" if pkg == "r-cran-tm" else "all"
    deb = os.path.join(CACHE, f"{pkg}_{version.replace(':', '%3a')}_{arch}.deb")
    if not os.path.exists(deb) or sha256(deb) != want:
        os.makedirs(CACHE, exist_ok=True)
        subprocess.run(["apt-get", "download", f"{pkg}={version}"], cwd=CACHE, check=True,
                       stdout=subprocess.DEVNULL)
    if sha256(deb) != want:
        sys.exit(f"checksum mismatch for {deb}")
    out = os.path.join(dest, pkg)
    subprocess.run(["dpkg-deb", "-x", deb, out], check=True)
    return out


def bucket(name):
    h = int(hashlib.sha256(name.encode()).hexdigest()[:8], 16) % 100
    return "heldout" if h < 20 else "dev" if h < 40 else "train"


# --- sources: each yields (register, document name, text) ----------------------------------

def reuters(root):
    base = os.path.join(root, "usr/lib/R/site-library/tm/texts")
    files = sorted(glob.glob(base + "/crude/*.xml")) + [base + "/reuters-21578.xml"]
    docs = []
    for path in files:
        raw = open(path, encoding="utf-8", errors="replace").read()
        for m in re.finditer(r"<REUTERS[^>]*NEWID=\"(\d+)\".*?</REUTERS>", raw, re.S):
            docs.append((m.group(1), m.group(0)))
    for path in sorted(glob.glob(base + "/acq/*.xml")):
        raw = open(path, encoding="utf-8", errors="replace").read()
        m = re.search(r"NEWID=\"(\d+)\"", raw)
        docs.append((m.group(1) if m else path, raw))
    seen = set()
    for newid, raw in docs:
        if newid in seen:
            continue
        seen.add(newid)
        title = re.search(r"<TITLE>(.*?)</TITLE>", raw, re.S)
        body = re.search(r"<BODY>(.*?)</BODY>", raw, re.S)
        name = "reuters-" + newid
        if title:
            t = html.unescape(title.group(1))
            t = re.sub(r"<[^>]*>", "", t)  # ticker symbols in angle brackets
            yield "titles", name, " ".join(t.split())
        if body:
            b = html.unescape(body.group(1))
            b = re.sub(r"<[^>]*>", "", b)
            b = re.sub(r"\s+REUTER\s*$", "", b.strip())
            b = re.sub(r"\n(?! {3})", " ", b)  # a paragraph starts with an indent; lines join
            yield "news", name, b


def austen(root):
    import rdata
    d = os.path.join(root, "usr/lib/R/site-library/janeaustenr/data/")
    idx = rdata.conversion.convert(rdata.parser.parse_file(d + "Rdata.rdx"))
    raw = open(d + "Rdata.rdb", "rb").read()
    for book, (off, ln) in sorted(idx["variables"].items()):
        blob = raw[int(off):int(off) + int(ln)]
        lines = rdata.conversion.convert(rdata.parser.parse_data(zlib.decompress(blob[4:])))
        chapter, para, paras = 0, [], []
        for line in list(lines) + [""]:
            line = str(line)
            if re.match(r"^\s*(CHAPTER|Chapter)\s+[0-9IVXLC]+", line):
                chapter += 1
                continue
            if line.strip():
                para.append(line.strip())
            elif para:
                paras.append((chapter, " ".join(para)))
                para = []
        for ch in sorted({c for c, _ in paras}):
            text = "\n".join(p for c, p in paras if c == ch)
            yield None, f"austen-{book}-{ch}", text.replace("_", "")


def dictd(root, name):
    d = os.path.join(root, "usr/share/dictd/")
    import gzip
    data = gzip.open(d + name + ".dict.dz").read()
    alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"

    def b64(s):
        n = 0
        for c in s:
            n = n * 64 + alphabet.index(c)
        return n
    for line in open(d + name + ".index", encoding="utf-8", errors="replace"):
        parts = line.rstrip("\n").split("\t")
        if len(parts) < 3 or parts[0].startswith("00-database"):
            continue
        off, ln = b64(parts[1]), b64(parts[2])
        yield parts[0], data[off:off + ln].decode("utf-8", errors="replace")


def technical(root_foldoc, root_jargon):
    for src, root in (("foldoc", root_foldoc), ("jargon", root_jargon)):
        for head, entry in dictd(root, src):
            body = entry.split("\n", 1)[1] if "\n" in entry else ""
            # Paragraphs of prose only: no tables, code or pronunciation lines.
            keep = []
            for par in re.split(r"\n\s*\n", body):
                lines = [l for l in par.split("\n") if l.strip()]
                if not lines or any(l.startswith("        ") for l in lines):
                    continue
                t = " ".join(l.strip() for l in lines)
                t = re.sub(r"^<[^>]*>\s*", "", t)          # FOLDOC's subject tag
                t = re.sub(r"^\[[^\]]*\]\s*", "", t)        # Jargon's usage tag
                t = re.sub(r"^/[^/]*/,?\s*", "", t)          # pronunciation
                t = re.sub(r"\{([^}]*)\}", r"\1", t)
                t = re.sub(r"\(\d{4}-\d\d-\d\d\)", "", t)
                keep.append(t)
            yield "technical", f"{src}-{head}", "\n".join(keep)


def devil(root):
    for head, entry in dictd(root, "devil"):
        if not re.match(r"^[A-Z]", entry):
            continue
        pars = re.split(r"\n\s*\n", entry.strip())
        # The definition paragraph starts with the capitalised headword ("ABASEMENT, n.  …").
        first = " ".join(pars[0].split())
        first = re.sub(r"\[[^\]]*\]", "", first)
        first = re.sub(r"\{([^}]*)\}", r"\1", first)
        yield "quotations", f"devil-{head}", first
        for par in pars[1:]:
            lines = [l for l in par.split("\n") if l.strip()]
            if not lines:
                continue
            if all(l.startswith("    ") for l in lines):
                # Verse: drop the attribution (a right-aligned last line), join the lines.
                if len(lines) > 1 and len(lines[-1]) - len(lines[-1].lstrip()) > 30:
                    lines = lines[:-1]
                yield "quotations", f"devil-{head}", " ".join(l.strip() for l in lines)
            else:
                yield "quotations", f"devil-{head}", " ".join(" ".join(lines).split())


def pydoc(root):
    base = os.path.join(root, "usr/share/doc/python3.11/html/_sources")
    for path in sorted(glob.glob(base + "/**/*.rst.txt", recursive=True)):
        text = open(path, encoding="utf-8", errors="replace").read()
        keep = []
        for par in re.split(r"\n\s*\n", text):
            lines = par.split("\n")
            if not lines or any(l.startswith((" ", "\t", "..", ">>>", "*", "-", "=", "+", "|", "#")) for l in lines):
                continue
            t = " ".join(l.strip() for l in lines)
            t = re.sub(r":[a-z:]+:`~?([^`<]*?)(?:\s*<[^>]*>)?`", r"\1", t)  # roles
            t = re.sub(r"`+([^`]*)`+_?", r"\1", t)
            t = t.replace("**", "").replace("::", ":")
            keep.append(t)
        yield "pydoc", "pydoc-" + os.path.relpath(path, base), "\n".join(keep)


# --- sentences ------------------------------------------------------------------------------

SPLIT = re.compile(r"(?<=[.!?])([\"”’']?)\s+(?=[\"“‘'(]?[A-Z0-9])")
ABBREV = re.compile(r"\b(?:Mr|Mrs|Ms|Dr|St|Co|Corp|Inc|Ltd|Jr|Sr|vs|etc|e\.g|i\.e|U\.S|No|Nos|Jan|Feb|Mar|Apr|Jun|Jul|Aug|Sep|Sept|Oct|Nov|Dec|Fig|Vol|cf|approx|v|n|adj|pp|ca)\.$")


def sentences(text):
    out = []
    for par in text.split("\n"):
        par = " ".join(par.split())
        pieces, start = [], 0
        for m in SPLIT.finditer(par):
            end = m.end(1)
            cand = par[start:end]
            if ABBREV.search(cand.rstrip("\"”’'")):
                continue
            pieces.append(cand)
            start = m.end()
        pieces.append(par[start:])
        out.extend(p.strip() for p in pieces if p.strip())
    return out


def usable(s):
    if not 20 <= len(s) <= 220:
        return False
    if re.search(r"[{}<>|\\@#\t_=*~]|https?:|www\.|\.\.\.\.|--|/[a-z]+/", s):
        return False
    if not re.search(r"[A-Za-z]{3}", s) or any(ord(c) > 0x2FFF for c in s):
        return False
    # Balanced double quotes, so a quotation is not cut in half.
    if (s.count('"') % 2) or s.count("“") != s.count("”"):
        return False
    return True


def all_sentences(dest):
    roots = {p: fetch(p, dest) for p in PACKAGES}
    docs = list(reuters(roots["r-cran-tm"]))
    for _, name, text in austen(roots["r-cran-janeaustenr"]):
        docs.append(("austen", name, text))
    docs += list(technical(roots["dict-foldoc"], roots["dict-jargon"]))
    docs += list(devil(roots["dict-devil"]))
    docs += list(pydoc(roots["python3.11-doc"]))
    out = []  # (register, bucket, sentence)
    seen = set()
    for register, name, text in docs:
        b = "train" if register == "pydoc" else bucket(name)
        if register == "titles":
            cands = [text]
        else:
            cands = sentences(text)
        for s in cands:
            reg = register
            if register == "austen":
                reg = "dialogue" if re.search(r"[\"“”]", s) else "narrative"
            if register != "titles" and not usable(s):
                continue
            if register == "titles" and not (10 <= len(s) <= 120):
                continue
            if s in seen:
                continue
            seen.add(s)
            out.append((reg, b, s))
    return out


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


QUOTA = {"news": 80, "titles": 30, "dialogue": 90, "narrative": 60, "technical": 90, "quotations": 70}
CLASS_MIN = {"heteronyms": 120, "numbers": 40, "capitals": 60, "quotes": 100, "names": 120}


def sample(pool, seed):
    """Draw each register's quota at random, then make sure every class reaches its minimum by
    swapping in sentences that have it (same register), so no class is missing."""
    rng = random.Random(seed)
    by_reg = {}
    for reg, s in pool:
        by_reg.setdefault(reg, []).append(s)
    chosen = {}
    for reg, n in QUOTA.items():
        cands = sorted(by_reg.get(reg, []))
        rng.shuffle(cands)
        chosen[reg] = cands[:n]
        by_reg[reg] = cands[n:]
    for cls, need in CLASS_MIN.items():
        have = sum(cls in classes(s) for ss in chosen.values() for s in ss)
        regs = sorted(QUOTA)
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
    return [(reg, s) for reg in QUOTA for s in chosen[reg]]


def write_sentences(name, rows, header):
    with open(os.path.join(TESTDATA, name), "w", encoding="utf-8") as f:
        f.write(header)
        for reg, s in rows:
            f.write(f"{reg}|{s}\n")


def main():
    global HETERONYMS
    HETERONYMS = load_heteronyms()
    with tempfile.TemporaryDirectory() as dest:
        rows = all_sentences(dest)
    if "--sentences" in sys.argv[1:]:
        for b, seed in (("heldout", 13), ("dev", 31)):
            pool = [(reg, s) for reg, bk, s in rows if bk == b]
            picked = sample(pool, seed)
            counts = {c: sum(c in classes(s) for _, s in picked) for c in CLASS_MIN}
            print(b, len(picked), counts, file=sys.stderr)
            write_sentences(f"wild_{b}_sentences.txt", picked,
                            f"# REGISTER|TEXT: real English drawn by scripts/gen_wild_corpus.py from the {b} bucket\n"
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
                if reg in ("news", "titles", "quotations") or rng.random() < 0.15:
                    f.write(s.upper() + "\n")
            for name in ("corpus_sentences.txt", "heldout_sentences.txt", "fresh_sentences.txt"):
                for line in open(os.path.join(TESTDATA, name), encoding="utf-8"):
                    if line.strip() and not line.startswith("#"):
                        f.write(line.rstrip("\n").split("|", 1)[1] + "\n")


if __name__ == "__main__":
    main()
