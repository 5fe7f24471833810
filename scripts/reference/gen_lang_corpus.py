#!/usr/bin/env python3
"""Write the sentence corpora of the languages other than English from Debian packages.

For each language it takes real text from packages of the Debian archive (fortune cookies, the
Debian Reference's translations, LibreOffice's help), splits it into sentences, keeps the ones
that are prose of that language (mostly its own letters, no commands, paths or markup), and puts
each sentence into one of two buckets by a hash of its text: the development bucket, which the
G2P may be tuned on, and the held-out bucket, which is scored once. It writes
phonemize/testdata/lang/<lang>_{dev,heldout}_sentences.txt, one sentence a line, at most
--per-bucket of each (ordered by the hash, so a rerun writes the same files).

    python3 scripts/reference/gen_lang_corpus.py --cache /tmp/lang-debs

The packages are fetched with `apt-get download` (Debian 12); their versions are pinned below
and written into each file's header.
"""
import argparse
import glob
import gzip
import hashlib
import html.parser
import os
import re
import subprocess
import sys
import unicodedata

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
OUT = os.path.join(ROOT, "phonemize", "testdata", "lang")

# Debian 12 packages and their versions.
PACKAGES = {
    "fortunes-es": "1.36",
    "fortunes-it": "1.99-4.1",
    "fortunes-br": "20220821",
    "fortunes-zh": "2.98",
    "debian-reference-fr": "2.100",
    "debian-reference-ja": "2.100",
    "debian-reference-zh-cn": "2.100",
    "libreoffice-help-hi": "4:7.4.7-1+deb12u14",
}

# Each language's sources: (package, glob under the unpacked package, reader).
SOURCES = {
    "es": [("fortunes-es", "usr/share/games/fortunes/es/*.fortunes", "fortune")],
    "it": [("fortunes-it", "usr/share/games/fortunes/it/*", "fortune")],
    "pt-br": [("fortunes-br", "usr/share/games/fortunes/brasil", "fortune")],
    "fr": [("debian-reference-fr", "usr/share/debian-reference/*.fr.html", "html")],
    "hi": [("libreoffice-help-hi", "usr/share/libreoffice/help/hi/text/**/*.html", "html")],
    "zh": [("fortunes-zh", "usr/share/games/fortunes/chinese", "fortune"),
           ("debian-reference-zh-cn", "usr/share/debian-reference/*.zh-cn.html", "html")],
    "ja": [("debian-reference-ja", "usr/share/debian-reference/*.ja.html", "html")],
}


def fetch(cache):
    os.makedirs(cache, exist_ok=True)
    for name, version in PACKAGES.items():
        target = os.path.join(cache, name)
        if os.path.isdir(target):
            continue
        debs = glob.glob(os.path.join(cache, f"{name}_*.deb"))
        if not debs:
            subprocess.run(["apt-get", "download", f"{name}={version}"], cwd=cache, check=True)
            debs = glob.glob(os.path.join(cache, f"{name}_*.deb"))
        subprocess.run(["dpkg-deb", "-x", debs[0], target], check=True)


class Paragraphs(html.parser.HTMLParser):
    """The text of each <p> and <li> element, without the code inside it."""

    def __init__(self):
        super().__init__()
        self.out, self.buf, self.depth, self.code = [], [], 0, 0

    def handle_starttag(self, tag, attrs):
        if tag in ("p", "li"):
            self.flush()
            self.depth += 1
        elif tag in ("code", "pre", "tt", "kbd", "samp", "span") and self.depth:
            cls = dict(attrs).get("class", "") or ""
            if tag != "span" or any(k in cls for k in ("command", "literal", "filename", "emphasis", "package")):
                self.code += 1
                self.buf.append("\x00")

    def handle_endtag(self, tag):
        if tag in ("p", "li"):
            self.flush()
            self.depth = max(0, self.depth - 1)
        elif tag in ("code", "pre", "tt", "kbd", "samp", "span") and self.code:
            self.code -= 1

    def handle_data(self, data):
        if self.depth and not self.code:
            self.buf.append(data)

    def flush(self):
        text = "".join(self.buf)
        self.buf = []
        if "\x00" in text:
            return  # a paragraph with code in it reads commands, not prose
        text = " ".join(text.split())
        if text:
            self.out.append(text)


