package markup

import (
	"encoding/xml"
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/kokoro-sm/kokoro/phonemize"
)

// xmlNS is the namespace of the xml: prefix (xml:lang).
const xmlNS = "http://www.w3.org/XML/1998/namespace"

// attrSets are the attributes each element takes; any other is refused by name.
var attrSets = map[string][]string{
	"speak":    {"xml:lang", "version"},
	"break":    {"strength", "time"},
	"emphasis": {"level"},
	"lang":     {"xml:lang", "onlangfailure"},
	"mark":     {"name"},
	"p":        {},
	"s":        {},
	"phoneme":  {"alphabet", "ph"},
	"prosody":  {"rate", "volume"},
	"say-as":   {"interpret-as", "format", "detail"},
	"sub":      {"alias"},
	"w":        {"role"},
}

// roles are the <w role> values Polly documents.
var roles = []string{"amazon:VB", "amazon:VBD", "amazon:DT", "amazon:IN", "amazon:JJ", "amazon:NN", "amazon:SENSE_1"}

// attributes checks an element's attributes against its set and returns them by name
// (xml:lang with its prefix); namespace declarations are allowed on any element.
func attributes(elem string, as []xml.Attr) (map[string]string, error) {
	out := make(map[string]string, len(as))
	for _, a := range as {
		var name string
		switch {
		case a.Name.Space == "xmlns" || a.Name.Space == "" && a.Name.Local == "xmlns":
			continue
		case a.Name.Space == xmlNS:
			name = "xml:" + a.Name.Local
		case a.Name.Space == "":
			name = a.Name.Local
		default:
			name = a.Name.Space + ":" + a.Name.Local
		}
		set := attrSets[elem]
		if !contains(set, name) {
			if len(set) == 0 {
				return nil, fmt.Errorf("<%s> takes no attributes, not %s", elem, clip(name))
			}
			return nil, fmt.Errorf("<%s> does not take %s; it takes: %s", elem, clip(name), strings.Join(set, ", "))
		}
		if _, dup := out[name]; dup {
			return nil, fmt.Errorf("<%s> has %s twice", elem, name)
		}
		out[name] = a.Value
	}
	return out, nil
}

// parseLang reads an xml:lang value into a language the phonemizer speaks.
func parseLang(v string) (string, error) {
	code, err := phonemize.ParseLang(strings.TrimSpace(v))
	if err != nil {
		return "", fmt.Errorf("xml:lang: %s", err.Error())
	}
	return code, nil
}

// breakStrengths are <break strength> values and the pause each makes.
var breakStrengths = map[string]Pause{
	"none": PauseNone, "x-weak": PauseNone, "weak": PauseComma, "medium": PauseComma,
	"strong": PauseSentence, "x-strong": PauseParagraph,
}

var strengthNames = []string{"none", "x-weak", "weak", "medium", "strong", "x-strong"}

// breakItem reads a <break>: time wins over strength; neither is a medium break.
func breakItem(attrs map[string]string) (Item, error) {
	it := Item{Kind: KindBreak, Pause: PauseComma}
	if s, ok := attrs["strength"]; ok {
		p, ok := breakStrengths[s]
		if !ok {
			return it, fmt.Errorf("<break strength=%q> is not a strength; strengths: %s", clip(s), strings.Join(strengthNames, ", "))
		}
		it.Pause = p
	}
	if s, ok := attrs["time"]; ok {
		d, err := parseBreakTime(s)
		if err != nil {
			return it, err
		}
		it.Time = d
		if d == 0 {
			it.Pause = PauseNone
		}
	}
	return it, nil
}

// parseBreakTime reads a <break time>: a number of seconds ("2s", "0.5s") or milliseconds
// ("250ms"), at most MaxBreak.
func parseBreakTime(s string) (time.Duration, error) {
	bad := func(why string) error {
		return fmt.Errorf("<break time=%q> %s; write seconds or milliseconds, such as 1.5s or 300ms, at most %v", clip(s), why, MaxBreak)
	}
	v := strings.TrimSpace(s)
	unit := time.Second
	switch {
	case strings.HasSuffix(v, "ms"):
		v, unit = strings.TrimSuffix(v, "ms"), time.Millisecond
	case strings.HasSuffix(v, "s"):
		v = strings.TrimSuffix(v, "s")
	default:
		return 0, bad("has no unit")
	}
	f, err := strconv.ParseFloat(v, 64)
	if err != nil || strings.ContainsAny(v, "eEnNxX+") {
		return 0, bad("is not a number")
	}
	if f < 0 || math.IsNaN(f) {
		return 0, bad("is negative")
	}
	if f*float64(unit) > float64(MaxBreak) {
		return 0, bad("is too long")
	}
	return time.Duration(f * float64(unit)), nil
}

// rates are the <prosody rate> names and the speed each multiplies the request's by.
var rates = map[string]float64{"x-slow": 0.6, "slow": 0.8, "medium": 1, "fast": 1.25, "x-fast": 1.6}

