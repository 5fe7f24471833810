"""The fifth held-out round's sources (wild5), for scripts/corpus/gen_wild_corpus.py --heldout5 and
--train (development data since the round's one scoring).
"""
import glob
import os
import re

from wild_common import fetch, paragraphs, pick_sentences, wesnoth

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
# package: (version, SHA-256 of its .deb, architecture)
PACKAGES5 = {
    "freeciv-data": ("3.0.6-1+deb12u1", "278bed022b87408ca9923aa727bef3d6c97875c811723e93ff95dded1b9b76b2", "all"),
    "git-doc": ("1:2.39.5-0+deb12u3", "3c89668a11053a6bafade3de1f611f4613db31e082af63f43d8c5b69ad8795ec", "all"),
    "wesnoth-1.16-tsg": ("1:1.16.9-1", "38b5f564253b8e0d9c093b2b7c58aabfef24f688968d9cbaf42abfc1e76d8288", "all"),
    "wesnoth-1.16-did": ("1:1.16.9-1", "774619f5aaeb7eb4c848e1cc1758795a8c58e96bd270cceecc9d847dbcc769b3", "all"),
    "display-dhammapada": ("1.0-0.1+b1", "a264c82ad7a09495dc55e07e799c63e7202444be6c4660debf130f982be8dc9d", "amd64"),
}
QUOTA5 = {"news": 70, "titles": 40, "questions": 15, "dialogue": 80, "narrative": 50, "technical": 95,
          "quotations": 70}


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
    roots = {p: fetch(p, dest, pin) for p, pin in PACKAGES5.items()}
    docs = list(freeciv_legends(roots["freeciv-data"]))
    docs += list(git_docs(roots["git-doc"]))
    docs += list(wesnoth(roots["wesnoth-1.16-tsg"], "The_South_Guard"))
    docs += list(wesnoth(roots["wesnoth-1.16-did"], "Descent_Into_Darkness"))
    docs += list(dhammapada(roots["display-dhammapada"]))
    return pick_sentences(docs, "heldout5", ("titles", "questions", "dialogue", "quotations"),
                          question=lambda s: 15 <= len(s) <= 160)
