package scaleout

import (
	"strconv"
	"strings"
	"time"
)

// Marker is one stage line a container printed: `=== STAGE <name> t=<UTC time>Z
// elapsed_s=<seconds> ===` (server.FormatStage).
type Marker struct {
	Name     string
	At       time.Time
	ElapsedS float64
}

// markerTimeLayouts are the t= formats accepted: ours writes milliseconds; other images
// write more or fewer fractional digits, and some an explicit offset.
var markerTimeLayouts = []string{"2006-01-02T15:04:05.999999999Z", time.RFC3339Nano}

// ParseMarker finds a stage marker in a log line (CloudWatch may prefix it). It reports false
// for lines that are not markers or whose fields do not parse.
func ParseMarker(line string) (Marker, bool) {
	_, rest, ok := strings.Cut(line, "=== STAGE ")
	if !ok {
		return Marker{}, false
	}
	body, _, ok := strings.Cut(rest, " ===")
	if !ok {
		return Marker{}, false
	}
	f := strings.Fields(body)
	if len(f) != 3 || !strings.HasPrefix(f[1], "t=") || !strings.HasPrefix(f[2], "elapsed_s=") || !validName(f[0]) {
		return Marker{}, false
	}
	var at time.Time
	var err error
	for _, layout := range markerTimeLayouts {
		if at, err = time.Parse(layout, strings.TrimPrefix(f[1], "t=")); err == nil {
			break
		}
	}
	if err != nil {
		return Marker{}, false
	}
	el, err := strconv.ParseFloat(strings.TrimPrefix(f[2], "elapsed_s="), 64)
	if err != nil || el < 0 || el > 1e7 {
		return Marker{}, false
	}
	return Marker{Name: f[0], At: at.UTC(), ElapsedS: el}, true
}

func validName(s string) bool {
	if s == "" || len(s) > 64 {
		return false
	}
	for _, c := range s {
		if !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '_' || c == '-') {
			return false
		}
	}
	return true
}
