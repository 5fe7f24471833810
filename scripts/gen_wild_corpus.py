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
    --train OUT  write the training bucket's sentences (never the held-out or development ones),
                 the second to fifth held-out rounds' sources (development data since they were
                 scored), less each round's own corpus sentences, and the older development corpora's
                 sentences (plus upper-cased copies of all titles and quotations and of UPPER_SHARE of
                 the rest, so the tagger sees capitals) to OUT, one per line, for
                 scripts/gen_tagger_data.py

    --heldout2   write phonemize/testdata/wild2_heldout_sentences.txt: the second held-out round,
                 from the packages of PACKAGES2 (below), which nothing else here draws on
    --heldout3   write phonemize/testdata/wild3_heldout_sentences.txt: the third held-out round,
                 from the packages of PACKAGES3, which neither earlier round nor the training text used
    --heldout4   write phonemize/testdata/wild4_heldout_sentences.txt: the fourth held-out round,
                 from the packages of PACKAGES4, which no earlier round and no training text used
    --heldout5   write phonemize/testdata/wild5_heldout_sentences.txt: the fifth held-out round,
                 from the packages of PACKAGES5, which no earlier round and no training text used
    --heldout6   write phonemize/testdata/wild6_heldout_sentences.txt: the sixth held-out round,
                 from the packages of PACKAGES6, which no earlier round and no training text used
    --heldout7   write phonemize/testdata/wild7_heldout_sentences.txt: the seventh held-out round,
                 from the packages of PACKAGES7, which no earlier round and no training text used
    --heldout8   write phonemize/testdata/wild8_heldout_sentences.txt: the eighth held-out round, from
                 the packages and extractors of scripts/wild8_sources.py, which no earlier round used

The fortune packages are deliberately not used: they are kept as an outside judge.
Needs: apt-get (package lists updated), python3 with the `rdata` package (reads R data files;
1.1.0 made the committed files).
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

# The second held-out round (wild2) draws on packages that no earlier corpus and no training
# text used, so that none of its documents, authors or registers' sources was tuned on:
#   speeches    two State of the Union addresses (r-cran-wordcloud's SOTU), in place of news
#   dialogue    quoted speech from Melville's Moby-Dick (r-cran-tokenizers' mobydick)
#   narrative   the same novel's narration
#   technical   The Debian Administrator's Handbook, English edition (debian-handbook)
#   titles      the handbook's and the novel's chapter and section titles, written in capitals
#   quotations  the cited quotations of Webster's 1913 dictionary (dict-gcide)
#   legal       the US Constitution and Declaration of Independence (miscfiles)
# All of their documents are held out: nothing is tuned on them.
PACKAGES2 = {
    "r-cran-wordcloud": ("2.6-2", "2c2f537e6aa2b862f3647bb8198b079c661c5162f1ff0968d469ff7ee2ae9539"),
    "r-cran-tokenizers": ("0.3.0-1", "6312f013ebfde5650235bfd7ba5c44d9e4cf9f2da9855337c9483fe778f0d8c7"),
    "debian-handbook": ("11.20220922", "3d5dbeac1f1afc9c094eab9d0f701f6ecff99c4927d5a4794cf6c85678134faa"),
    "dict-gcide": ("0.48.5+nmu2", "7b0af5cfde3cbdef5e9d6e78f92ec335ced7c2790f37a40f49bebc6f7347ac0f"),
    "miscfiles": ("1.5+dfsg-4", "b29fdc907760ded52adbc1b4322da22b94108cd124caf0b23da8c23cc3578a28"),
}

# The third held-out round (wild3) draws on packages that neither earlier round, no development
# corpus and no training text used:
#   news        A Short History of the Debian Project: releases, leaders, events (debian-history)
#   legal       the Debian Constitution and Social Contract shipped with it
#   technical   the Debian Reference, the Developer's Reference and the Debian Policy Manual
#   titles      their chapter and section titles, written in capitals
#   questions   the Debian FAQ's questions, as written
#   dialogue    WordNet 3.0's usage examples in the first or second person, in their quotes
#   narrative   WordNet's other usage examples that are whole capitalised sentences
#   quotations  a WordNet gloss with its quoted examples, as the dictionary prints it
# All of their documents are held out: nothing is tuned on them.
PACKAGES3 = {
    "debian-history": ("2.28", "ae364cdfd075bf6a08ca8f5105b44db7093e3b201c95d3b70a863b8849c6a082"),
    "debian-reference-en": ("2.100", "9f31d3a17df505de09689ca255512ea58c1fc47c59bb1b0c7bf1c23362e9743f"),
    "developers-reference": ("12.18", "0dba82f6fa16e373f2a84ad07e7971aa9264ad2e7d2ae46b37edbc9c5fd57e2e"),
    "debian-policy": ("4.6.2.0", "ef9d01b625c3b87c3a845c2cd1b66f1a16e9240b2b9e5bee53472a00e8457a39"),
    "debian-faq": ("11.1", "427426e0cfa6888622fc1d72631071cb4b5a1f86ccde722e7820bcef284de5d0"),
    "wordnet-base": ("1:3.0-37", "61060d960f9ada8fa120872312eccd3ecebfbab8c4579e4f5a74e1cf67620752"),
}

# The fourth held-out round (wild4) draws on packages that no earlier round, no development
# corpus and no training text used:
#   news        GNU Emacs's release news (etc/NEWS.19 to NEWS.27): what each release changed
#   titles      the GNU Coding Standards' and Information for Maintainers' section titles,
#               written in capitals (gnu-standards)
#   questions   the Perl FAQ's questions, as written (perl-doc)
#   dialogue    the lines spoken in the Ren'Py tutorial game, in their quotes (renpy-demo)
#   narrative   the Harvard sentences (r-cran-stringr's `sentences`)
#   technical   the GNU Coding Standards' and the Perl FAQ's prose
#   quotations  the quotes about Vim collected in its help (vim-runtime's quotes.txt), each with
#               its attribution in brackets as printed
# All of their documents are held out: nothing is tuned on them.
PACKAGES4 = {
    "emacs-common": ("1:28.2+1-15+deb12u4", "35a9075085d83962841c50289d7ae25e2075cffeadf5c2df78f9c76ad51ee9cf"),
    "gnu-standards": ("2022.03.23-0.1", "2087dda531c69d8505856a45e0334746f3f25211a237c95d375eed13a7d8c201"),
    "perl-doc": ("5.36.0-7+deb12u4", "f4269cff4576d6f02a6756df842988e58451c7e945b08517dd235531b24e48f8"),
    "renpy-demo": ("8.0.3+dfsg-1", "b7599368598cd7a96e89772d48d7c89327fcc8d4490e0760eceda0bd792025d5"),
    "r-cran-stringr": ("1.5.0-1", "f180d2e5f79b4aab871425898399d3bebbd6993262e692e166638a720879990e"),
    "vim-runtime": ("2:9.0.1378-2+deb12u2", "6a3dd2317a593742cb247f3494d986b3127887dbe1449253b8efa6112289854e"),
}

