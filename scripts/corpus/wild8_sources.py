"""The eighth held-out round's sources (wild8), for scripts/corpus/gen_wild_corpus.py --heldout8.

Like the earlier rounds' sources (scripts/corpus/wild1_sources.py to wild7_sources.py), it uses the
shared helpers of scripts/corpus/wild_common.py (fetching a pinned package, sentence splitting, the
usable-sentence filter, the Wesnoth campaign reader). The round draws on packages that no earlier
round, no development corpus and no training text used:
  news        GNU Make's release news, version by version (make's NEWS), and the dated events of
              calendar's history file (calendar.history), each with its year
  titles      An Introduction to R's chapter and section titles, written in capitals (r-doc-html)
  questions   the R FAQ's questions, as written (r-doc-html)
  dialogue    the spoken lines of the Wesnoth campaign Heir to the Throne, in quotes
              (wesnoth-1.16-httt)
  narrative   the same campaign's story and narrator text
  technical   An Introduction to R's prose (r-doc-html)
  quotations  the Proverbs in the World English Bible, sentence by sentence, without the
              translators' notes (sword-text-web)
All of their documents are held out: nothing is tuned on them.
"""
import gzip
import os
import re
import struct
import zlib

import wild_common as wild

# package: (version, SHA-256 of its .deb, architecture)
PACKAGES8 = {
    "make": ("4.3-4.1", "a1a83af8cbd854af887b72ad196b1f4af58387815e21ced1000253a116a46e2a", "amd64"),
    "calendar": ("12.1.8", "30aa06491313ad4ce48d24ff094cba91518adec5ce964a8790b6baf0725cedc4", "amd64"),
    "r-doc-html": ("4.2.2.20221110-2", "2c615dd386993a440b80fd4e9060318386e31fbe47f5be65f295f5fb34002c5c", "all"),
    "wesnoth-1.16-httt": ("1:1.16.9-1", "05b16a3f8f8204278794aae14d8e6a7c95d2b2faef7337c4997c827a146d1bbd", "all"),
    "sword-text-web": ("426.0-1", "930b23670b352f0829a306501de4bebb5e654a2df02cde2cbe86b802177868e1", "all"),
}
QUOTA8 = {"news": 70, "titles": 40, "questions": 15, "dialogue": 80, "narrative": 50, "technical": 95,
          "quotations": 70}
SEED8 = 2032
HEADER8 = ("# REGISTER|TEXT: real English drawn by scripts/corpus/gen_wild_corpus.py --heldout8 from packages\n"
           "# no earlier round and no training text used (see scripts/corpus/wild8_sources.py). Each line is\n"
           "# read in US and GB.\n")


def whole(s):
    """Whether s is a whole sentence of prose, not a piece cut short by an example or cut out of
    a parenthesis (a full stop inside one splits sentences there too)."""
    return bool(re.search(r"[.!?][\"”’')]*$", s)) and s.count("(") == s.count(")")


def make_news(root):
    """GNU Make's NEWS, release by release: each item's prose sentence by sentence, without the
    examples under it and the closing copyright notice. An item (a line opening with "* " or
    "- ", at any depth) goes on in lines indented as far as its text; a line indented further is
    an example. Outside an item a paragraph's first line sets how far its prose is indented."""
    text = gzip.open(os.path.join(root, "usr/share/doc/make/NEWS.gz")).read().decode("utf-8", "replace")
    text = text.split("\n-------", 1)[0]
    for m in re.finditer(r"^Version (\S+)[^\n]*\n(.*?)(?=^Version |\Z)", text, re.S | re.M):
        pars, cur, col = [], [], None
        for ln in m.group(2).expandtabs(8).split("\n"):
            indent = len(ln) - len(ln.lstrip(" "))
            item = re.match(r"( *)[*-] (\S.*)", ln)
            deeper = col is not None and indent > col
            if item or not ln.strip() or deeper:
                pars.append(" ".join(cur))
                cur = []
            if item:
                col = len(item.group(1)) + 2
                cur.append(item.group(2))
            elif ln.strip() and not deeper:
                col = indent if col is None else col
                cur.append(ln.strip())
        pars.append(" ".join(cur))
        for par in pars:
            for s in wild.sentences(par):
                if whole(s):
                    yield "news", "make-news-" + m.group(1), s


def calendar_history(root):
    """The dated events of calendar's history file, each as written (a line and the lines
    indented under it) without its day; the entries without a year (feasts, anniversaries,
    sky events) are left out."""
    text = open(os.path.join(root, "usr/share/calendar/calendar.history"), encoding="utf-8", errors="replace").read()
    for m in re.finditer(r"^(\d\d/\d\d)\t(.*(?:\n\t.*)*)", text, re.M):
        event = " ".join(m.group(2).split())
        if re.search(r", \d{1,4}(BC)?$", event):
            yield "news", "calendar-history-" + m.group(1), event


