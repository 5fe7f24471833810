package markup

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"
	"unicode"
)

// sayAs reads text the way interpret-as says, into plain words (Polly's say-as page).
func sayAs(interpret, format, text string) (string, error) {
	switch interpret {
	case "characters", "spell-out":
		return characters(text), nil
	case "cardinal", "number":
		return number(text)
	case "ordinal":
		return ordinalOf(text)
	case "digits":
		return digits(text)
	case "fraction":
		return fraction(text)
	case "unit":
		return unit(text)
	case "date":
		return date(format, text)
	case "time":
		return clockOrDuration(text)
	case "telephone":
		return telephone(text)
	case "address":
		return address(text), nil
	}
	return "", fmt.Errorf("unsupported interpretation %q", interpret)
}

// symbolNames are how characters reads the symbols it spells.
var symbolNames = map[rune]string{
	'&': "and", '@': "at", '#': "hash", '-': "dash", '.': "dot", '_': "underscore", '/': "slash",
	'+': "plus", '*': "star", '%': "percent", '$': "dollar", '=': "equals", ':': "colon",
}

// characters spells text one character at a time: letters by their names (A as "ay", which
// the phonemizer could read as the article when alone), digits as words, the common symbols
// by name; spaces and other marks are skipped.
func characters(text string) string {
	var w []string
	for _, r := range text {
		switch {
		case r == 'a' || r == 'A':
			w = append(w, "ay")
		case r < unicode.MaxASCII && unicode.IsLetter(r):
			w = append(w, string(unicode.ToUpper(r)))
		case r >= '0' && r <= '9':
			w = append(w, ones[r-'0'])
		case unicode.IsLetter(r):
			w = append(w, string(r))
		default:
			if n, ok := symbolNames[r]; ok {
				w = append(w, n)
			}
		}
	}
	return strings.Join(w, " ")
}

// errNotNumber is content a numeric interpretation cannot read.
var errNotNumber = errors.New("not a number")

// integer reads an integer with optional thousands commas: "1,234" is 1234.
func integer(s string) (uint64, error) {
	s = strings.ReplaceAll(s, ",", "")
	if s == "" || strings.IndexFunc(s, func(r rune) bool { return r < '0' || r > '9' }) >= 0 {
		return 0, fmt.Errorf("%q is %w", s, errNotNumber)
	}
	n, err := strconv.ParseUint(s, 10, 64)
	if err != nil {
		return 0, fmt.Errorf("%q is too large", s)
	}
	return n, nil
}

// number reads a cardinal: an integer, negative or with decimals ("-3.25" is "minus three
// point two five").
func number(text string) (string, error) {
	s := strings.TrimSpace(text)
	neg := strings.HasPrefix(s, "-") || strings.HasPrefix(s, "−")
	s = strings.TrimLeft(s, "-−")
	whole, frac, dot := strings.Cut(s, ".")
	n, err := integer(whole)
	if err != nil {
		return "", fmt.Errorf("%q is %w", text, errNotNumber)
	}
	out := cardinal(n)
	if dot {
		if _, err := integer(frac); err != nil || strings.Contains(frac, ",") {
			return "", fmt.Errorf("%q is %w", text, errNotNumber)
		}
		out += " point " + digitWords(frac)
	}
	if neg {
		out = "minus " + out
	}
	return out, nil
}

// ordinalOf reads an ordinal: "3" or "3rd" is "third".
func ordinalOf(text string) (string, error) {
	s := strings.ToLower(strings.TrimSpace(text))
	for _, suf := range []string{"st", "nd", "rd", "th"} {
		s = strings.TrimSuffix(s, suf)
	}
	n, err := integer(s)
	if err != nil {
		return "", fmt.Errorf("%q is not an ordinal number", text)
	}
	return ordinal(n), nil
}

// digits spells every digit; spaces and dashes between them are skipped.
func digits(text string) (string, error) {
	var b strings.Builder
	for _, r := range text {
		switch {
		case r >= '0' && r <= '9':
			b.WriteRune(r)
		case r == ' ' || r == '-':
		default:
			return "", fmt.Errorf("%q holds %q, which is not a digit", text, r)
		}
	}
	if b.Len() == 0 {
		return "", fmt.Errorf("%q has no digits", text)
	}
	return digitWords(b.String()), nil
}