# The fifth held-out round (wild5) draws on packages that no earlier round, no development
# corpus and no training text used:
#   news        the nations' histories in Freeciv's rulesets (freeciv-data): short reportage of
#               peoples, states, rulers and dates
#   titles      the section titles of Git's user manual and tutorials, written in capitals (git-doc)
#   questions   the Git FAQ's questions, as written
#   dialogue    the lines spoken in two Wesnoth campaigns, The South Guard and Descent into Darkness,
#               in quotes (wesnoth-1.16-tsg, wesnoth-1.16-did)
#   narrative   the same campaigns' story and narrator text
#   technical   Git's user manual, tutorials, workflows and FAQ answers (git-doc)
#   quotations  the verses of the Dhammapada in John Richards's translation (display-dhammapada)
# All of their documents are held out: nothing is tuned on them.
PACKAGES5 = {
    "freeciv-data": ("3.0.6-1+deb12u1", "278bed022b87408ca9923aa727bef3d6c97875c811723e93ff95dded1b9b76b2"),
    "git-doc": ("1:2.39.5-0+deb12u3", "3c89668a11053a6bafade3de1f611f4613db31e082af63f43d8c5b69ad8795ec"),
    "wesnoth-1.16-tsg": ("1:1.16.9-1", "38b5f564253b8e0d9c093b2b7c58aabfef24f688968d9cbaf42abfc1e76d8288"),
    "wesnoth-1.16-did": ("1:1.16.9-1", "774619f5aaeb7eb4c848e1cc1758795a8c58e96bd270cceecc9d847dbcc769b3"),
    "display-dhammapada": ("1.0-0.1+b1", "a264c82ad7a09495dc55e07e799c63e7202444be6c4660debf130f982be8dc9d"),
}

# The sixth held-out round (wild6) draws on packages that no earlier round, no development
# corpus and no training text used:
#   news        SQLite's release announcements (sqlite3-doc's news page) and A Brief History of
#               PostgreSQL (postgresql-doc-15)
#   titles      the PostgreSQL 15 manual's part, chapter and section titles, written in capitals
#   questions   the SQLite FAQ's questions, as written (sqlite3-doc)
#   dialogue    the spoken lines of Endless Sky's mission conversations, in their quotes
#               (endless-sky-data)
#   narrative   the same conversations' narration
#   technical   the PostgreSQL 15 manual's prose (postgresql-doc-15)
#   quotations  the quotations and verse that Dungeon Crawl Stone Soup shows with its monsters,
#               items and gods (crawl-common's quotes.txt), without their attributions
# All of their documents are held out: nothing is tuned on them.
PACKAGES6 = {
    "sqlite3-doc": ("3.40.1-2+deb12u2", "466e30d7066e2641fa13e56bc662a2ad521b8cc9c17dde9c9dac3d4f105e32f2"),
    "postgresql-doc-15": ("15.18-0+deb12u1", "3c598277a463c44d672daa2c335deb8d8252e1852fb025fd4578ea2d9a1b90f0"),
    "endless-sky-data": ("0.9.8-1.2", "e45835e05a11e84bb1a890a0ded390246a53b8318f21a25925aa70fa54f80c13"),
    "crawl-common": ("2:0.28.0-1.1", "50c8f0091ba88538dde6585e5eddba02677bfe94d3ee4dc90a5bd3a788650f59"),
}

# The seventh held-out round (wild7) draws on packages that no earlier round, no development
# corpus and no training text used:
#   news        GNU nano's release announcements (its NEWS) and NetHack's history of its
#               releases and ports (nethack-common's history file)
#   titles      the Bash Reference Manual's chapter and section titles, written in capitals
#               (bash-doc)
#   questions   the nano FAQ's questions, as written (nano)
#   dialogue    the quoted speech of the Terry Pratchett passages in NetHack's tribute to him
#               (nethack-common)
#   narrative   the same passages' narration
#   technical   the Bash Reference Manual's prose (bash-doc)
#   quotations  the attributed quotations and verse of NetHack's encyclopedia, without their
#               attributions (nethack-common)
# All of their documents are held out: nothing is tuned on them.
PACKAGES7 = {
    "nano": ("7.2-1+deb12u1", "45a9b3960aa5ac18552459225ec26800abb73fc2edd11626046daf6d968ac968"),
    "nethack-common": ("3.6.6-3+b2", "760e7020de1cec4943c125c97e93d3dd5978128cd22117ae91cd7cf640f617b9"),
    "bash-doc": ("5.2.15-2", "2c1a353f7004d14ba81db19c253b958d2dd9582027650739c530fd50376a9d8b"),
}


def sha256(path):
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for b in iter(lambda: f.read(1 << 20), b""):
            h.update(b)
    return h.hexdigest()


def fetch(pkg, dest, pin=None):
    """pin: (version, SHA-256, architecture) of a package of a round kept in its own file."""
    version, want = pin[:2] if pin else (PACKAGES.get(pkg) or PACKAGES2.get(pkg) or PACKAGES3.get(pkg)
                                         or PACKAGES4.get(pkg) or PACKAGES5.get(pkg) or PACKAGES6.get(pkg)
                                         or PACKAGES7[pkg])
    arch = pin[2] if pin else "amd64" if pkg in ("r-cran-tm", "r-cran-tokenizers", "r-cran-wordcloud",
                                                 "display-dhammapada", "nano", "nethack-common") else "all"
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


# --- the second held-out round's sources ---------------------------------------------------

