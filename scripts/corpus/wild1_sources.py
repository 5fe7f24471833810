"""The first round's sources, for scripts/corpus/gen_wild_corpus.py --sentences and --train: news and
titles (r-cran-tm), Jane Austen's dialogue and narrative (r-cran-janeaustenr), FOLDOC and the
Jargon File (dict-foldoc, dict-jargon), the Devil's Dictionary (dict-devil) and, for the training
text only, the Python documentation (python3.11-doc); gen_wild_corpus.py's docstring tells how
their documents are bucketed.
"""
import glob
import html
import os
import re
import zlib

from wild_common import bucket, dictd, fetch, sentences, usable

# package: (version, SHA-256 of its .deb, architecture)
PACKAGES = {
    "r-cran-tm": ("0.7-11-1", "483fa4e8c8fec74a36875470932b71c21ed2209bbab504f50844aca2d24cb51b", "amd64"),
    "r-cran-janeaustenr": ("1.0.0-1", "df6bddf211906d1ff404f8ff662c21b34e6660e7f54a311084e749050c019c95", "all"),
    "dict-foldoc": ("20230119-1", "745cbedb55c2da609cc88ee0284e9d11a67a11ae3709daf7bad0e895ac3294c3", "all"),
    "dict-jargon": ("4.4.7-3.1", "405f8168d7994ed2cb71407bb95493daec2e9aa66fc0461dafa74a9d6728a8c1", "all"),
    "dict-devil": ("1.0-13.1", "6a535684def2a1f70cd42da16d12d43f0e9dc3e54e4a329178eebab3170e3154", "all"),
    # Training text only (never sampled into a corpus): the Python documentation's sources.
    "python3.11-doc": ("3.11.2-6+deb12u9", "5b3594189d6ef9a6963ce0347fd307a1cc67620ad697e144db366070e2e146be", "all"),
}
QUOTA = {"news": 80, "titles": 30, "dialogue": 90, "narrative": 60, "technical": 90, "quotations": 70}


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


def all_sentences(dest):
    roots = {p: fetch(p, dest, pin) for p, pin in PACKAGES.items()}
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
