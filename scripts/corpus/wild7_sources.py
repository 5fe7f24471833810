"""The seventh held-out round's sources (wild7), for scripts/corpus/gen_wild_corpus.py --heldout7."""
import os
import re
import sys

from wild_common import _plain, fetch, paragraphs, pick_sentences, sentences

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
# package: (version, SHA-256 of its .deb, architecture)
PACKAGES7 = {
    "nano": ("7.2-1+deb12u1", "45a9b3960aa5ac18552459225ec26800abb73fc2edd11626046daf6d968ac968", "amd64"),
    "nethack-common": ("3.6.6-3+b2", "760e7020de1cec4943c125c97e93d3dd5978128cd22117ae91cd7cf640f617b9", "amd64"),
    "bash-doc": ("5.2.15-2", "2c1a353f7004d14ba81db19c253b958d2dd9582027650739c530fd50376a9d8b", "all"),
}
QUOTA7 = {"news": 70, "titles": 40, "questions": 15, "dialogue": 80, "narrative": 50, "technical": 95,
          "quotations": 70}


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
    roots = {p: fetch(p, dest, pin) for p, pin in PACKAGES7.items()}
    nh = nethack_files(roots["nethack-common"])
    docs = list(nano_docs(roots["nano"]))
    docs += list(nethack_history(nh))
    docs += list(bash_manual(roots["bash-doc"]))
    docs += list(nethack_tribute(nh))
    docs += list(nethack_encyclopedia(nh))
    return pick_sentences(docs, "heldout7", ("titles", "questions", "dialogue", "narrative", "technical", "quotations"),
                          question=lambda s: 15 <= len(s) <= 160 and "?" in s)
