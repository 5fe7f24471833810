#!/usr/bin/env python3
"""Tag training text with the reference's tagger, for the Go tagger to learn from.

Reads sentences (one per line) from the files named on the command line and writes
TEXT<TAB>TOKEN<TAB>TAG... lines to standard output, tagged by spaCy en_core_web_sm with the
components misaki enables (tok2vec and tagger), so the Go tagger learns the tags misaki sees.

    .venv-misaki/bin/python scripts/corpus/gen_wild_corpus.py --train /tmp/train.txt
    .venv-misaki/bin/python scripts/reference/gen_tagger_data.py /tmp/train.txt > /tmp/tagged.tsv
    go run ./phonemize/internal/traintagger -in /tmp/tagged.tsv -out phonemize/en/postag.model.gz
"""
import sys

sys.path.insert(0, __file__.rsplit("/", 1)[0])
from gen_phoneme_corpus import load_spacy_model  # noqa: E402


def main():
    load_spacy_model()
    import spacy
    nlp = spacy.load("en_core_web_sm", enable=["tok2vec", "tagger"])
    texts = []
    for path in sys.argv[1:]:
        with open(path, encoding="utf-8") as f:
            texts += [line.rstrip("\n") for line in f if line.strip()]
    out = sys.stdout
    for text, doc in zip(texts, nlp.pipe(texts, batch_size=256)):
        if "\t" in text:
            continue
        out.write(text + "\t" + "\t".join(f"{tk.text}\t{tk.tag_}" for tk in doc) + "\n")


if __name__ == "__main__":
    main()
