// Package chunk cuts the words phonemize reads into chunks the model speaks one at a time, so
// that a streaming server sends its first audio after one phrase and makes each later chunk
// while the audio before it plays.
//
// A Policy holds the chunking settings (the first chunk's rule and budgets, the later chunks'
// budget and ramp, context across cuts); Policy.For turns it into one request's Options by
// what the model's slots show (Slots: their pace, whether the request is alone, whether
// chunks wait). Chunks then cuts the text a Reader (*phonemize.Phonemizer) reads: whole
// sentences packed up to the budget, a sentence too long cut at its strongest boundary that
// fits, the first chunk at its first phrase; every chunk within model.MaxIDs.
package chunk