// vulgar are the fraction characters fraction reads.
var vulgar = map[rune][2]uint64{
	'½': {1, 2}, '⅓': {1, 3}, '⅔': {2, 3}, '¼': {1, 4}, '¾': {3, 4}, '⅕': {1, 5}, '⅖': {2, 5},
	'⅗': {3, 5}, '⅘': {4, 5}, '⅙': {1, 6}, '⅚': {5, 6}, '⅛': {1, 8}, '⅜': {3, 8}, '⅝': {5, 8}, '⅞': {7, 8},
}

// fraction reads a proper or mixed fraction: "3/20" is "three twentieths", "2 1/2" and "2½"
// are "two and one half".
func fraction(text string) (string, error) {
	s := strings.TrimSpace(text)
	var whole string
	if i := strings.IndexAny(s, " "); i >= 0 {
		whole, s = s[:i], strings.TrimSpace(s[i:])
	} else if r := []rune(s); len(r) > 1 {
		if _, ok := vulgar[r[len(r)-1]]; ok {
			whole, s = string(r[:len(r)-1]), string(r[len(r)-1])
		}
	}
	var num, den uint64
	if r := []rune(s); len(r) == 1 {
		v, ok := vulgar[r[0]]
		if !ok {
			return "", fmt.Errorf("%q is not a fraction such as 3/4 or 2 1/2", text)
		}
		num, den = v[0], v[1]
	} else {
		a, b, ok := strings.Cut(s, "/")
		n, errN := integer(a)
		d, errD := integer(b)
		if !ok || errN != nil || errD != nil || d == 0 {
			return "", fmt.Errorf("%q is not a fraction such as 3/4 or 2 1/2", text)
		}
		num, den = n, d
	}
	out := fractionWords(num, den)
	if whole != "" {
		w, err := integer(whole)
		if err != nil {
			return "", fmt.Errorf("%q is not a fraction such as 3/4 or 2 1/2", text)
		}
		out = cardinal(w) + " and " + out
	}
	return out, nil
}

// fractionWords is num/den in words: "one half", "three quarters", "five eighths".
func fractionWords(num, den uint64) string {
	var d string
	switch den {
	case 1:
		return cardinal(num)
	case 2:
		d = "half"
		if num != 1 {
			d = "halves"
		}
	case 4:
		d = "quarter"
	default:
		d = ordinal(den)
	}
	if num != 1 && den != 2 {
		d += "s"
	}
	return cardinal(num) + " " + d
}

// units are the unit names unit reads, by their written forms: singular and plural.
var units = map[string][2]string{
	"mm": {"millimeter", "millimeters"}, "cm": {"centimeter", "centimeters"}, "m": {"meter", "meters"},
	"km": {"kilometer", "kilometers"}, "in": {"inch", "inches"}, "inch": {"inch", "inches"},
	"ft": {"foot", "feet"}, "foot": {"foot", "feet"}, "yd": {"yard", "yards"}, "mi": {"mile", "miles"},
	"mg": {"milligram", "milligrams"}, "g": {"gram", "grams"}, "kg": {"kilogram", "kilograms"},
	"lb": {"pound", "pounds"}, "lbs": {"pound", "pounds"}, "oz": {"ounce", "ounces"},
	"ml": {"milliliter", "milliliters"}, "l": {"liter", "liters"}, "ms": {"millisecond", "milliseconds"},
	"s": {"second", "seconds"}, "sec": {"second", "seconds"}, "min": {"minute", "minutes"},
	"h": {"hour", "hours"}, "hr": {"hour", "hours"}, "mph": {"mile per hour", "miles per hour"},
	"km/h": {"kilometer per hour", "kilometers per hour"}, "kph": {"kilometer per hour", "kilometers per hour"},
	"°c": {"degree Celsius", "degrees Celsius"}, "°f": {"degree Fahrenheit", "degrees Fahrenheit"},
	"%": {"percent", "percent"}, "hz": {"hertz", "hertz"}, "khz": {"kilohertz", "kilohertz"},
	"kb": {"kilobyte", "kilobytes"}, "mb": {"megabyte", "megabytes"}, "gb": {"gigabyte", "gigabytes"},
	"tb": {"terabyte", "terabytes"}, "w": {"watt", "watts"}, "kw": {"kilowatt", "kilowatts"},
	"v": {"volt", "volts"}, "meter": {"meter", "meters"}, "mile": {"mile", "miles"},
	"gram": {"gram", "grams"}, "liter": {"liter", "liters"}, "pound": {"pound", "pounds"},
}