def read_html(path):
    p = Paragraphs()
    with open(path, encoding="utf-8", errors="replace") as f:
        p.feed(f.read())
    p.flush()
    return p.out


def read_fortune(path):
    with open(path, "rb") as f:
        raw = f.read()
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        text = raw.decode("latin-1")
    text = re.sub(r"\x1b\[[0-9;]*m", "", text)
    out = []
    for cookie in text.split("\n%\n"):
        # Attribution lines ("-- Author") and indented quotes of code are not prose.
        lines = [ln for ln in cookie.split("\n") if not ln.strip().startswith(("--", "—"))]
        for para in re.split(r"\n\s*\n", "\n".join(lines)):
            out.append(" ".join(para.split()))
    return out


CJK = {"zh", "ja"}
SENTENCE_END = re.compile(r"(?<=[.!?।])\s+(?=[^\s])|(?<=[。！？])")


def sentences(lang, para):
    for s in SENTENCE_END.split(para):
        s = s.strip()
        if s:
            yield s


def script_ok(lang, s):
    letters = [c for c in s if unicodedata.category(c).startswith("L")]
    if len(letters) < 8:
        return False
    if lang == "hi":
        own = sum(1 for c in letters if "\u0900" <= c <= "\u097f")
    elif lang == "zh":
        own = sum(1 for c in letters if "\u4e00" <= c <= "\u9fff")
    elif lang == "ja":
        own = sum(1 for c in letters if "\u3040" <= c <= "\u30ff" or "\u4e00" <= c <= "\u9fff")
    else:
        own = sum(1 for c in letters if unicodedata.name(c, "").startswith("LATIN"))
    return own >= 0.95 * len(letters)


JUNK = re.compile(r"[/\\<>=_{}\[\]`@#|$^~*]|https?:|\.\w{2,4}\b(?![\s.,;:!?)])|\s-\w|^\W|\d+\)")


def keep(lang, s):
    if JUNK.search(s) or not script_ok(lang, s):
        return False
    n = len(s)
    if lang in CJK:
        return 8 <= n <= 120
    if lang == "hi":
        return 20 <= n <= 240 and s[-1] in ".!?।"
    return 20 <= n <= 240 and s[-1] in ".!?" and s[0].isupper()


def bucket(s):
    return hashlib.sha256(s.encode("utf-8")).hexdigest()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--cache", default="/tmp/kokoro-lang-debs")
    ap.add_argument("--per-bucket", type=int, default=300)
    ap.add_argument("--lang", action="append", help="only these languages")
    args = ap.parse_args()
    fetch(args.cache)
    os.makedirs(OUT, exist_ok=True)
    for lang, sources in SOURCES.items():
        if args.lang and lang not in args.lang:
            continue
        seen, dev, held = set(), [], []
        names = []
        for pkg, pattern, reader in sources:
            names.append(f"{pkg} {PACKAGES[pkg]}")
            for path in sorted(glob.glob(os.path.join(args.cache, pkg, pattern), recursive=True)):
                if os.path.islink(path) or path.endswith((".dat", ".u8")):
                    continue
                paras = read_html(path) if reader == "html" else read_fortune(path)
                for para in paras:
                    for s in sentences(lang, para):
                        if s in seen or not keep(lang, s):
                            continue
                        seen.add(s)
                        h = bucket(s)
                        (dev if int(h[0], 16) % 2 == 0 else held).append((h, s))
        for name, rows in (("dev", dev), ("heldout", held)):
            rows.sort()
            rows = rows[: args.per_bucket]
            path = os.path.join(OUT, f"{lang}_{name}_sentences.txt")
            with open(path, "w", encoding="utf-8") as f:
                f.write(f"# {lang} {name} bucket: scripts/reference/gen_lang_corpus.py from {', '.join(names)}\n")
                for _, s in rows:
                    f.write(s + "\n")
            print(f"{lang} {name}: {len(rows)} of {len(dev) if name == 'dev' else len(held)}", file=sys.stderr)


if __name__ == "__main__":
    main()