// volumes are the <prosody volume> names and their gain in dB.
var volumes = map[string]float64{"default": 0, "silent": Silent, "x-soft": -12, "soft": -6, "medium": 0, "loud": 6, "x-loud": 10}

// Bounds of <prosody>: Polly's rate range in percent, and a gain range that neither clips a
// normal voice to noise nor hides it under the noise floor.
const (
	minRatePct = 20
	maxRatePct = 200
	minGainDB  = -40
	maxGainDB  = 12
)

// prosody applies a <prosody>'s rate and volume to st; an inner <prosody> replaces what an
// outer one set.
func prosody(st *Style, attrs map[string]string) error {
	if len(attrs) == 0 {
		return errors.New("<prosody> needs a rate or a volume")
	}
	if r, ok := attrs["rate"]; ok {
		v, err := parseRate(r)
		if err != nil {
			return err
		}
		st.Rate = v
	}
	if r, ok := attrs["volume"]; ok {
		v, err := parseVolume(r)
		if err != nil {
			return err
		}
		st.VolumeDB = v
	}
	return nil
}

func parseRate(s string) (float64, error) {
	if v, ok := rates[s]; ok {
		return v, nil
	}
	if p, ok := strings.CutSuffix(s, "%"); ok {
		f, err := strconv.ParseFloat(p, 64)
		if err == nil && !strings.ContainsAny(p, "eEnNxX") && f >= minRatePct && f <= maxRatePct {
			return f / 100, nil
		}
	}
	return 0, fmt.Errorf("<prosody rate=%q> is not a rate; rates: x-slow, slow, medium, fast, x-fast, or %d%% to %d%%", clip(s), minRatePct, maxRatePct)
}

func parseVolume(s string) (float64, error) {
	if v, ok := volumes[s]; ok {
		return v, nil
	}
	if p, ok := strings.CutSuffix(s, "dB"); ok && (strings.HasPrefix(p, "+") || strings.HasPrefix(p, "-")) {
		f, err := strconv.ParseFloat(p, 64)
		if err == nil && !strings.ContainsAny(p, "eEnNxX") && f >= minGainDB && f <= maxGainDB {
			return f, nil
		}
	}
	return 0, fmt.Errorf("<prosody volume=%q> is not a volume; volumes: silent, x-soft, soft, medium, loud, x-loud, default, or +ndB/-ndB from %d to +%d", clip(s), minGainDB, maxGainDB)
}

// emphases are <emphasis level> values and how each changes the rate and the gain: stronger
// is slower and louder, reduced is faster and softer.
var emphases = map[string]struct{ rate, db float64 }{
	"strong":   {0.85, 4},
	"moderate": {0.93, 2},
	"reduced":  {1.1, -4},
}

func emphasis(st *Style, level string) error {
	if level == "" {
		level = "moderate"
	}
	e, ok := emphases[level]
	if !ok {
		return fmt.Errorf("<emphasis level=%q> is not a level; levels: strong, moderate, reduced", clip(level))
	}
	st.Rate *= e.rate
	if st.VolumeDB > Silent {
		st.VolumeDB += e.db
	}
	st.Emphasis = level
	return nil
}

// interpretations are the <say-as interpret-as> values read.
var interpretations = []string{"characters", "spell-out", "cardinal", "number", "ordinal", "digits", "fraction", "unit", "date", "time", "telephone", "address"}

// dateFormats are the <say-as interpret-as="date" format> values.
var dateFormats = []string{"mdy", "dmy", "ymd", "md", "dm", "ym", "my", "d", "m", "y", "yyyymmdd"}

// checkTextOnly checks the required attributes of say-as, sub and phoneme.
func checkTextOnly(name string, attrs map[string]string) error {
	switch name {
	case "say-as":
		ia, ok := attrs["interpret-as"]
		if !ok {
			return fmt.Errorf("<say-as> needs interpret-as; values: %s", strings.Join(interpretations, ", "))
		}
		if !contains(interpretations, ia) {
			return fmt.Errorf("<say-as interpret-as=%q> is not supported; values: %s", clip(ia), strings.Join(interpretations, ", "))
		}
		if f, ok := attrs["format"]; ok && ia == "date" && !contains(dateFormats, f) {
			return fmt.Errorf("<say-as format=%q> is not a date format; formats: %s", clip(f), strings.Join(dateFormats, ", "))
		}
	case "sub":
		if _, ok := attrs["alias"]; !ok {
			return errors.New("<sub> needs an alias attribute")
		}
	case "phoneme":
		if _, ok := attrs["ph"]; !ok {
			return errors.New("<phoneme> needs a ph attribute")
		}
		if a, ok := attrs["alphabet"]; ok && a != "ipa" && a != "x-sampa" {
			return fmt.Errorf("<phoneme alphabet=%q> is not supported; alphabets: ipa, x-sampa", clip(a))
		}
	}
	return nil
}
