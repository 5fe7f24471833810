package en

import (
	"regexp"
	"strings"
)

// Switches turn off rewrites a caller does not want: the zero value rewrites everything the
// reader rewrites by default.
type Switches struct {
	// PhonesOff leaves telephone numbers to the pipeline, which reads their groups as numbers.
	PhonesOff bool
	// UnitsOff leaves unit abbreviations after numbers to the pipeline, which spells them.
	UnitsOff bool
	// SymbolsOff drops symbols that stand alone between words (& + = @ * # ~ ^ | \ < >) instead
	// of reading them; a sign on a number ("20%", "$5", "+3") is still read.
	SymbolsOff bool
}

// normalize rewrites the few written forms the reference reads badly into the words a reader
// would say, before the reference-faithful pipeline sees them: numeric ranges ("5-10" →
// "5 to 10", which it reads "fiveten"), phone numbers (digit by digit in their groups rather
// than as hundreds), and units after numbers ("10km" → "10 kilometers", which it spells
// "K M"), each unless sw turns it off; and, with sw.SymbolsOff, drops lone symbols.
// Everything else is left for the pipeline, which reads it as the reference does.
func normalize(text string, sw Switches) string {
	if sw.SymbolsOff && strings.ContainsAny(text, loneSymbols) {
		text = dropLoneSymbols(text)
	}
	if !strings.ContainsAny(text, "0123456789") {
		return text
	}
	// Each expression runs only on text that has what every one of its matches needs, which
	// is checked in one pass (most text with digits has no telephone number, range or unit).
	if !sw.PhonesOff && hasPhoneDigits(text) {
		text = phoneRe.ReplaceAllStringFunc(text, speakPhone)
	}
	if strings.ContainsAny(text, "-–") {
		text = replaceRanges(text)
	}
	if !sw.UnitsOff && hasUnitAfterDigit(text) {
		text = unitRe.ReplaceAllStringFunc(text, speakUnit)
	}
	return text
}

// loneSymbols are the symbols SymbolsOff drops where a run of them is a word of its own.
const loneSymbols = `&+=@*#~^|\<>`

var loneSymbolRe = regexp.MustCompile(`[&+=@*#~^|\\<>]+`)

// dropLoneSymbols removes each run of loneSymbols that white space or the text's ends bound
// on both sides, with the white space after it (before it, at the end).
func dropLoneSymbols(text string) string {
	var b strings.Builder
	last := 0
	for _, m := range loneSymbolRe.FindAllStringIndex(text, -1) {
		from, to := m[0], m[1]
		before := from == 0 || isSpaceByte(text[from-1])
		after := to == len(text) || isSpaceByte(text[to])
		if !before || !after || from < last {
			continue
		}
		if to < len(text) {
			to++
		} else if from > last && from > 0 {
			from--
		}
		b.WriteString(text[last:from])
		last = to
	}
	b.WriteString(text[last:])
	return b.String()
}

