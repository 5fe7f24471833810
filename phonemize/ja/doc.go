// Package ja reads Japanese into Kokoro's phonemes as the reference pipeline reads it: misaki
// 0.9.4's JAG2P with its default reader, an adaptation of cutlet. The steps are the
// reference's:
//
//   - the text is normalised: a wave dash before a digit reads から, small katakana
//     extensions become full-size kana, NFKC, curly single and closing double quotes become
//     ASCII ones, and each run of digits is read in kana by misaki's num2kana (number.go);
//   - it is cut into words by a morphological analyser with UniDic; each word's pronunciation
//     (in hiragana) is its reading; words of one character type whose surfaces, written
//     together, are in misaki's list of Japanese words are joined;
//   - each word is written in phonemes kana by kana from misaki's table (hepburn.go, generated
//     from the reference): digraphs, the long vowel mark as ː, the sokuon as ʔ, the moraic
//     nasal by what follows (m, ŋ, ɲ, n or ɴ); words in ASCII stay as they are; symbols by the
//     table; anything else unknown is dropped; words are separated by spaces, with the
//     reference's rules for punctuation and the sokuon.
//
// The analyser is kagome (github.com/ikawaha/kagome/v2), a pure-Go MeCab-compatible
// tokenizer, on its build of UniDic 2.1.2, the UniDic of the unidic-lite package the reference
// is measured with; two of kagome's choices differ from MeCab's and are put back as MeCab
// makes them: white space is not a word, and a run of Latin letters is one unknown word.
// `make setup` puts the dictionary and misaki's word list in the lexicon directory (ja/).
package ja
