"""The helpers that scripts/corpus/gen_wild_corpus.py and every round's sources (scripts/corpus/wild1_sources.py to
scripts/corpus/wild8_sources.py) share: fetching a pinned Debian package, the document buckets, sentence
splitting, the usable-sentence filter, picking a held-out round's sentences, and the readers that
more than one round uses (dictd databases, HTML manuals, paragraphs, Wesnoth campaigns).
"""
import glob
import hashlib
import html
import os
import re
import subprocess
import sys

CACHE = os.environ.get("KOKORO_CACHE", os.path.expanduser("~/.cache/kokoro"))


def sha256(path):
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for b in iter(lambda: f.read(1 << 20), b""):
            h.update(b)
    return h.hexdigest()


def fetch(pkg, dest, pin):
    """pin: the package's (version, SHA-256 of its .deb, architecture), from its round's PACKAGESn."""
    version, want, arch = pin
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


# --- readers that more than one round uses ---------------------------------------------------

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


def paragraphs(text):
    return [p for p in re.split(r"\n[ \t]*\n", text) if p.strip()]


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
