package replay

import (
	"math"
	"strings"
	"testing"
	"time"
)

func TestReadCSV(t *testing.T) {
	t.Parallel()
	arr, rate, err := ReadCSV(strings.NewReader("at_s,chars\n0.5,40\n# a comment\n1.25, 12\n1.25,0\n"))
	if err != nil || len(arr) != 3 || len(rate.Points) != 0 || arr[0].At != 500*time.Millisecond || arr[1].Chars != 12 || arr[2].At != 1250*time.Millisecond {
		t.Errorf("arrivals %+v, rate %+v, %v", arr, rate, err)
	}
	arr, rate, err = ReadCSV(strings.NewReader("T_s, RPS\n0,10\n60,20\n"))
	if err != nil || arr != nil || len(rate.Points) != 2 || rate.At(30*time.Second) != 15 || rate.At(time.Hour) != 20 {
		t.Errorf("rate %+v, %v", rate, err)
	}
	for name, in := range map[string]string{
		"empty":          "",
		"no rows":        "at_s\n",
		"header":         "time,rate\n1,2\n",
		"out of order":   "at_s\n2\n1\n",
		"negative":       "at_s\n-1\n",
		"not a number":   "at_s\nsoon\n",
		"NaN":            "at_s\nNaN\n",
		"bad chars":      "at_s,chars\n1,-3\n",
		"fields":         "at_s,chars\n1\n",
		"negative rate":  "t_s,rps\n0,-1\n",
		"absurd rate":    "t_s,rps\n0,1e9\n",
		"absurd seconds": "at_s\n1e12\n",
	} {
		if _, _, err := ReadCSV(strings.NewReader(in)); err == nil {
			t.Errorf("%s: no error for %q", name, in)
		} else if !strings.HasPrefix(err.Error(), "trace:") {
			t.Errorf("%s: error %q does not say it is the trace's", name, err)
		}
	}
}

func FuzzReadCSV(f *testing.F) {
	f.Add("at_s,chars\n0.5,40\n1,3\n")
	f.Add("t_s,rps\n0,10\n60,20\n")
	f.Fuzz(func(t *testing.T, in string) {
		arr, rate, err := ReadCSV(strings.NewReader(in))
		if err != nil {
			return
		}
		if !sorted(arr) {
			t.Errorf("arrivals out of order: %v", arr)
		}
		for _, p := range rate.Points {
			if p.RPS < 0 || math.IsNaN(p.RPS) || p.At < 0 {
				t.Errorf("rate point %+v", p)
			}
		}
	})
}

// The shapes are what they say, and Poisson arrivals follow their rate.
func TestShapes(t *testing.T) {
	t.Parallel()
	st := Step(10, 1.5, time.Minute)
	if st.At(59*time.Second) != 10 || st.At(61*time.Second) != 15 {
		t.Errorf("step %+v", st)
	}
	r := Ramp(10, 20, time.Minute, time.Minute)
	if r.At(0) != 10 || r.At(90*time.Second) != 15 || r.At(time.Hour) != 20 {
		t.Errorf("ramp %+v", r)
	}
	d := Day(100, 5000, 24*time.Hour)
	if d.At(0) != 100 || math.Abs(d.At(12*time.Hour)-5000) > 1e-9 || math.Abs(d.At(6*time.Hour)-2550) > 1e-9 {
		t.Errorf("day at 0, 6 h, 12 h: %v %v %v", d.At(0), d.At(6*time.Hour), d.At(12*time.Hour))
	}
	b := Bursts(5, 50, 10*time.Minute, time.Minute, time.Hour)
	if b.At(5*time.Minute) != 5 || b.At(10*time.Minute+30*time.Second) != 50 || b.At(12*time.Minute) != 5 {
		t.Errorf("bursts %+v", b)
	}
	arr := st.Poisson(2*time.Hour, 1)
	var before, after int
	for _, a := range arr {
		if a.At < time.Minute {
			before++
		} else {
			after++
		}
	}
	// 600 expected before, 106 500 after: within four standard deviations.
	if math.Abs(float64(before)-600) > 4*math.Sqrt(600) || math.Abs(float64(after)-106500) > 4*math.Sqrt(106500) {
		t.Errorf("%d arrivals in the first minute, %d after", before, after)
	}
}
