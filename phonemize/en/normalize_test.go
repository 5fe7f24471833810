package en

import (
	"strings"
	"testing"
)

// TestReadings checks how particular written forms are read: each case names phonemes that
// must appear in the output (the reference's reading, or for ranges, phone numbers and units
// the spoken form normalize chooses).
func TestReadings(t *testing.T) {
	p := testPhonemizer(t)
	t.Parallel()
	cases := []struct {
		name, lang, text string
		want             []string
	}{
		{"cardinal", "", "I have 42 cats.", []string{"fˈɔɹTi tˈu kˈæts"}},
		{"large", "", "It sold 1,250,000 copies.", []string{"wˈʌn mˈɪljᵊn", "tˈu hˈʌndɹəd fˈɪfti θˈWzᵊnd"}},
		{"ordinal", "", "She came 21st.", []string{"twˈɛnti fˈɜɹst"}},
		{"year", "", "It ended in 1945.", []string{"nˌIntˈin fˈɔɹTi fˈIv"}},
		{"year-2000s", "", "Since 2005 it grew.", []string{"tˈu θˈWzᵊnd fˈIv"}},
		{"decimal", "", "Pi is 3.14.", []string{"θɹˈi pYnt wˈʌn fˈɔɹ"}},
		{"dollars", "", "It costs $5.50 today.", []string{"fˈIv dˈɑləɹz ænd fˈɪfti sˈɛnts"}},
		{"pounds", "en-gb", "It costs £3.20 now.", []string{"θɹˈiː pˈWndz and twˈɛnti pˈɛns"}},
		{"euros", "", "It costs €1 now.", []string{"wˈʌn jˈʊɹO"}},
		{"percent", "", "Up 15% today.", []string{"pəɹsˈɛnt"}},
		{"time-pm", "", "Meet at 3pm.", []string{"θɹˈi pˌiˈɛm"}},
		{"time-colon", "", "Meet at 3:30 today.", []string{"θɹˈi:θˈɜɹTi"}},
		{"range", "", "Read pages 5-10 now.", []string{"fˈIv tə tˈɛn"}},
		{"phone", "", "Call 555-123-4567 now.", []string{"fˈIv fˈIv fˈIv, wˈʌn tˈu θɹˈi, fˈɔɹ fˈIv sˈɪks sˈɛvən"}},
		{"unit", "", "It is 10km away.", []string{"tˈɛn kəlˈɑməTəɹz"}},
		{"doctor", "", "Dr. Smith is here.", []string{"dˈɑktəɹ smˈɪθ"}},
		{"mister", "", "Mr. Jones left.", []string{"mˈɪstəɹ ʤˈOnz"}},
		{"versus", "", "Cats vs. dogs.", []string{"vˈɜɹsəs"}},
		{"eg", "", "Fruit, e.g. apples.", []string{"ˌiʤˈi"}},
		{"initialism", "", "The FBI agent.", []string{"ˌɛfbˌiˈI"}},
		{"acronym-word", "", "NASA launched it.", []string{"nˈæsə"}},
		{"email", "", "Mail info@example.com today.", []string{"æt", "dˌɑt kˈɑm"}},
		{"ampersand", "", "Tom & Jerry.", []string{"tˈɑm ænd ʤˈɛɹi"}},
		{"plus-at", "", "Us + them @ home.", []string{"plˈʌs", "æt hˈOm"}},
		{"ellipsis", "", "Well… maybe.", []string{"wˈɛl…"}},
		{"dash", "", "Wait — what?", []string{"wˈAt — w"}},
		{"quotes", "", `He said "hi" twice.`, []string{"“hˈI”"}},
		{"the-vowel", "", "The apple and the pear.", []string{"ði ˈæpᵊl", "ðə pˈɛɹ"}},
		{"to-vowel", "", "Go to it.", []string{"tʊ ɪt"}},
		{"a-an", "", "A cat and an owl.", []string{"ɐ kˈæt", "ɐn ˈWl"}},
		{"used-to", "", "I used to swim.", []string{"jˈust tə"}},
		{"read-past", "", "Yesterday I read it.", []string{"ɹˈɛd"}},
		{"read-future", "", "I will read it.", []string{"ɹˈid"}},
		{"record-noun-verb", "", "They record a record.", []string{"ɹəkˈɔɹd ɐ ɹˈɛkəɹd"}},
		{"plural", "", "The quokkas' dogs barked.", []string{"dˈɔɡz bˈɑɹkt"}},
		{"ing-flap", "", "She is getting better.", []string{"ɡˈɛTɪŋ"}},
		{"possessive", "", "The cat's toy.", []string{"kˈæts"}},
		{"hyphenated", "", "A well-known fact.", []string{"wˌɛlnˈOn"}},
		{"gb", "en-gb", "The tomato is red.", []string{"təmˈɑːtQ"}},
		{"us", "en-us", "The tomato is red.", []string{"təmˈATO"}},
		{"override", "", "[Kokoro](/kˈOkəɹO/) speaks.", []string{"kˈOkəɹO spˈiks"}},
		{"flap-T", "", "Water.", []string{"wˈɔTəɹ"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, err := p.Phonemize(c.text, c.lang)
			if err != nil {
				t.Fatalf("%s: %v", c.name, err)
			}
			for _, w := range c.want {
				if !strings.Contains(got, w) {
					t.Errorf("%s: Phonemize(%q) = %q, want it to contain %q", c.name, c.text, got, w)
				}
			}
		})
	}
}

