// Package corpus holds what the phonemizer's corpus tests share: reading a reference file of
// testdata/lang, scoring a reader's output against it (exact sentences and the phoneme error
// rate, edit distance over the reference's length) with a 95 % Wilson interval, and loading a
// language's G2P once for a package's tests. Only tests import it.
package corpus
