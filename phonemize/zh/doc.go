// Package zh reads Mandarin Chinese into Kokoro's phonemes as the reference pipeline reads it
// for Kokoro-82M v1.0: misaki's ZHG2P without its newer front end (KPipeline builds it with
// version None for that model). The steps are the reference's, each on the reference's own
// data:
//
//   - numbers written with digits become Chinese numerals as cn2an's an2cn transform makes
//     them (ranges before a measure word, dates, fractions, percentages, temperatures, then
//     any number; cn2an.go);
//   - full-width punctuation becomes its ASCII counterpart with a space after it;
//   - each run of Han characters is cut into words by jieba's algorithm (its dictionary's
//     most probable route, its HMM for runs of unknown characters; jieba.go) on jieba
//     0.42.1's dictionary and model;
//   - each word is read by pypinyin 0.55.0's rules (its phrase dictionary by forward maximum
//     matching, else each character's first reading; pinyin.go), without tone sandhi, as the
//     reference reads it;
//   - each syllable becomes phonemes by the reference's table (syllables.go, generated from
//     misaki's pinyin_to_ipa), the tones written as arrows; words are joined by a space, and
//     text that is not Han is kept as it is.
//
// The dictionaries come from the jieba and pypinyin packages, extracted by `make setup` into
// the lexicon directory (zh/); Load reads them.
package zh