R_SKIP_TITLE = re.compile(r"^(Table of Contents|Footnotes|\(\d+\)|Preface)$|index$|^References$")
R_NUMBER = re.compile(r"^(Appendix [A-Z]\s+|(?:[0-9]+|[A-Z]\.[0-9]+)(?:\.[0-9]+)*\s+)")


def r_manual_titles(raw):
    """The chapter, section and heading titles of a Texinfo HTML manual, without their numbers."""
    for i, m in enumerate(re.finditer(r'<h([1-4]) class="(chapter|section|subsection|subsubsection|appendix'
                                      r'|appendixsec|appendixsection|unnumbered|subheading|subsubheading)"[^>]*>'
                                      r'(.*?)</h\1>', raw, re.S)):
        t = R_NUMBER.sub("", wild._plain(m.group(3)))
        if t and not R_SKIP_TITLE.search(t):
            yield i, t


def r_docs(root):
    """An Introduction to R: its chapter and section titles in capitals (without their numbers)
    and its prose paragraphs sentence by sentence, leaving out paragraphs that hold examples or
    tables, the navigation lines and a paragraph's tail after an example; and the R FAQ's
    questions, as written, without their numbers."""
    base = os.path.join(root, "usr/share/R/doc/manual")
    raw = open(os.path.join(base, "R-intro.html"), encoding="utf-8", errors="replace").read()
    for i, t in r_manual_titles(raw):
        yield "titles", f"r-intro-title-{i}", t.upper()
    for i, m in enumerate(re.finditer(r"<p(?:\s[^>]*)?>(.*?)</p>", raw, re.S)):
        if re.search(r"<pre|<table", m.group(1)):
            continue
        par = wild._plain(m.group(1))
        if "[Contents]" in par:
            continue
        for s in wild.sentences(par):
            if s[:1].isupper() and whole(s):
                yield "technical", f"r-intro-{i}", s
    faq = open(os.path.join(base, "R-FAQ.html"), encoding="utf-8", errors="replace").read()
    for i, t in r_manual_titles(faq):
        yield "questions", f"r-faq-{i}", t


def sword_books(moddir, testament):
    """The books of a SWORD zText module compressed a book to a block (BlockType=BOOK): each
    .bzs entry is (offset, compressed size, size) of one zlib block in .bzz. Returns the OSIS
    text of each block that opens a book, by the book's OSIS name."""
    bzs = open(os.path.join(moddir, testament + ".bzs"), "rb").read()
    bzz = open(os.path.join(moddir, testament + ".bzz"), "rb").read()
    books = {}
    for i in range(0, len(bzs), 12):
        off, size, _ = struct.unpack("<III", bzs[i:i + 12])
        block = zlib.decompress(bzz[off:off + size]).decode("utf-8")
        m = re.search(r'<div [^>]*osisID="([^"]+)"[^>]*type="book"', block)
        if m:
            books[m.group(1)] = block
    return books


def _osis_plain(t):
    """OSIS text as a reader sees it: no notes, titles or milestones, words without their
    Strong's numbers, each chapter a line of its own."""
    t = re.sub(r"<note\b.*?</note>", "", t, flags=re.S)
    t = re.sub(r"<title\b.*?</title>", "", t, flags=re.S)
    t = re.sub(r"<chapter\b[^>]*>", "\n", t)
    t = re.sub(r"<[^>]*>", " ", t)
    t = re.sub(r" +([,;:.!?’”)])", r"\1", t)
    t = re.sub(r"([“‘(]) +", r"\1", t)
    return "\n".join(" ".join(ln.split()) for ln in t.split("\n"))


def web_proverbs(root):
    """The Proverbs of the World English Bible, chapter by chapter."""
    moddir = os.path.join(root, "usr/share/sword/modules/texts/ztext/engWEB2015eb")
    text = _osis_plain(sword_books(moddir, "ot")["Prov"])
    for i, chapter in enumerate(ln for ln in text.split("\n") if ln.strip()):
        yield "quotations", f"web-proverbs-{i}", chapter


def all_sentences8(dest):
    roots = {p: wild.fetch(p, dest, pin) for p, pin in PACKAGES8.items()}
    docs = list(make_news(roots["make"]))
    docs += list(calendar_history(roots["calendar"]))
    docs += list(r_docs(roots["r-doc-html"]))
    docs += list(wild.wesnoth(roots["wesnoth-1.16-httt"], "Heir_To_The_Throne"))
    docs += list(web_proverbs(roots["sword-text-web"]))
    return wild.pick_sentences(docs, "heldout8", ("titles", "questions", "dialogue"),
                               question=lambda s: 15 <= len(s) <= 160 and "?" in s)
