// Package markup parses the text markup a request may carry into one annotated-text value
// that the engine speaks: SSML, in the subset Amazon Polly documents
// (https://docs.aws.amazon.com/polly/latest/dg/supportedtags.html, one page per tag), and
// rendered into plain-text segments the phonemizer reads.
//
// Parse reads an SSML document into a Doc: text items with the attributes their enclosing
// elements give them (prosody rate and volume, emphasis, xml:lang, a <w> role), breaks and
// marks, each with the bytes of the input it came from. A <say-as> is read into plain words
// here (characters, digits, cardinal, ordinal, fraction, unit, date, time, telephone,
// address), a <sub> into its alias and a <phoneme> into Kokoro's phoneme symbols (from IPA or
// X-SAMPA), so that what is spoken is decided before the phonemizer sees it and can be checked
// as text. Doc.Segments cuts the result where the audio must change: at a pause, and where
// the rate, volume or language changes.
//
// Parse is built for hostile input: a document over MaxBytes, with more than MaxElements
// tags, nested deeper than MaxDepth,
// with a DTD or entity declarations (so no entity expansion), an unclosed or mismatched
// tag, an element outside the subset, or an attribute outside a tag's set is an error that
// names the problem and the valid values, found in one pass over the input.
package markup