func isSpaceByte(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

// hasPhoneDigits reports three digits, a dot or hyphen and four digits, which every match of
// phoneRe ends with.
func hasPhoneDigits(text string) bool {
	for i := 0; i+8 <= len(text); i++ {
		if isDigitByte(text[i]) && isDigitByte(text[i+1]) && isDigitByte(text[i+2]) &&
			(text[i+3] == '.' || text[i+3] == '-') && isDigitByte(text[i+4]) &&
			isDigitByte(text[i+5]) && isDigitByte(text[i+6]) && isDigitByte(text[i+7]) {
			return true
		}
	}
	return false
}

// unitInitials are the first bytes of the units unitRe knows ("°" begins with 0xC2).
const unitInitials = "kcmlofMGTKH\xc2"

// hasUnitAfterDigit reports a digit followed, directly or after one space, by the first byte
// of a unit, which every match of unitRe has.
func hasUnitAfterDigit(text string) bool {
	for i := 0; i+1 < len(text); i++ {
		if !isDigitByte(text[i]) {
			continue
		}
		j := i + 1
		if text[j] == ' ' {
			j++
		}
		if j < len(text) && strings.IndexByte(unitInitials, text[j]) >= 0 {
			return true
		}
	}
	return false
}

// phoneRe matches North American style numbers: (555) 123-4567, 555-123-4567, 555.123.4567,
// +1 555 123 4567, and local 123-4567.
var phoneRe = regexp.MustCompile(`(?:\+1[ .-]?)?(?:\(\d{3}\) ?|\b\d{3}[.-])?\b\d{3}[.-]\d{4}\b`)

func speakPhone(s string) string {
	var groups []string
	var cur []string
	flush := func() {
		if len(cur) > 0 {
			groups = append(groups, strings.Join(cur, " "))
			cur = nil
		}
	}
	for _, r := range s {
		if r >= '0' && r <= '9' {
			cur = append(cur, string(r))
		} else {
			flush()
		}
	}
	flush()
	return strings.Join(groups, ", ")
}

// rangeRe matches a numeric range with a hyphen or en dash between two numbers (optionally
// with a currency sign or percent), but not dates such as 2024-01-15 or codes with more parts.
var rangeRe = regexp.MustCompile(`(^|[\s(\[,;:])([$£€]?\d+(?:[.,]\d+)?%?) ?[-–] ?([$£€]?)(\d+(?:[.,]\d+)?%?)\b`)

// replaceRanges rewrites each range match unless more dashes and digits follow (a date or a
// code such as 2024-01-15) or a fraction does (11-5/8).
func replaceRanges(text string) string {
	var b strings.Builder
	last := 0
	for _, m := range rangeRe.FindAllStringSubmatchIndex(text, -1) {
		if rest := text[m[1]:]; len(rest) > 1 && (rest[0] == '-' || strings.HasPrefix(rest, "–") ||
			rest[0] == '/' && isDigitByte(rest[1])) {
			continue // a date, a code, or a whole number and a fraction (6-5/8, as prices were quoted)
		}
		b.WriteString(text[last:m[0]])
		b.WriteString(text[m[2]:m[3]] + text[m[4]:m[5]] + " to " + text[m[6]:m[7]] + text[m[8]:m[9]])
		last = m[1]
	}
	b.WriteString(text[last:])
	return b.String()
}

// units maps abbreviations written right after a number to their spoken plural and singular.
var units = map[string][2]string{
	"km": {"kilometers", "kilometer"}, "cm": {"centimeters", "centimeter"}, "mm": {"millimeters", "millimeter"},
	"kg": {"kilograms", "kilogram"}, "mg": {"milligrams", "milligram"}, "lb": {"pounds", "pound"},
	"lbs": {"pounds", "pound"}, "oz": {"ounces", "ounce"}, "ft": {"feet", "foot"}, "mi": {"miles", "mile"},
	"mph": {"miles per hour", "mile per hour"}, "km/h": {"kilometers per hour", "kilometer per hour"},
	"kmh": {"kilometers per hour", "kilometer per hour"}, "ml": {"milliliters", "milliliter"},
	"GB": {"gigabytes", "gigabyte"}, "MB": {"megabytes", "megabyte"}, "TB": {"terabytes", "terabyte"},
	"KB": {"kilobytes", "kilobyte"}, "kHz": {"kilohertz", "kilohertz"}, "MHz": {"megahertz", "megahertz"},
	"GHz": {"gigahertz", "gigahertz"}, "Hz": {"hertz", "hertz"}, "ms": {"milliseconds", "millisecond"},
	"MB/s": {"megabytes per second", "megabyte per second"}, "GB/s": {"gigabytes per second", "gigabyte per second"},
	"KB/s": {"kilobytes per second", "kilobyte per second"}, "Mbps": {"megabits per second", "megabit per second"},
	"Gbps": {"gigabits per second", "gigabit per second"}, "kbps": {"kilobits per second", "kilobit per second"},
	"°C": {"degrees Celsius", "degree Celsius"}, "°F": {"degrees Fahrenheit", "degree Fahrenheit"},
}

var unitRe = regexp.MustCompile(`\b(\d+(?:[.,]\d+)?) ?(km/h|kmh|km|cm|mm|kg|mg|lbs|lb|oz|ft|mi|mph|ml|MB/s|GB/s|KB/s|Mbps|Gbps|kbps|GB|MB|TB|KB|kHz|MHz|GHz|Hz|ms|°C|°F)\b`)

func speakUnit(s string) string {
	m := unitRe.FindStringSubmatch(s)
	if m == nil {
		return s
	}
	u := units[m[2]]
	if m[1] == "1" {
		return m[1] + " " + u[1]
	}
	return m[1] + " " + u[0]
}
