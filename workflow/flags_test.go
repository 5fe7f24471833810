package workflow

import (
	"testing"
	"time"

	"github.com/spf13/pflag"
)

// A duration row's variable is seconds or a Go duration; anything else leaves the row's default.
func TestBindReadsADurationVariable(t *testing.T) {
	for _, c := range []struct {
		v    string
		want string
	}{{"", "25s"}, {"10", "10s"}, {"2.5", "2.5s"}, {"1m", "1m0s"}, {"soon", "25s"}, {"-3", "25s"}} {
		t.Run(c.v, func(t *testing.T) {
			t.Setenv(LookupSetting("drain-timeout").Env, c.v)
			fl := pflag.NewFlagSet("serve", pflag.ContinueOnError)
			var d time.Duration
			Bind(fl, &d, "drain-timeout")
			if got := d.String(); got != c.want {
				t.Errorf("%q: %s, want %s", c.v, got, c.want)
			}
		})
	}
}

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
			got, err := ContainerStart(func(string) string { return tc.in }, def)
			if (err != nil) != tc.wantErr {
				t.Errorf("ContainerStart(%q) error = %v, want error %v", tc.in, err, tc.wantErr)
				return
			}
			if d := got.Sub(tc.want); d < -time.Millisecond || d > time.Millisecond {
				t.Errorf("ContainerStart(%q) = %v, want %v", tc.in, got, tc.want)
			}
		})
	}
}