// unit reads a measure: a number or fraction followed by a unit, with or without a space
// ("1/2inch", "10 km", "3.5kg").
func unit(text string) (string, error) {
	s := strings.TrimSpace(text)
	i := strings.IndexFunc(s, func(r rune) bool {
		return !(r >= '0' && r <= '9' || r == '.' || r == ',' || r == '/' || r == '-' || r == ' ')
	})
	if i <= 0 {
		return "", fmt.Errorf("%q is not a number followed by a unit, such as 10km", text)
	}
	num, u := strings.TrimSpace(s[:i]), strings.TrimSpace(s[i:])
	names, ok := units[strings.ToLower(u)]
	if !ok {
		return "", fmt.Errorf("%q: unknown unit %q", text, u)
	}
	var words string
	var err error
	one := num == "1"
	if strings.Contains(num, "/") {
		words, err = fraction(num)
		one = true // "one half inch"
	} else {
		words, err = number(num)
	}
	if err != nil {
		return "", err
	}
	if one {
		return words + " " + names[0], nil
	}
	return words + " " + names[1], nil
}

// date reads a date in the order format names (mdy when absent): "3/5/2026" as mdy is
// "March fifth, twenty twenty-six"; as dmy "the third of May, twenty twenty-six".
func date(format, text string) (string, error) {
	if format == "" {
		format = "mdy"
	}
	s := strings.TrimSpace(text)
	var fields []string
	if format == "yyyymmdd" {
		if len(s) != 8 {
			return "", fmt.Errorf("%q is not a date written yyyymmdd", text)
		}
		fields, format = []string{s[:4], s[4:6], s[6:]}, "ymd"
	} else {
		fields = strings.FieldsFunc(s, func(r rune) bool { return r == '/' || r == '-' || r == '.' || r == ' ' })
	}
	if len(fields) != len(format) {
		return "", fmt.Errorf("%q does not have the %d parts format %q names", text, len(format), format)
	}
	var y, m, d uint64
	hasY, hasD := false, false
	for i, c := range format {
		v, err := integer(fields[i])
		if err != nil {
			return "", fmt.Errorf("%q: part %q is not a number", text, fields[i])
		}
		switch c {
		case 'y':
			y, hasY = v, true
			if len(fields[i]) == 2 {
				y += 2000
			}
		case 'm':
			m = v
		case 'd':
			d, hasD = v, true
		}
	}
	if strings.ContainsRune(format, 'm') && (m < 1 || m > 12) {
		return "", fmt.Errorf("%q: month %d is not 1 to 12", text, m)
	}
	if hasD {
		limit := uint64(31)
		if m != 0 {
			yy := int(y)
			if !hasY {
				yy = 2000 // a leap year: February 29 is a date
			}
			limit = uint64(time.Date(yy, time.Month(m)+1, 0, 0, 0, 0, 0, time.UTC).Day())
		}
		if d < 1 || d > limit {
			return "", fmt.Errorf("%q: day %d is not a day of that month", text, d)
		}
	}
	var parts []string
	month := ""
	if m != 0 {
		month = time.Month(m).String()
	}
	switch {
	case hasD && month != "" && format[0] == 'd':
		parts = append(parts, "the "+ordinal(d)+" of "+month)
	case hasD && month != "":
		parts = append(parts, month+" "+ordinal(d))
	case hasD:
		parts = append(parts, ordinal(d))
	case month != "":
		parts = append(parts, month)
	}
	if hasY {
		parts = append(parts, year(y))
	}
	return strings.Join(parts, ", "), nil
}