def sotu(root):
    import rdata
    d = rdata.conversion.convert(rdata.parser.parse_file(
        os.path.join(root, "usr/lib/R/site-library/wordcloud/data/SOTU.RData")))
    for i, doc in enumerate(d["SOTU"]["content"]):
        for j, par in enumerate(str(doc["content"][0]).split("\n")):
            yield "speeches", f"sotu-{i}-{j}", par.replace("\u2019", "'")


def mobydick(root):
    import rdata
    d = os.path.join(root, "usr/lib/R/site-library/tokenizers/data/")
    idx = rdata.conversion.convert(rdata.parser.parse_file(d + "Rdata.rdx"))
    off, ln = idx["variables"]["mobydick"]
    blob = open(d + "Rdata.rdb", "rb").read()[int(off):int(off) + int(ln)]
    text = str(rdata.conversion.convert(rdata.parser.parse_data(zlib.decompress(blob[4:])))[0])
    text = text.replace("\r\n", "\n")
    start = text.find("CHAPTER 1. Loomings.")
    end = text.find("End of Project Gutenberg")
    parts = re.split(r"\n\s*\n\s*CHAPTER (\d+)\. ([^\n]*)\n", "\n\n" + text[start:end])
    for k in range(1, len(parts) - 2, 3):
        ch, title, body = parts[k], parts[k + 1], parts[k + 2]
        yield "titles", f"mobydick-{ch}", title.strip().rstrip(".").upper()
        pars = []
        for par in re.split(r"\n\s*\n", body):
            lines = [l for l in par.split("\n") if l.strip()]
            if not lines or any(l.startswith("    ") for l in lines):
                continue  # verse, letters and quoted extracts set off by indentation
            pars.append(" ".join(l.strip() for l in lines).replace("--", "\u2014"))
        yield "melville", f"mobydick-{ch}", "\n".join(pars)


def handbook(root):
    base = os.path.join(root, "usr/share/doc/debian-handbook/html/en-US")

    def plain(h):
        h = re.sub(r"<[^>]*>", "", h)
        return " ".join(html.unescape(h).split())
    for path in sorted(glob.glob(base + "/*.html")):
        raw = open(path, encoding="utf-8", errors="replace").read()
        name = "handbook-" + os.path.basename(path)
        for m in re.finditer(r"<h[123] class=\"title\">(.*?)</h[123]>", raw, re.S):
            t = re.sub(r"^(Chapter |Appendix )?[0-9A-Z]+(\.[0-9]+)*\.\s*", "", plain(m.group(1)))
            if t:
                yield "titles", name, t.upper()
        pars = []
        for m in re.finditer(r'<div class="para">(.*?)</div>', raw, re.S):
            if "<pre" in m.group(1) or "<table" in m.group(1):
                continue
            pars.append(plain(m.group(1)))
        yield "technical", name, "\n".join(pars)


def gcide(root):
    seen = set()
    for head, entry in dictd(root, "gcide"):
        if entry in seen:
            continue
        seen.add(entry)
        # A citation: lines indented past the definition's, then an attribution "--Author."
        block = []
        for line in entry.split("\n"):
            if line.strip().startswith("--") and block and block[0][0].isupper():
                yield "quotations", f"gcide-{head}", " ".join(block)
                block = []
            elif line.startswith("      ") and line.strip() and not line.strip().startswith(("[", "{", "--")):
                block.append(line.strip())
            else:
                block = []


def charters(root):
    for name in ("us-constitution", "us-declaration"):
        import gzip
        text = gzip.open(os.path.join(root, f"usr/share/state/{name}.gz")).read().decode("utf-8", "replace")
        for i, par in enumerate(re.split(r"\n\s*\n", text)):
            yield "legal", f"{name}-{i}", " ".join(par.split())


def all_sentences2(dest, train=False):
    """The second round's sentences; with train, also those too long or too odd for a corpus."""
    roots = {p: fetch(p, dest) for p in PACKAGES2}
    docs = list(sotu(roots["r-cran-wordcloud"])) + list(mobydick(roots["r-cran-tokenizers"]))
    docs += list(handbook(roots["debian-handbook"])) + list(gcide(roots["dict-gcide"]))
    docs += list(charters(roots["miscfiles"]))
    out, seen = [], set()
    for register, name, text in docs:
        for s in [text] if register == "titles" else sentences(text):
            reg = register
            if register == "melville":
                reg = "dialogue" if re.search(r"[\"“”]", s) else "narrative"
            if register == "titles":
                if not (10 <= len(s) <= 120) or not re.search(r"[A-Z]{3}", s):
                    continue
            elif not usable(s) and not (train and 3 <= len(s) <= 400 and "\t" not in s):
                continue
            if s in seen:
                continue
            seen.add(s)
            out.append((reg, "heldout2", s))
    return out


# --- the third held-out round's sources ----------------------------------------------------

def _plain(h):
    h = re.sub(r"<a class=\"headerlink\".*?</a>", "", h, flags=re.S)
    h = re.sub(r"<[^>]*>", "", h)
    return " ".join(html.unescape(h).split())


def html_docs(paths, prefix, titles=True):
    """Each HTML file of a manual: its section titles (in capitals) and its prose paragraphs;
    paragraphs holding code blocks or tables are left out."""
    for path in paths:
        raw = open(path, encoding="utf-8", errors="replace").read()
        name = prefix + os.path.basename(path)
        for m in re.finditer(r"<h[123][^>]*>(.*?)</h[123]>", raw, re.S):
            t = _plain(m.group(1))
            t = re.sub(r"^(Chapter |Appendix )?[0-9A-Z]+(\.[0-9]+)*\.\s*", "", t)
            if t and t not in ("Navigation", "Table of Contents") and titles:
                yield "titles", name, t.upper()
            elif t and not titles:
                yield "questions", name, t
        pars = []
        for m in re.finditer(r"<p[ >](.*?)</p>", raw, re.S):
            if re.search(r"<pre|<table", m.group(1)):
                continue
            pars.append(_plain("<p " + m.group(1)))
        yield "technical", name, "\n".join(pars)


