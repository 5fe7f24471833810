package artifact

import "testing"

func TestMismatch(t *testing.T) {
	t.Parallel()
	q, err := ReadQmax(refQmaxFile)
	if err != nil {
		t.Fatal(err)
	}
	base, err := ReadTTotal(refTTotalFile)
	if err != nil {
		t.Fatal(err)
	}
	if m := Mismatch(q, base); m != "" {
		t.Fatalf("the reference pair mismatches: %s", m)
	}
	cases := []struct {
		name string
		mut  func(tt *TTotal)
	}{
		{"fingerprint", func(tt *TTotal) { tt.Fingerprint = "x" }},
		{"model", func(tt *TTotal) { tt.Target.Model = "other" }},
		{"transport", func(tt *TTotal) { tt.Target.Transport = TransportHTTP }},
		{"paired transport", func(tt *TTotal) { tt.Pairs = &QmaxRef{Transport: TransportWS} }},
		{"paired fingerprint", func(tt *TTotal) { tt.Pairs = q.Ref(""); tt.Pairs.Fingerprint = "y" }},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			tt := *base
			c.mut(&tt)
			if Mismatch(q, &tt) == "" {
				t.Errorf("%s: no mismatch reported", c.name)
			}
		})
	}
	tt := *base
	tt.Pairs = q.Ref("qmax.json")
	if m := Mismatch(q, &tt); m != "" || tt.Pairs.QMax != 50 || tt.Pairs.Slug != "g5xlarge-8b1b96bc" {
		t.Errorf("pairing with its own Ref: %q %+v", m, tt.Pairs)
	}
}