func TestNormalize(t *testing.T) {
	t.Parallel()
	cases := []struct{ in, want string }{
		{"pages 5-10", "pages 5 to 10"},
		{"from $5-$10", "from $5 to $10"},
		{"1990–1995", "1990 to 1995"},
		{"on 2024-01-15", "on 2024-01-15"},
		{"up 11-5/8 to 29-3/8", "up 11-5/8 to 29-3/8"},
		{"call 555-123-4567", "call 5 5 5, 1 2 3, 4 5 6 7"},
		{"call (555) 123-4567", "call 5 5 5, 1 2 3, 4 5 6 7"},
		{"dial 123-4567", "dial 1 2 3, 4 5 6 7"},
		{"10km and 1 kg", "10 kilometers and 1 kilogram"},
		{"20°C", "20 degrees Celsius"},
		{"at 10 MB/s", "at 10 megabytes per second"},
		{"no numbers here", "no numbers here"},
		{"the 1960s", "the 1960s"},
	}
	for _, c := range cases {
		t.Run(c.in, func(t *testing.T) {
			if got := normalize(c.in, Switches{}); got != c.want {
				t.Errorf("normalize(%q) = %q, want %q", c.in, got, c.want)
			}
		})
	}
}

// FuzzNormalizeShortcuts: the one-pass checks that let normalize skip an expression never
// skip text the expression matches.
func FuzzNormalizeShortcuts(f *testing.F) {
	for _, s := range []string{
		"Call 555-123-4567 now", "(555) 123-4567", "+1 555 123 4567", "555.1234", "pages 10-20",
		"£5–£10", "3-4%", "it weighs 5 kg", "5kg", "20 °C", "100MB/s", "3.5 GHz", "2 mph", "1 lb",
		"no digits here", "2024-01-15", "9 to 5", "7 Km", "12345678",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if phoneRe.MatchString(s) && !hasPhoneDigits(s) {
			t.Errorf("%q has a telephone number the check misses", s)
		}
		if rangeRe.MatchString(s) && !strings.ContainsAny(s, "-–") {
			t.Errorf("%q has a range with no dash", s)
		}
		if unitRe.MatchString(s) && !hasUnitAfterDigit(s) {
			t.Errorf("%q has a unit the check misses", s)
		}
	})
}

// TestUnitInitialsCoverTheUnits: every unit unitRe reads begins with a byte of unitInitials.
func TestUnitInitialsCoverTheUnits(t *testing.T) {
	t.Parallel()
	for u := range units {
		if strings.IndexByte(unitInitials, u[0]) < 0 {
			t.Errorf("unit %q begins with %q, which unitInitials lacks", u, u[0])
		}
		if !unitRe.MatchString("5 " + u) {
			t.Errorf("unitRe does not read unit %q", u)
		}
	}
}

// TestNormalizeSwitches: each switch turns off its own rewrite and no other.
func TestNormalizeSwitches(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		in   string
		sw   Switches
		want string
	}{
		{"Call 555-0134 now.", Switches{}, "Call 5 5 5, 0 1 3 4 now."},
		{"Call 555-0134 now.", Switches{PhonesOff: true}, "Call 555 to 0134 now."},
		{"It is 5 km away.", Switches{}, "It is 5 kilometers away."},
		{"It is 5 km away.", Switches{UnitsOff: true}, "It is 5 km away."},
		{"It is 5 km away.", Switches{PhonesOff: true}, "It is 5 kilometers away."},
		{"Tom & Jerry + friends = fun, 20% off.", Switches{}, "Tom & Jerry + friends = fun, 20% off."},
		{"Tom & Jerry + friends = fun, 20% off.", Switches{SymbolsOff: true}, "Tom Jerry friends fun, 20% off."},
		{"x+y and +3 and # 5", Switches{SymbolsOff: true}, "x+y and +3 and 5"},
		{"&", Switches{SymbolsOff: true}, ""},
		{"a & & b &", Switches{SymbolsOff: true}, "a b"},
	} {
		if got := normalize(c.in, c.sw); got != c.want {
			t.Errorf("normalize(%q, %+v) = %q, want %q", c.in, c.sw, got, c.want)
		}
	}
}