def debian_history(root):
    base = os.path.join(root, "usr/share/doc/debian-history/docs")
    for reg, name, text in html_docs(sorted(glob.glob(base + "/*.en.html")), "history-"):
        yield ("news" if reg == "technical" else reg), name, text
    import gzip
    for doc in ("constitution.txt.gz", "social-contract.txt.gz"):
        text = gzip.open(os.path.join(root, "usr/share/doc/debian-history", doc)).read().decode("utf-8", "replace")
        for i, par in enumerate(re.split(r"\n\s*\n", text)):
            par = re.sub(r"^\s*(\d+(\.\d+)*\.?)\s+", "", par)  # clause numbers
            yield "legal", f"{doc}-{i}", " ".join(par.split())


def wordnet(root):
    first_second = re.compile(r"\b(I|I'm|I've|I'll|I'd|me|my|we|us|our|you|your|you're)\b")
    for pos in ("noun", "verb", "adj", "adv"):
        for line in open(os.path.join(root, "usr/share/wordnet/data." + pos), encoding="utf-8", errors="replace"):
            if line.startswith(" ") or "| " not in line:
                continue
            offset, gloss = line.split(" ", 1)[0], line.split("| ", 1)[1].strip()
            name = f"wordnet-{pos}-{offset}"
            examples = re.findall(r'"([^"]+)"', gloss)
            if examples and len(gloss) <= 220:
                yield "quotations", name, gloss
            for ex in examples:
                ex = ex.strip()
                if first_second.search(ex):
                    yield "dialogue", name, '"' + ex + '"'
                elif ex[:1].isupper() and len(ex.split()) >= 5:
                    yield "narrative", name, ex


def pick_sentences(docs, label, whole, question=lambda s: 20 <= len(s) <= 160 and s.endswith("?")):
    """The usable sentences of a held-out round's documents, each once, as (register, label,
    sentence). Documents of the registers in whole are taken as one sentence each; a title must
    have a run of capitals, a question must pass question."""
    out, seen = [], set()
    for register, name, text in docs:
        for s in [text] if register in whole else sentences(text):
            if register == "titles":
                if not (10 <= len(s) <= 120) or not re.search(r"[A-Z]{3}", s):
                    continue
            elif register == "questions":
                if not question(s) or not usable(s):
                    continue
            elif not usable(s):
                continue
            if s in seen:
                continue
            seen.add(s)
            out.append((register, label, s))
    return out


def all_sentences3(dest):
    roots = {p: fetch(p, dest) for p in PACKAGES3}
    docs = list(debian_history(roots["debian-history"]))
    docs += html_docs(sorted(glob.glob(os.path.join(roots["debian-reference-en"], "usr/share/debian-reference/*.en.html"))), "reference-")
    docs += html_docs(sorted(glob.glob(os.path.join(roots["developers-reference"], "usr/share/developers-reference/*.html"))), "devref-")
    docs += html_docs(sorted(glob.glob(os.path.join(roots["debian-policy"], "usr/share/doc/debian-policy/policy.html/*.html"))), "policy-")
    docs += html_docs(sorted(glob.glob(os.path.join(roots["debian-faq"], "usr/share/doc/debian/FAQ/*.en.html"))), "faq-", titles=False)
    docs += list(wordnet(roots["wordnet-base"]))
    return pick_sentences(docs, "heldout3", ("titles", "questions", "dialogue", "narrative", "quotations"))


# --- the fourth held-out round's sources ---------------------------------------------------

def paragraphs(text):
    return [p for p in re.split(r"\n[ \t]*\n", text) if p.strip()]


def emacs_news(root):
    """Each release's news entries: the prose under each heading, without the headings, the
    documentation markers and the indented code."""
    base = os.path.join(root, "usr/share/emacs/28.2/etc")
    for n in range(19, 28):
        text = open(os.path.join(base, f"NEWS.{n}"), encoding="utf-8", errors="replace").read()
        for i, par in enumerate(paragraphs(text)):
            lines = [ln for ln in par.split("\n")
                     if ln.strip() and not ln.startswith(("*", "+++", "---", " ", "\t", "\f"))]
            if lines:
                yield "news", f"emacs-NEWS.{n}-{i}", " ".join(" ".join(lines).split())


def gnu_standards(root):
    """The two manuals' plain-text editions: section titles (the lines underlined with = - * or
    .) in capitals, and their prose paragraphs; examples (indented) and list items are left out."""
    import gzip
    for doc in ("standards", "maintain"):
        text = gzip.open(os.path.join(root, "usr/share/doc/gnu-standards", doc + ".text.gz")).read().decode("utf-8", "replace")
        lines = text.split("\n")
        for i, ln in enumerate(lines[:-1]):
            under = lines[i + 1]
            if ln.strip() and under and re.fullmatch(r"([=*.-])\1+", under) and len(under) == len(ln):
                t = re.sub(r"^(Appendix )?[0-9A-Z]+(\.[0-9]+)*\s+", "", ln.strip())
                yield "titles", f"gnu-{doc}-{i}", t.upper()
        for i, par in enumerate(paragraphs(text)):
            pl = par.split("\n")
            if any(re.fullmatch(r"([=*.-])\1+", x) for x in pl) or any(x.startswith("     ") for x in pl):
                continue
            if pl[0].lstrip().startswith(("* ", "- ")) or re.match(r"\s*\d+\.\s", pl[0]):
                continue
            yield "technical", f"gnu-{doc}-{i}", " ".join(par.split())


def _pod_plain(t):
    t = re.sub(r"[A-Z]<<+\s+(.*?)\s+>>+", r"\1", t)
    for _ in range(3):
        t = re.sub(r"L<([^<>|]*)\|[^<>]*>", r"\1", t)
        t = re.sub(r"E<lt>", "<", t)
        t = re.sub(r"E<gt>", ">", t)
        t = re.sub(r"X<[^<>]*>", "", t)
        t = re.sub(r"[A-Z]<([^<>]*)>", r"\1", t)
    return " ".join(t.split())


def perlfaq(root):
    """The Perl FAQ: its questions (=head2) and the prose paragraphs of its answers; verbatim
    (indented) blocks and list markup are left out."""
    for path in sorted(glob.glob(os.path.join(root, "usr/share/perl/5.36.0/pod/perlfaq[1-9].pod"))):
        text = open(path, encoding="utf-8", errors="replace").read()
        name = os.path.basename(path)
        for i, par in enumerate(paragraphs(text)):
            if par.startswith("=head2 "):
                yield "questions", f"{name}-{i}", _pod_plain(par.split("\n")[0][7:])
            elif not par.startswith(("=", " ", "\t")):
                yield "technical", f"{name}-{i}", _pod_plain(par)


