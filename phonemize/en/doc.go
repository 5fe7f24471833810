// Package en turns English text into the phoneme strings Kokoro-82M was trained on. Its
// reference is misaki 0.9.4 (the G2P Kokoro's own pipeline uses), and the pipeline follows
// misaki's steps so that the output matches it symbol for symbol:
//
//   - normalize: numeric ranges, phone numbers and units after numbers are rewritten as
//     spoken (the only place the output deliberately differs from misaki, which reads them
//     poorly); everything else is read the reference's way;
//   - inline overrides in Markdown link syntax: [Kokoro](/kˈOkəɹO/), [word](-1), [12](#a#);
//   - tokenize with the reference tokenizer's rules (prefixes, suffixes, infixes and its table
//     of special cases, tokexceptions.go), then tag with an averaged-perceptron tagger trained
//     to imitate the reference's spaCy tagger on real English (tagger.go, ../internal/postag):
//     the tags decide the part-of-speech dependent entries (read, live, close …), the function
//     words with context rules (a, am, by, in, that, the, to, used) and which words in
//     capitals are spelled; punctuation is tagged by its shape;
//   - look each word up in the gold then silver lexicon with case fallbacks, possessives,
//     -s/-ed/-ing morphology (with the American flap), acronyms spelled letter by letter, and
//     numbers, money, years, ordinals and decimals read by the reference's rules; words
//     written together (well-known, 3:30) are resolved as the reference resolves them;
//   - words no lexicon knows go to espeak-ng (package espeak), results cached and mapped to
//     Kokoro's symbols (fallback.go); or, without espeak-ng, to the built-in fallback, which
//     imitates espeak-ng: the CMU Pronouncing Dictionary as a third lexicon tier (ARPAbet
//     mapped to Kokoro's symbols, British without American r-colouring), a known stem with a
//     suffix, compounds, spelling of vowelless words, then letter-to-sound rules; no word is
//     dropped;
//   - finally ɾ becomes T and ʔ becomes t (Kokoro v1.0), and any symbol outside the
//     vocabulary is removed.
//
// Package en imports package espeak directly rather than through an interface of its own: the
// fallback is misaki's espeak-ng fallback, whose answers it maps symbol by symbol, and the
// built-in fallback is not a second implementation of that interface but what a word gets
// when espeak-ng has no answer.
//
// A G2P is safe for concurrent use. Close stops its espeak-ng helper processes, if any.
package en
