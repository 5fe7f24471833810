// Package phonemize turns English text into the phoneme strings and token ids that Kokoro-82M
// was trained on. Its reference is the misaki G2P: gold then silver lexicon lookups with
// part-of-speech dependent entries, context rules for a few function words, -s/-ed/-ing
// morphology, number and currency reading, and an espeak-ng (or built-in letter-to-sound)
// fallback for words no lexicon knows. Output symbols are always in Kokoro v1.0's vocabulary.
//
// Chunks splits the phonemes of a long text into model-sized pieces (at most MaxIDs ids each),
// cutting at sentence ends first, then at clause punctuation, and keeps the first piece small so
// that a streaming server can send its first audio early.
package phonemize