def renpy(root):
    """The tutorial game's spoken lines (a character's name, then the line in double quotes),
    kept in their quotes; lines with interpolations or text tags fall to usable()."""
    for path in sorted(glob.glob(os.path.join(root, "usr/share/games/renpy/demo/game/*.rpy"))):
        for i, ln in enumerate(open(path, encoding="utf-8", errors="replace")):
            m = re.fullmatch(r'\s+[a-z_]+\s+"((?:[^"\\]|\\.)*)"\s*', ln.rstrip("\n"))
            if m:
                line = m.group(1).replace('\\"', '"').replace("\\n", " ")
                if '"' not in line:
                    yield "dialogue", f"renpy-{os.path.basename(path)}-{i}", '"' + " ".join(line.split()) + '"'


def harvard(root):
    import rdata
    d = os.path.join(root, "usr/lib/R/site-library/stringr/data/")
    idx = rdata.conversion.convert(rdata.parser.parse_file(d + "Rdata.rdx"))
    raw = open(d + "Rdata.rdb", "rb").read()
    off, ln = idx["variables"]["sentences"]
    blob = raw[int(off):int(off) + int(ln)]
    for i, s in enumerate(rdata.conversion.convert(rdata.parser.parse_data(zlib.decompress(blob[4:])))):
        yield "narrative", f"harvard-{i}", str(s)


def vim_quotes(root):
    text = open(os.path.join(root, "usr/share/vim/vim90/doc/quotes.txt"), encoding="utf-8", errors="replace").read()
    for i, par in enumerate(paragraphs(text)):
        if "*quotes" in par or "vim:tw" in par or "REFERENCE MANUAL" in par or "`" in par:
            continue
        yield "quotations", f"vimquote-{i}", " ".join(par.split())


def all_sentences4(dest):
    roots = {p: fetch(p, dest) for p in PACKAGES4}
    docs = list(emacs_news(roots["emacs-common"]))
    docs += list(gnu_standards(roots["gnu-standards"]))
    docs += list(perlfaq(roots["perl-doc"]))
    docs += list(renpy(roots["renpy-demo"]))
    docs += list(harvard(roots["r-cran-stringr"]))
    docs += list(vim_quotes(roots["vim-runtime"]))
    return pick_sentences(docs, "heldout4", ("titles", "questions", "dialogue", "narrative"))


# --- the fifth held-out round's sources ----------------------------------------------------

def freeciv_legends(root):
    """Each nation's legend, the few sentences of history its ruleset gives."""
    for path in sorted(glob.glob(os.path.join(root, "usr/share/games/freeciv/nation/*.ruleset"))):
        text = open(path, encoding="utf-8", errors="replace").read()
        m = re.search(r'legend\s*=\s*_\("((?:[^"\\]|\\.)*)"\)', text, re.S)
        if m:
            legend = re.sub(r"\\\n", " ", m.group(1)).replace('\\"', '"')
            yield "news", "freeciv-" + os.path.basename(path), " ".join(legend.split())


def _asciidoc_plain(t):
    """A paragraph as the rendered manual shows it: links by their names, code and emphasis
    without their marks."""
    t = re.sub(r"linkgit:([A-Za-z0-9-]+)\[\d\]", r"\1", t)
    t = re.sub(r"<<[^,>]*,([^>]*)>>", r"\1", t)
    t = re.sub(r"`([^`]*)`", r"\1", t)
    t = re.sub(r"(?<![\w'])'([^'\s][^']*?)'(?![\w'])", r"\1", t)
    return " ".join(t.split())


GIT_DOCS = ("user-manual", "gittutorial", "gittutorial-2", "gitcore-tutorial", "giteveryday",
            "gitworkflows", "gitfaq")


def git_docs(root):
    """Git's manual and tutorials: section titles in capitals (== headings and underlined
    lines), the FAQ's questions, and prose paragraphs; listings (between ---- or .... lines,
    or indented), anchors, list items and admonition blocks are left out."""
    base = os.path.join(root, "usr/share/doc/git-doc")
    for doc in GIT_DOCS:
        text = open(os.path.join(base, doc + ".txt"), encoding="utf-8", errors="replace").read()
        lines = text.split("\n")
        for i, ln in enumerate(lines):
            m = re.fullmatch(r"=+\s+(.*)", ln)
            title = m.group(1) if m else None
            if title is None and i + 1 < len(lines) and ln.strip() and re.fullmatch(r"([=~^-])\1{3,}", lines[i + 1]) \
                    and abs(len(lines[i + 1]) - len(ln)) <= 2:
                title = ln
            if title and title.strip() not in ("NAME", "SYNOPSIS", "DESCRIPTION", "SEE ALSO", "GIT"):
                yield "titles", f"git-{doc}-{i}", _asciidoc_plain(title).upper()
            q = re.fullmatch(r"(.*\?)::", ln)
            if q and doc == "gitfaq":
                yield "questions", f"git-{doc}-{i}", _asciidoc_plain(q.group(1))
        block = False
        for i, par in enumerate(paragraphs(text)):
            pl = [x for x in par.split("\n") if x.strip() not in ("+", "")]
            keep = []
            for j, x in enumerate(pl):
                under = j > 0 and not block and abs(len(x) - len(pl[j - 1])) <= 2 and pl[j - 1][:1].isalnum()
                if not under and re.fullmatch(r"(-{4,}|\.{4,}|={4,}|\*{4,})", x.strip()):
                    block = not block
                    continue
                if block or x.startswith((" ", "\t")) or re.fullmatch(r"\[\[.*\]\]|\[.*\]", x.strip()):
                    continue
                if x.startswith("=") or x.endswith("::") or re.fullmatch(r"([=~^-])\1{3,}", x):
                    keep = []
                    continue
                keep.append(x)
            if not keep or re.match(r"\s*([*-]|\d+\.|[A-Z]+:)\s", keep[0]) or not keep[0][:1].isupper():
                continue
            yield "technical", f"git-{doc}-{i}", _asciidoc_plain(" ".join(keep))


