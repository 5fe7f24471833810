"""The second held-out round's sources (wild2), for scripts/corpus/gen_wild_corpus.py --heldout2 and
--train (development data since the round's one scoring).
"""
import glob
import html
import os
import re
import zlib

from wild_common import dictd, fetch, sentences, usable

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
# package: (version, SHA-256 of its .deb, architecture)
PACKAGES2 = {
    "r-cran-wordcloud": ("2.6-2", "2c2f537e6aa2b862f3647bb8198b079c661c5162f1ff0968d469ff7ee2ae9539", "amd64"),
    "r-cran-tokenizers": ("0.3.0-1", "6312f013ebfde5650235bfd7ba5c44d9e4cf9f2da9855337c9483fe778f0d8c7", "amd64"),
    "debian-handbook": ("11.20220922", "3d5dbeac1f1afc9c094eab9d0f701f6ecff99c4927d5a4794cf6c85678134faa", "all"),
    "dict-gcide": ("0.48.5+nmu2", "7b0af5cfde3cbdef5e9d6e78f92ec335ced7c2790f37a40f49bebc6f7347ac0f", "all"),
    "miscfiles": ("1.5+dfsg-4", "b29fdc907760ded52adbc1b4322da22b94108cd124caf0b23da8c23cc3578a28", "all"),
}
QUOTA2 = {"speeches": 70, "titles": 30, "dialogue": 90, "narrative": 60, "technical": 90, "quotations": 60,
          "legal": 20}


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
    roots = {p: fetch(p, dest, pin) for p, pin in PACKAGES2.items()}
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