// clockOrDuration reads a time: a duration in minutes and seconds (1'21" is "one minute
// twenty-one seconds", Polly's form) or a time of day (3:05 is "three oh five", 3:00 pm
// "three o'clock p m").
func clockOrDuration(text string) (string, error) {
	s := strings.TrimSpace(text)
	bad := fmt.Errorf("%q is not a time such as 1'21\" or 3:30", text)
	if strings.ContainsAny(s, "'\"″′") {
		var parts []string
		rest := s
		for _, u := range []struct {
			marks      string
			one, other string
		}{{"'′", "minute", "minutes"}, {"\"″", "second", "seconds"}} {
			i := strings.IndexAny(rest, u.marks)
			if i < 0 {
				continue
			}
			n, err := integer(strings.TrimSpace(rest[:i]))
			if err != nil {
				return "", bad
			}
			name := u.other
			if n == 1 {
				name = u.one
			}
			parts = append(parts, cardinal(n)+" "+name)
			_, size := firstRune(rest[i:])
			rest = rest[i+size:]
		}
		if strings.TrimSpace(rest) != "" || len(parts) == 0 {
			return "", bad
		}
		return strings.Join(parts, " "), nil
	}
	clock, suffix, _ := strings.Cut(s, " ")
	lower := strings.ToLower(strings.ReplaceAll(suffix, ".", ""))
	if suffix != "" && lower != "am" && lower != "pm" {
		return "", bad
	}
	h, mm, ok := strings.Cut(clock, ":")
	hv, errH := integer(h)
	mv, errM := integer(mm)
	if !ok || errH != nil || errM != nil || len(mm) != 2 || hv > 24 || mv > 59 {
		return "", bad
	}
	out := cardinal(hv)
	switch {
	case mv == 0 && suffix == "":
		out += " o'clock"
	case mv == 0:
	case mv < 10:
		out += " oh " + ones[mv]
	default:
		out += " " + cardinal(mv)
	}
	if lower != "" {
		out += " " + string(lower[0]) + " m"
	}
	return out, nil
}

func firstRune(s string) (rune, int) {
	for _, r := range s {
		return r, len(string(r))
	}
	return 0, 0
}

// telephone reads a phone number digit by digit in its groups, with pauses between them: as
// written ("(202) 555-1212"), or cut as a North American number when written without
// separators (10 digits: 3, 3, 4; 7 digits: 3, 4); a leading + is "plus", and an extension
// after x or ext is "extension".
func telephone(text string) (string, error) {
	s := strings.TrimSpace(text)
	lower := strings.ToLower(s)
	var ext string
	for _, sep := range []string{"ext.", "ext", "x"} {
		if i := strings.LastIndex(lower, sep); i > 0 {
			ext, s = strings.TrimSpace(s[i+len(sep):]), s[:i]
			break
		}
	}
	plus := strings.HasPrefix(strings.TrimSpace(s), "+")
	groups := strings.FieldsFunc(s, func(r rune) bool { return strings.ContainsRune(" -().+/", r) })
	for _, g := range groups {
		if _, err := integer(g); err != nil || strings.Contains(g, ",") {
			return "", fmt.Errorf("%q is not a phone number: %q is not digits", text, g)
		}
	}
	if len(groups) == 0 {
		return "", fmt.Errorf("%q is not a phone number", text)
	}
	if len(groups) == 1 {
		g := groups[0]
		switch {
		case len(g) == 10:
			groups = []string{g[:3], g[3:6], g[6:]}
		case len(g) == 11 && g[0] == '1':
			groups = []string{g[:1], g[1:4], g[4:7], g[7:]}
		case len(g) == 7:
			groups = []string{g[:3], g[3:]}
		}
	}
	words := make([]string, len(groups))
	for i, g := range groups {
		words[i] = digitWords(g)
	}
	out := strings.Join(words, ", ")
	if plus {
		out = "plus " + out
	}
	if ext != "" {
		if _, err := integer(ext); err != nil {
			return "", fmt.Errorf("%q: extension %q is not digits", text, ext)
		}
		out += ", extension " + digitWords(ext)
	}
	return out, nil
}

// addressWords are the abbreviations of a street address and what they stand for.
var addressWords = map[string]string{
	"st": "Street", "ave": "Avenue", "av": "Avenue", "rd": "Road", "blvd": "Boulevard", "dr": "Drive",
	"ln": "Lane", "ct": "Court", "pl": "Place", "hwy": "Highway", "pkwy": "Parkway", "sq": "Square",
	"apt": "Apartment", "ste": "Suite", "fl": "Floor", "n": "North", "s": "South", "e": "East",
	"w": "West", "ne": "Northeast", "nw": "Northwest", "se": "Southeast", "sw": "Southwest",
}

// address spells out a street address's abbreviations ("12 N Main St." is "12 North Main
// Street"); its numbers are left to the phonemizer, which reads a house number as one.
func address(text string) string {
	fields := strings.Fields(text)
	for i, f := range fields {
		word := strings.TrimRight(f, ".,")
		tail := f[len(word):]
		if full, ok := addressWords[strings.ToLower(word)]; ok {
			fields[i] = full + strings.TrimPrefix(tail, ".")
		}
	}
	return strings.Join(fields, " ")
}