def wesnoth(root, campaign):
    """A campaign's spoken lines (message= in a [message]) in double quotes, and its story
    parts and narrator lines as narrative; WML writes a quote inside a string as two."""
    string = r'_\s*"((?:[^"]|"")*)"'
    for path in sorted(glob.glob(os.path.join(root, f"usr/share/games/wesnoth/1.16/data/campaigns/{campaign}/**/*.cfg"),
                              recursive=True)):
        text = open(path, encoding="utf-8", errors="replace").read()
        name = f"{campaign}-{os.path.basename(path)}"
        for m in re.finditer(r"(message|story)\s*=\s*" + string + r"|\{NARRATOR:\s*" + string, text):
            kind = m.group(1)
            s = (m.group(2) if kind else m.group(3)).replace('""', '"')
            if "$" in s or "<" in s or "\n\n" in s:
                continue
            s = " ".join(s.split())
            if kind == "message":
                if '"' not in s:
                    yield "dialogue", name, '"' + s + '"'
            else:
                yield "narrative", name, s


def dhammapada(root):
    """The verses of the English translation, each without its number; chapter titles left out."""
    text = open(os.path.join(root, "usr/share/display-dhammapada/dhammapada-english-transl.txt"),
                encoding="utf-8", errors="replace").read()
    text = text.split("(An Anthology of Verses)", 1)[1]
    for i, par in enumerate(paragraphs(text)):
        par = " ".join(par.split())
        m = re.fullmatch(r"(.*?[.!?;:,'\"’”)])\s*\d+(?:\s*-\s*\d+)?", par)
        if m:
            yield "quotations", f"dhammapada-{i}", m.group(1).replace("self- ", "self-")


def all_sentences5(dest):
    roots = {p: fetch(p, dest) for p in PACKAGES5}
    docs = list(freeciv_legends(roots["freeciv-data"]))
    docs += list(git_docs(roots["git-doc"]))
    docs += list(wesnoth(roots["wesnoth-1.16-tsg"], "The_South_Guard"))
    docs += list(wesnoth(roots["wesnoth-1.16-did"], "Descent_Into_Darkness"))
    docs += list(dhammapada(roots["display-dhammapada"]))
    return pick_sentences(docs, "heldout5", ("titles", "questions", "dialogue", "quotations"),
                          question=lambda s: 15 <= len(s) <= 160)


# --- the sixth held-out round's sources ----------------------------------------------------

def sqlite_docs(root):
    """SQLite's release announcements, each release's paragraphs and list items as news, and
    the FAQ's questions as written."""
    base = os.path.join(root, "usr/share/doc/sqlite3")
    raw = open(os.path.join(base, "news.html"), encoding="utf-8", errors="replace").read()
    for m in re.finditer(r"<h3>(.*?)</h3>\s*<blockquote>(.*?)</blockquote>", raw, re.S):
        body = re.sub(r"</?(p|li|ul|ol)[^>]*>", "\n\n", m.group(2))
        pars = [_plain(p) for p in paragraphs(body)]
        yield "news", "sqlite-news-" + _plain(m.group(1)), "\n".join(p for p in pars if p)
    raw = open(os.path.join(base, "faq.html"), encoding="utf-8", errors="replace").read()
    for i, m in enumerate(re.finditer(r'<a href="#q\d+">(.*?)</a>', raw, re.S)):
        yield "questions", f"sqlite-faq-{i}", _plain(m.group(1))


PG_SKIP_TITLE = re.compile(r"[_()<>=/]|^(Navigation|Table of Contents|Note|Tip|Warning|Caution|Important)$")


def postgres_docs(root):
    """The PostgreSQL 15 manual: its titles in capitals (without part, chapter and section
    numbers; titles naming code left out), its prose as technical text, and the history
    chapter's prose as news."""
    base = os.path.join(root, "usr/share/doc/postgresql-doc-15/html")
    pages = [p for p in sorted(glob.glob(base + "/*.html")) if not os.path.basename(p).startswith("release")]
    for reg, name, text in html_docs(pages, "postgresql-", titles=False):
        if reg == "questions":  # with titles=False, html_docs yields each title as written
            t = re.sub(r"^(Part [IVXL]+\.|Chapter \d+\.|Appendix [A-Z]\.|[0-9A-Z]+(\.[0-9]+)*\.)\s*", "", text)
            t = t.split(" — ")[0]
            if t and not PG_SKIP_TITLE.search(t):
                yield "titles", name, t.upper()
        elif name == "postgresql-history.html":
            yield "news", name, text
        else:  # the reference pages' name lines ("CREATE TABLE — define a new table") are no prose
            for s in sentences("\n".join(p for p in text.split("\n") if " — " not in p)):
                if s[:1].isupper():  # a paragraph's tail after a listing or a command name is no sentence
                    yield reg, name, s


def endless_sky(root):
    """The paragraphs of Endless Sky's mission conversations and dialogs, sentence by sentence:
    a sentence with a quote is dialogue; a paragraph without quotes is narration (the sentences
    of a speech that runs on between its quote marks are neither). The player's bracketed
    choices and lines with placeholders (<ship>, <planet>) are left out."""
    for path in sorted(glob.glob(os.path.join(root, "usr/share/games/endless-sky/data/*.txt"))):
        name = "endless-sky-" + os.path.basename(path)
        conv = None
        for ln in open(path, encoding="utf-8", errors="replace"):
            if not ln.strip():
                continue
            indent = len(ln) - len(ln.lstrip("\t"))
            s = ln.strip()
            if conv is not None and indent <= conv:
                conv = None
            if s == "conversation" or s.startswith("conversation "):
                conv = indent
                continue
            m = re.fullmatch(r"dialog\s+`(.*)`", s) or (re.fullmatch(r"`(.*)`", s) if conv is not None else None)
            if not m:
                continue
            quoted = '"' in m.group(1)
            for sent in sentences(m.group(1)):
                if not sent[:1].isupper() and not sent.startswith('"'):
                    continue
                if '"' in sent:
                    yield "dialogue", name, sent
                elif not quoted:
                    yield "narrative", name, sent


