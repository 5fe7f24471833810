// Package phonemize turns text into the phoneme strings and token ids that Kokoro-82M was
// trained on, in each language Kokoro speaks, read as the reference pipeline reads it
// (docs/languages.md). It picks a reader per language:
//
//   - American and British English: package en, which follows misaki 0.9.4 step by step, with
//     espeak-ng for the words no lexicon knows;
//   - Spanish, French, Hindi, Italian and Brazilian Portuguese: espeak-ng through the
//     phonemizer package's steps (package espeak);
//   - Mandarin: package zh; Japanese: package ja.
//
// ResolveLang picks a request's language from its lang or its voice's prefix (langs.go), and
// readerFor the reader of that language (langread.go).
//
// Pieces reads a text into its words with their phonemes and the strength of the boundary
// after each: a sentence end (each language's: langpunct.go), clause punctuation, a comma,
// and between English words, a phrase boundary or a cut inside a phrase, from the words' tags.
// Package chunk cuts them into model-sized chunks. CutSentences decides when enough of a
// streamed text has come to start speaking.
//
// A Phonemizer is safe for concurrent use. Close stops its espeak-ng helper processes, if any.
package phonemize
