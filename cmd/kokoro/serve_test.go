package main

import (
	"testing"
	"time"
)

func TestContainerStart(t *testing.T) {
	t.Parallel()
	def := time.Unix(1_700_000_000, 0)
	cases := []struct {
		in      string
		want    time.Time
		wantErr bool
	}{
		{"", def, false},
		{"1700000100", time.Unix(1_700_000_100, 0), false},
		{"1700000100.250", time.Unix(1_700_000_100, 250_000_000), false},
		{"yesterday", time.Time{}, true},
		{"-5", time.Time{}, true},
		{"Inf", time.Time{}, true},
	}
	for _, tc := range cases {
		t.Run(tc.in, func(t *testing.T) {
			got, err := containerStart(tc.in, def)
			if (err != nil) != tc.wantErr {
				t.Errorf("containerStart(%q) error = %v, want error %v", tc.in, err, tc.wantErr)
				return
			}
			if d := got.Sub(tc.want); d < -time.Millisecond || d > time.Millisecond {
				t.Errorf("containerStart(%q) = %v, want %v", tc.in, got, tc.want)
			}
		})
	}
}