def crawl_quotes(root):
    """The quotations of Dungeon Crawl Stone Soup's quotes.txt, each entry's first quotation
    without its attribution line; one longer than a sentence is taken sentence by sentence."""
    text = open(os.path.join(root, "usr/share/crawl/dat/descript/quotes.txt"), encoding="utf-8",
                errors="replace").read()
    for entry in text.split("%%%%\n"):
        lines = entry.split("\n")
        if len(lines) < 3 or lines[1].strip():
            continue
        body = []
        for ln in lines[2:]:
            if re.match(r"\s+-\S", ln) or not ln.strip():
                break
            body.append(ln.strip())
        quote = " ".join(body)
        if not quote or "<" in quote:
            continue
        name = "crawl-" + lines[0].strip()
        if len(quote) <= 220:
            yield "quotations", name, quote
        else:
            for sent in sentences(quote):
                yield "quotations", name, sent


def all_sentences6(dest):
    roots = {p: fetch(p, dest) for p in PACKAGES6}
    docs = list(sqlite_docs(roots["sqlite3-doc"]))
    docs += list(postgres_docs(roots["postgresql-doc-15"]))
    docs += list(endless_sky(roots["endless-sky-data"]))
    docs += list(crawl_quotes(roots["crawl-common"]))
    return pick_sentences(docs, "heldout6", ("titles", "questions", "dialogue", "narrative", "technical", "quotations"),
                          question=lambda s: 15 <= len(s) <= 160 and "?" in s)


# --- the seventh held-out round's sources --------------------------------------------------

def nano_docs(root):
    """GNU nano's NEWS, each release's announcement (without its date, and without the heading
    line that only names the release) paragraph by paragraph and item by item as news, and the
    FAQ's questions as written, without their numbers."""
    import gzip
    base = os.path.join(root, "usr/share/doc/nano")
    text = gzip.open(os.path.join(base, "NEWS.gz")).read().decode("utf-8", "replace")
    for entry in re.split(r"\n(?=\d{4}\.\d\d\.\d\d - )", text):
        m = re.match(r"(\d{4}\.\d\d\.\d\d) - (.*)", entry, re.S)
        if not m:
            continue
        first, _, rest = m.group(2).partition("\n")
        body = rest if re.fullmatch(r'GNU nano [0-9.]+ "[^"]*"\s*', first) else m.group(2)
        items = []
        for par in paragraphs(body):
            items += [" ".join(x.split()) for x in re.split(r"(?m)^\s*•\s*", par) if x.strip()]
        yield "news", "nano-news-" + m.group(1), "\n".join(items)
    raw = open(os.path.join(base, "faq.html"), encoding="utf-8", errors="replace").read()
    for m in re.finditer(r'<a href="#([0-9.]+)">(.*?)</a>', raw, re.S):
        yield "questions", "nano-faq-" + m.group(1), re.sub(r"^[0-9.]+\s*", "", _plain(m.group(2)))


def nethack_files(root):
    """The files of NetHack's data library (nhdat): its first line gives the number of files
    and where the data starts; the directory before it names each file and its offset."""
    raw = open(os.path.join(root, "usr/lib/games/nethack/nhdat"), "rb").read()
    head = raw.split(b"\n", 1)[0].split()
    entries = [(n.decode(), int(o)) for n, o in re.findall(rb"n(\S+)\s+(\d+)", raw[:int(head[3])])]
    if len(entries) != int(head[1]):
        sys.exit(f"nhdat: {len(entries)} directory entries, want {int(head[1])}")
    entries.append(("", len(raw)))
    return {n: raw[o:entries[i + 1][1]].decode("latin-1") for i, (n, o) in enumerate(entries[:-1])}


def _nh_plain(t):
    """A NetHack passage's text as a reader sees it: no elisions, dashes for --, no emphasis."""
    t = re.sub(r"\[ ?\.\.\. ?\]", "", t).replace("--", "\u2014").replace("_", "")
    return " ".join(t.split())


SINGLE_QUOTED = re.compile(r"(^|\s)'[A-Za-z].*[.,!?]'")


def nethack_tribute(files):
    """The Pratchett passages of NetHack's tribute, paragraph by paragraph and sentence by
    sentence: a sentence with a quote is dialogue; a sentence of a paragraph without quotes is
    narration (the sentences of a speech that runs on between its quote marks are neither).
    The bracketed attributions are left out."""
    title, body = None, None
    for ln in files["tribute"].split("\n"):
        if ln.startswith("%title "):
            title = re.sub(r"\s*\(\d+\)$", "", ln[7:].strip())
        elif ln.startswith("%passage"):
            body = []
        elif ln.startswith("%e passage") and body is not None:
            name = f"tribute-{title}-{ln.split()[-1]}"
            for par in paragraphs("\n".join(body)):
                par = _nh_plain(par)
                quoted = '"' in par or SINGLE_QUOTED.search(par)
                for s in sentences(par):
                    if not s[:1].isupper() and not s.startswith(('"', "'")):
                        continue
                    if '"' in s or SINGLE_QUOTED.search(s):
                        yield "dialogue", name, s
                    elif not quoted:
                        yield "narrative", name, s
            body = None
        elif body is not None and not ln.startswith("#") and not re.fullmatch(r"\s*\[.*\]\s*", ln):
            body.append(ln)


def nethack_encyclopedia(files):
    """The encyclopedia's attributed passages (a quotation or verse, then its attribution in
    brackets), each without the attribution; one longer than a sentence is taken sentence by
    sentence. The index gives each entry's offset into the text and its number of lines."""
    data = files["data"]
    lines = data.split("\n")
    text = data[int(lines[1], 16):]
    for i, m in enumerate(re.finditer(r"^(\d+),(\d+)$", data[:int(lines[1], 16)], re.M)):
        entry = text[int(m.group(1)):].split("\n")[:int(m.group(2))]
        block = []
        for ln in entry:
            if re.fullmatch(r"\s*\[.*\]\s*", ln) and not re.fullmatch(r"\s*\[ ?\.\.\. ?\]\s*", ln):
                pars = [_nh_plain(p) for p in paragraphs("\n".join(block))]
                quote = " ".join(pars)
                block = []
                if not quote:
                    continue
                if len(quote) <= 220:
                    yield "quotations", f"encyclopedia-{i}", quote
                else:
                    for s in sentences("\n".join(pars)):
                        yield "quotations", f"encyclopedia-{i}", s
            else:
                block.append(ln)


