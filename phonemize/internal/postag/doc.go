// Package postag is a small averaged-perceptron part-of-speech tagger. It assigns the Penn
// Treebank tags the phonemizer's reference reads from spaCy, and it is trained to imitate that
// tagger: the training text is real English tagged by spaCy (scripts/reference/gen_tagger_data.py), so the
// model learns spaCy's decisions, including the ones a grammar book would call mistakes, such as
// reading a word in capitals as a common noun.
//
// Decoding is greedy, left to right: each token's features are its own form (lower case,
// affixes, shape), its neighbours' forms and the two tags already assigned to its left. The
// weights are averaged over all training steps and then pruned and quantized so the model
// ships inside the binary.
package postag
