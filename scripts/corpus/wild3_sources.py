"""The third held-out round's sources (wild3), for scripts/corpus/gen_wild_corpus.py --heldout3 and
--train (development data since the round's one scoring).
"""
import glob
import os
import re

from wild_common import fetch, html_docs, pick_sentences

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
# package: (version, SHA-256 of its .deb, architecture)
PACKAGES3 = {
    "debian-history": ("2.28", "ae364cdfd075bf6a08ca8f5105b44db7093e3b201c95d3b70a863b8849c6a082", "all"),
    "debian-reference-en": ("2.100", "9f31d3a17df505de09689ca255512ea58c1fc47c59bb1b0c7bf1c23362e9743f", "all"),
    "developers-reference": ("12.18", "0dba82f6fa16e373f2a84ad07e7971aa9264ad2e7d2ae46b37edbc9c5fd57e2e", "all"),
    "debian-policy": ("4.6.2.0", "ef9d01b625c3b87c3a845c2cd1b66f1a16e9240b2b9e5bee53472a00e8457a39", "all"),
    "debian-faq": ("11.1", "427426e0cfa6888622fc1d72631071cb4b5a1f86ccde722e7820bcef284de5d0", "all"),
    "wordnet-base": ("1:3.0-37", "61060d960f9ada8fa120872312eccd3ecebfbab8c4579e4f5a74e1cf67620752", "all"),
}
QUOTA3 = {"news": 70, "titles": 30, "questions": 30, "dialogue": 70, "narrative": 50, "technical": 90,
          "quotations": 60, "legal": 20}


# --- the third held-out round's sources ----------------------------------------------------

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


def all_sentences3(dest):
    roots = {p: fetch(p, dest, pin) for p, pin in PACKAGES3.items()}
    docs = list(debian_history(roots["debian-history"]))
    docs += html_docs(sorted(glob.glob(os.path.join(roots["debian-reference-en"], "usr/share/debian-reference/*.en.html"))), "reference-")
    docs += html_docs(sorted(glob.glob(os.path.join(roots["developers-reference"], "usr/share/developers-reference/*.html"))), "devref-")
    docs += html_docs(sorted(glob.glob(os.path.join(roots["debian-policy"], "usr/share/doc/debian-policy/policy.html/*.html"))), "policy-")
    docs += html_docs(sorted(glob.glob(os.path.join(roots["debian-faq"], "usr/share/doc/debian/FAQ/*.en.html"))), "faq-", titles=False)
    docs += list(wordnet(roots["wordnet-base"]))
    return pick_sentences(docs, "heldout3", ("titles", "questions", "dialogue", "narrative", "quotations"))
