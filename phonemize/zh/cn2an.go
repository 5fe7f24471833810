package zh

import (
	"regexp"
	"strings"
	"unicode"
	"unicode/utf8"
)

// The numbers of a text become Chinese numerals as cn2an 0.5.24's transform(text, "an2cn")
// writes them, in its order: a range before a measure word ("3-5个" → 三到五个), a date (the
// year digit by digit: 2024年 → 二零二四年), a fraction (1/2 → 二分之一), a percentage, a
// temperature in ℃, then any number (-3.5 → 负三点五). A number cn2an cannot write (more than
// sixteen digits before the point) stays as it is, as in cn2an. Digits are Unicode digits, as
// Python's \d is.

// measureWords are cn2an's measure words, which a range must come before.
var measureWords = strings.Split("斤|克|千克|公斤|吨|米|厘米|毫米|公里|升|毫升|元|角|分|个|只|条|张|块|瓶|杯|份|本|辆|台|匹|头|位|亩|小时|分钟|秒|天|半", "|")

var (
	reRange    = regexp.MustCompile(`^\p{Nd}+(\.\p{Nd}+)?-\p{Nd}+(\.\p{Nd}+)?`)
	reFraction = regexp.MustCompile(`\p{Nd}+/\p{Nd}+`)
	rePercent  = regexp.MustCompile(`-?(\p{Nd}+\.)?\p{Nd}+%`)
	reCelsius  = regexp.MustCompile(`\p{Nd}+℃`)
	reNumber   = regexp.MustCompile(`-?(\p{Nd}+\.)?\p{Nd}+`)
)

var lowDigits = []string{"零", "一", "二", "三", "四", "五", "六", "七", "八", "九"}
var lowUnits = []string{"", "十", "百", "千", "万", "十", "百", "千", "亿", "十", "百", "千", "万", "十", "百", "千"}

// an2cnText is cn2an's transform of text from Arabic to Chinese numerals.
func an2cnText(text string) string {
	text = subRanges(text)
	text = subDates(text)
	text = reFraction.ReplaceAllStringFunc(text, func(m string) string {
		num, den, _ := strings.Cut(m, "/")
		n, ok1 := an2cn(num)
		dn, ok2 := an2cn(den)
		if !ok1 || !ok2 {
			return m
		}
		return dn + "分之" + n
	})
	text = rePercent.ReplaceAllStringFunc(text, func(m string) string {
		if n, ok := an2cn(strings.TrimSuffix(m, "%")); ok {
			return "百分之" + n
		}
		return m
	})
	text = reCelsius.ReplaceAllStringFunc(text, func(m string) string {
		if n, ok := an2cn(strings.TrimSuffix(m, "℃")); ok {
			return n + "摄氏度"
		}
		return m
	})
	return reNumber.ReplaceAllStringFunc(text, func(m string) string {
		if n, ok := an2cn(m); ok {
			return n
		}
		return m
	})
}

// subRanges writes "a-b" before a measure word as "a到b", scanning as Python's re.sub scans
// a pattern with a lookahead: a match whose lookahead fails is tried again one character on.
func subRanges(text string) string {
	var b strings.Builder
	for i := 0; i < len(text); {
		loc := reRange.FindStringIndex(text[i:])
		if loc != nil && followedByMeasure(text[i+loc[1]:]) {
			m := text[i : i+loc[1]]
			start, end, _ := strings.Cut(m, "-")
			s, ok1 := an2cn(start)
			e, ok2 := an2cn(end)
			if ok1 && ok2 {
				b.WriteString(s + "到" + e)
			} else {
				b.WriteString(m)
			}
			i += loc[1]
			continue
		}
		_, size := nextRune(text[i:])
		b.WriteString(text[i : i+size])
		i += size
	}
	return b.String()
}

func followedByMeasure(s string) bool {
	for _, w := range measureWords {
		if strings.HasPrefix(s, w) {
			return true
		}
	}
	return false
}