def nethack_history(files):
    """NetHack's history file: who wrote, ported and released which version, paragraph by paragraph."""
    for i, par in enumerate(paragraphs(files["history"])):
        yield "news", f"nethack-history-{i}", " ".join(par.split())


BASH_SKIP_TITLE = re.compile(r"^(Table of Contents|Bash Features|Bash Reference Manual)$|Index")


def bash_manual(root):
    """The Bash Reference Manual: its chapter and section titles in capitals (without their
    numbers), and its prose paragraphs sentence by sentence; paragraphs holding examples or
    tables and the navigation lines are left out."""
    raw = open(os.path.join(root, "usr/share/doc/bash/bashref.html"), encoding="utf-8", errors="replace").read()
    for i, m in enumerate(re.finditer(r'<h[1-4] class="(chapter|section|subsection|subsubsection|appendix'
                                      r'|appendixsec|node-heading)">(.*?)</h[1-4]>', raw, re.S)):
        t = re.sub(r"^(Appendix )?[0-9A-Z]+(\.[0-9]+)*\s+", "", _plain(m.group(2)))
        if t and not BASH_SKIP_TITLE.search(t):
            yield "titles", f"bashref-title-{i}", t.upper()
    # Not html_docs: its pattern drops the text of a bare <p> up to the first inline tag.
    for i, m in enumerate(re.finditer(r"<p(?:\s[^>]*)?>(.*?)</p>", raw, re.S)):
        if re.search(r"<pre|<table", m.group(1)):
            continue
        par = _plain(m.group(1))
        if "[Contents]" in par:
            continue
        for s in sentences(par):
            if s[:1].isupper():  # a paragraph's tail after an example is no sentence
                yield "technical", f"bashref-{i}", s


def all_sentences7(dest):
    roots = {p: fetch(p, dest) for p in PACKAGES7}
    nh = nethack_files(roots["nethack-common"])
    docs = list(nano_docs(roots["nano"]))
    docs += list(nethack_history(nh))
    docs += list(bash_manual(roots["bash-doc"]))
    docs += list(nethack_tribute(nh))
    docs += list(nethack_encyclopedia(nh))
    return pick_sentences(docs, "heldout7", ("titles", "questions", "dialogue", "narrative", "technical", "quotations"),
                          question=lambda s: 15 <= len(s) <= 160 and "?" in s)


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
QUOTA2 = {"speeches": 70, "titles": 30, "dialogue": 90, "narrative": 60, "technical": 90, "quotations": 60,
          "legal": 20}
QUOTA3 = {"news": 70, "titles": 30, "questions": 30, "dialogue": 70, "narrative": 50, "technical": 90,
          "quotations": 60, "legal": 20}
QUOTA4 = {"news": 70, "titles": 30, "questions": 30, "dialogue": 80, "narrative": 50, "technical": 100,
          "quotations": 60}
QUOTA5 = {"news": 70, "titles": 40, "questions": 15, "dialogue": 80, "narrative": 50, "technical": 95,
          "quotations": 70}
QUOTA6 = {"news": 70, "titles": 40, "questions": 15, "dialogue": 80, "narrative": 50, "technical": 95,
          "quotations": 70}
QUOTA7 = {"news": 70, "titles": 40, "questions": 15, "dialogue": 80, "narrative": 50, "technical": 95,
          "quotations": 70}
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


def main():
    global HETERONYMS
    HETERONYMS = load_heteronyms()
    if "--heldout2" in sys.argv[1:]:
        draw_heldout("heldout2", all_sentences2, QUOTA2, 2026, "wild2_heldout_sentences.txt",
                     "# REGISTER|TEXT: real English drawn by scripts/gen_wild_corpus.py --heldout2 from packages\n"
                     "# no earlier corpus or training text used (see the script). Each line is read in US and GB.\n"
                     "# Scored once at 6698677 (rules frozen at d25d46a); development data since: tuned on.\n")
        return
    if "--heldout3" in sys.argv[1:]:
        draw_heldout("heldout3", all_sentences3, QUOTA3, 2027, "wild3_heldout_sentences.txt",
                     "# REGISTER|TEXT: real English drawn by scripts/gen_wild_corpus.py --heldout3 from packages\n"
                     "# neither earlier round nor the training text used (see the script). Each line is read in US and GB.\n")
        return
    if "--heldout4" in sys.argv[1:]:
        draw_heldout("heldout4", all_sentences4, QUOTA4, 2028, "wild4_heldout_sentences.txt",
                     "# REGISTER|TEXT: real English drawn by scripts/gen_wild_corpus.py --heldout4 from packages\n"
                     "# no earlier round and no training text used (see the script). Each line is read in US and GB.\n")
        return
    if "--heldout5" in sys.argv[1:]:
        draw_heldout("heldout5", all_sentences5, QUOTA5, 2029, "wild5_heldout_sentences.txt",
                     "# REGISTER|TEXT: real English drawn by scripts/gen_wild_corpus.py --heldout5 from packages\n"
                     "# no earlier round and no training text used (see the script). Each line is read in US and GB.\n")
        return
    if "--heldout6" in sys.argv[1:]:
        draw_heldout("heldout6", all_sentences6, QUOTA6, 2030, "wild6_heldout_sentences.txt",
                     "# REGISTER|TEXT: real English drawn by scripts/gen_wild_corpus.py --heldout6 from packages\n"
                     "# no earlier round and no training text used (see the script). Each line is read in US and GB.\n")
        return
    if "--heldout7" in sys.argv[1:]:
        draw_heldout("heldout7", all_sentences7, QUOTA7, 2031, "wild7_heldout_sentences.txt",
                     "# REGISTER|TEXT: real English drawn by scripts/gen_wild_corpus.py --heldout7 from packages\n"
                     "# no earlier round and no training text used (see the script). Each line is read in US and GB.\n")
        return
    if "--heldout8" in sys.argv[1:]:
        sys.modules.setdefault("gen_wild_corpus", sys.modules[__name__])  # its helpers: this copy
        import wild8_sources as w8
        draw_heldout("heldout8", w8.all_sentences8, w8.QUOTA8, w8.SEED8, "wild8_heldout_sentences.txt", w8.HEADER8)
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
