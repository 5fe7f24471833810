// Package corpus holds what the phonemizer's tests share: stand-ins for espeak-ng, side-by-side
// measurements, fuzz seeds, and for the corpus tests reading a reference file of
// testdata/lang, scoring a reader's output against it (exact sentences and the phoneme error
// rate, edit distance over the reference's length) with a 95 % Wilson interval, and loading a
// language's G2P once for a package's tests. Only tests import it.
package corpus