// subDates finds cn2an's dates, (\d{2,4}年)?(\d{1,2}月)?(\d{1,2}日)?, and writes the year
// digit by digit and the month and day as numbers.
func subDates(text string) string {
	rs := []rune(text)
	var b strings.Builder
	for i := 0; i < len(rs); {
		j := i
		var out strings.Builder
		if n := digitRun(rs, j); n >= 2 && n <= 4 && j+n < len(rs) && rs[j+n] == '年' {
			out.WriteString(directDigits(rs[j:j+n]) + "年")
			j += n + 1
		}
		for _, unit := range []rune{'月', '日'} {
			if n := digitRun(rs, j); n >= 1 && n <= 2 && j+n < len(rs) && rs[j+n] == unit {
				num, ok := an2cn(string(rs[j : j+n]))
				if !ok {
					num = string(rs[j : j+n])
				}
				out.WriteString(num + string(unit))
				j += n + 1
			}
		}
		if j == i {
			b.WriteRune(rs[i])
			i++
			continue
		}
		b.WriteString(out.String())
		i = j
	}
	return b.String()
}

func digitRun(rs []rune, i int) int {
	n := 0
	for i+n < len(rs) && unicode.IsDigit(rs[i+n]) {
		n++
	}
	return n
}

// directDigits writes each digit as its numeral (cn2an's "direct" mode).
func directDigits(ds []rune) string {
	var b strings.Builder
	for _, r := range ds {
		v, ok := digitValue(r)
		if !ok {
			return string(ds)
		}
		b.WriteString(lowDigits[v])
	}
	return b.String()
}

// digitValue is an ASCII or full-width digit's value; cn2an refuses other digits.
func digitValue(r rune) (int, bool) {
	if r >= 0xFF10 && r <= 0xFF19 {
		r -= 0xFEE0
	}
	if r >= '0' && r <= '9' {
		return int(r - '0'), true
	}
	return 0, false
}

// an2cn is cn2an's An2Cn.an2cn(s, "low"): "-12.5" → 负十二点五. ok is false where cn2an raises
// (a digit it does not know, more than sixteen digits before the point).
func an2cn(s string) (string, bool) {
	sign := ""
	if strings.HasPrefix(s, "-") {
		sign, s = "负", s[1:]
	}
	var ds []int
	point := -1
	for _, r := range s {
		if r == '.' || r == '．' {
			if point >= 0 {
				return "", false
			}
			point = len(ds)
			continue
		}
		v, ok := digitValue(r)
		if !ok {
			return "", false
		}
		ds = append(ds, v)
	}
	intPart, decPart := ds, []int(nil)
	if point >= 0 {
		intPart, decPart = ds[:point], ds[point:]
	}
	if len(intPart) == 0 {
		return "", false
	}
	for len(intPart) > 1 && intPart[0] == 0 {
		intPart = intPart[1:]
	}
	if len(intPart) > len(lowUnits) {
		return "", false
	}
	out := integer(intPart)
	if point >= 0 {
		if len(decPart) > 16 {
			decPart = decPart[:16]
		}
		if len(decPart) > 0 {
			out += "点"
		}
		for _, v := range decPart {
			out += lowDigits[v]
		}
	}
	return sign + out, true
}

var reWanYiZero = regexp.MustCompile(`([万亿])零([一二三四五六七八九][千])`)

// integer writes digits (no leading zeros) as cn2an's __integer_convert does.
func integer(ds []int) string {
	n := len(ds)
	var b strings.Builder
	for i, v := range ds {
		place := n - i - 1
		if v != 0 {
			b.WriteString(lowDigits[v] + lowUnits[place])
			continue
		}
		if place%4 == 0 {
			b.WriteString(lowDigits[0] + lowUnits[place])
		}
		if i > 0 && !strings.HasSuffix(b.String(), "零") {
			b.WriteString(lowDigits[0])
		}
	}
	out := b.String()
	out = strings.ReplaceAll(out, "零零", "零")
	out = strings.ReplaceAll(out, "零万", "万")
	out = strings.ReplaceAll(out, "零亿", "亿")
	out = strings.ReplaceAll(out, "亿万", "亿")
	out = strings.Trim(out, "零")
	out = reWanYiZero.ReplaceAllString(out, "$1$2")
	if strings.HasPrefix(out, "一十") {
		out = strings.TrimPrefix(out, "一")
	}
	if out == "" {
		out = "零"
	}
	return out
}

func nextRune(s string) (rune, int) { return utf8.DecodeRuneInString(s) }
