"""The sixth held-out round's sources (wild6), for scripts/corpus/gen_wild_corpus.py --heldout6."""
import glob
import os
import re

from wild_common import _plain, fetch, html_docs, paragraphs, pick_sentences, sentences

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
# package: (version, SHA-256 of its .deb, architecture)
PACKAGES6 = {
    "sqlite3-doc": ("3.40.1-2+deb12u2", "466e30d7066e2641fa13e56bc662a2ad521b8cc9c17dde9c9dac3d4f105e32f2", "all"),
    "postgresql-doc-15": ("15.18-0+deb12u1", "3c598277a463c44d672daa2c335deb8d8252e1852fb025fd4578ea2d9a1b90f0", "all"),
    "endless-sky-data": ("0.9.8-1.2", "e45835e05a11e84bb1a890a0ded390246a53b8318f21a25925aa70fa54f80c13", "all"),
    "crawl-common": ("2:0.28.0-1.1", "50c8f0091ba88538dde6585e5eddba02677bfe94d3ee4dc90a5bd3a788650f59", "all"),
}
QUOTA6 = {"news": 70, "titles": 40, "questions": 15, "dialogue": 80, "narrative": 50, "technical": 95,
          "quotations": 70}


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
    roots = {p: fetch(p, dest, pin) for p, pin in PACKAGES6.items()}
    docs = list(sqlite_docs(roots["sqlite3-doc"]))
    docs += list(postgres_docs(roots["postgresql-doc-15"]))
    docs += list(endless_sky(roots["endless-sky-data"]))
    docs += list(crawl_quotes(roots["crawl-common"]))
    return pick_sentences(docs, "heldout6", ("titles", "questions", "dialogue", "narrative", "technical", "quotations"),
                          question=lambda s: 15 <= len(s) <= 160 and "?" in s)
