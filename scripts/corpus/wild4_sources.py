"""The fourth held-out round's sources (wild4), for scripts/corpus/gen_wild_corpus.py --heldout4 and
--train (development data since the round's one scoring).
"""
import glob
import os
import re
import zlib

from wild_common import fetch, paragraphs, pick_sentences

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
# package: (version, SHA-256 of its .deb, architecture)
PACKAGES4 = {
    "emacs-common": ("1:28.2+1-15+deb12u4", "35a9075085d83962841c50289d7ae25e2075cffeadf5c2df78f9c76ad51ee9cf", "all"),
    "gnu-standards": ("2022.03.23-0.1", "2087dda531c69d8505856a45e0334746f3f25211a237c95d375eed13a7d8c201", "all"),
    "perl-doc": ("5.36.0-7+deb12u4", "f4269cff4576d6f02a6756df842988e58451c7e945b08517dd235531b24e48f8", "all"),
    "renpy-demo": ("8.0.3+dfsg-1", "b7599368598cd7a96e89772d48d7c89327fcc8d4490e0760eceda0bd792025d5", "all"),
    "r-cran-stringr": ("1.5.0-1", "f180d2e5f79b4aab871425898399d3bebbd6993262e692e166638a720879990e", "all"),
    "vim-runtime": ("2:9.0.1378-2+deb12u2", "6a3dd2317a593742cb247f3494d986b3127887dbe1449253b8efa6112289854e", "all"),
}
QUOTA4 = {"news": 70, "titles": 30, "questions": 30, "dialogue": 80, "narrative": 50, "technical": 100,
          "quotations": 60}


# --- the fourth held-out round's sources ---------------------------------------------------

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
    roots = {p: fetch(p, dest, pin) for p, pin in PACKAGES4.items()}
    docs = list(emacs_news(roots["emacs-common"]))
    docs += list(gnu_standards(roots["gnu-standards"]))
    docs += list(perlfaq(roots["perl-doc"]))
    docs += list(renpy(roots["renpy-demo"]))
    docs += list(harvard(roots["r-cran-stringr"]))
    docs += list(vim_quotes(roots["vim-runtime"]))
    return pick_sentences(docs, "heldout4", ("titles", "questions", "dialogue", "narrative"))
