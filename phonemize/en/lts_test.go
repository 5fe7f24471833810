package en

import "testing"

// TestLetterToSoundAsEspeak: words no lexicon knows read by the built-in fallback as espeak-ng
// reads them (1.51, mapped to Kokoro's symbols as the reference maps them), one case per
// spelling rule: leading letters no English word begins with are spelled and the rest read as
// a word, a rest of two letters is spelled too, a first stressed "er" is ɜɹ, an n before a
// k sound is ŋ, a lower-case Roman numeral of i, v and x is read as one, -est is ɪst, a
// prefix before a known word leaves it the stress, final -ign is In, eg is "for example" and §
// "section", and a British lexicon word in an unknown one keeps the short a of espeak-ng's
// bath words but in the spellings with an l; and the lexicon's final əl of -le and ət of -it,
// -et are espeak-ng's ᵊl and ɪt; a consonant and -le is a syllabic l after a short vowel
// (blorple, zaple), and an unstressed -age is ɪʤ.
func TestLetterToSoundAsEspeak(t *testing.T) {
	p := offlinePhonemizer(t)
	t.Parallel()
	for _, c := range []struct{ word, us, gb string }{
		{"gzip", "ʤˈizˈɪp", "ʤˈiːzˈɪp"},
		{"bdale", "bˈidˈAl", "bˈiːdˈAl"},
		{"dhclient", "dˌiˈAʧklˈIənt", "dˌiːˈAʧklˈIənt"},
		{"xcenter", "ˈɛkssˈɛntəɹ", "ˈɛkssˈɛntə"},
		{"vbox", "vˈibˈɑks", "vˈiːbˈɒks"},
		{"tty", "tˌitˌiwˈI", "tˌiːtˌiːwˈI"},
		{"rpy", "ˌɑɹpˌiwˈI", "ˌɑːpˌiːwˈI"},
		{"tne", "tˌiˌɛnˈi", "tˌiːˌɛnˈiː"},
		{"perlfunc", "pˈɜɹlfʌŋk", "pˈɜːlfʌŋk"},
		{"blorf", "blˈɔɹf", "blˈɔːf"},
		{"symlink", "sˈɪmlɪŋk", "sˈɪmlɪŋk"},
		{"princ", "pɹˈɪŋk", "pɹˈɪŋk"},
		{"vi", "ɹˌOmən sˈɪks", "ɹˌQmən sˈɪks"},
		{"xxiv", "ɹˌOmən twˈɛnti fˈɔɹ", "ɹˌQmən twˈɛnti fˈɔː"},
		{"thinkest", "θˈɪŋkɪst", "θˈɪŋkɪst"},
		{"scornest", "skˈɔɹnɪst", "skˈɔːnɪst"},
		{"overline", "ˌOvəɹlˈIn", "ˌQvəlˈIn"},
		{"multibyte", "mˌʌltɪbˈIt", "mˌʌltɪbˈIt"},
		{"interdiff", "ˌɪntəɹdˈɪf", "ˌɪntədˈɪf"},
		{"xalign", "zˈælIn", "zˈalIn"},
		{"eg", "fˌɔɹɛɡzˈæmpᵊl", "fˌɔːɹɛɡzˈampᵊl"},
		{"§4.2", "sˈɛkʃən fˈɔɹ.tˈu", "sˈɛkʃən fˈɔː.tˈuː"},
		{"master-zorp", "mˈæstəɹzˈɔɹp", "mˈastəzˈɔːp"},
		{"half-blorf", "hˈæfblˈɔɹf", "hˈɑːfblˈɔːf"},
		{"handle-zorp", "hˈændᵊlzˈɔɹp", "hˈandᵊlzˈɔːp"},
		{"edit-zorp", "ˈɛdɪtzˈɔɹp", "ˈɛdɪtzˈɔːp"},
		{"blorple", "blˈɔɹpᵊl", "blˈɔːpᵊl"},
		{"zaple", "zˈæpᵊl", "zˈapᵊl"},
		{"fobble", "fˈɑbᵊl", "fˈɒbᵊl"},
		{"drokle", "dɹˈɑkᵊl", "dɹˈɒkᵊl"},
		{"mumblage", "mˈʌmblɪʤ", "mˈʌmblɪʤ"},
	} {
		t.Run(c.word, func(t *testing.T) {
			for _, d := range []struct {
				g    *g2p
				want string
			}{{p.us, c.us}, {p.gb, c.gb}} {
				got, ok := d.g.fallback(c.word)
				if got = v10Replacer.Replace(got); !ok || got != d.want {
					t.Errorf("%s (british %v): %q, want %q", c.word, d.g == p.gb, got, d.want)
				}
			}
		})
	}
}
