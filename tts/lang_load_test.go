package tts

import (
	"strings"
	"testing"
)

func TestLoadConfigRefusesUnknownPreloadLang(t *testing.T) {
	t.Parallel()
	if err := (LoadConfig{PreloadLangs: []string{"ja", "zh", "es"}}).Validate(); err != nil {
		t.Errorf("ja, zh, es: %v", err)
	}
	err := (LoadConfig{PreloadLangs: []string{"ja", "xx"}}).Validate()
	if err == nil || !strings.Contains(err.Error(), `"xx"`) || !strings.Contains(err.Error(), "supported: en-us") {
		t.Errorf("xx: %v, want an error naming the languages", err)
	}
}
