package scaleout

import (
	"fmt"
	"io"
	"text/tabwriter"
	"time"

	"github.com/kokoro-sm/kokoro/artifact"
)

// Observations are the instants a scale-out run saw. Zero times are stages not observed.
type Observations struct {
	LoadApplied time.Time // the probe started (before the clock)
	DesiredSet  time.Time // DesiredInstanceCount raised by one: the clock starts
	// Stream is the new instance's log stream, FirstEvent its first event (an upper bound on
	// provisioning plus image pull, which no container can time itself).
	Stream     string
	Instance   string
	FirstEvent time.Time
	Markers    []Marker // stage markers the new instance's container printed
	InService  time.Time
	Poll       time.Duration // how often the endpoint was read: in_service's resolution
	Recovered  time.Time
	// RecoveryNote says how traffic_recovered was found, or why it was not.
	RecoveryNote string
}

// containerStages maps marker names onto timeline stages; others keep their own name.
var containerStages = map[string]string{
	"container_start":   artifact.StageContainerStarted,
	"container_started": artifact.StageContainerStarted,
}

// Stages turns observations into the artifact's stages. container_started comes from a
// marker when the container printed one, else it is reconstructed as the earliest marker's
// time minus its elapsed_s (bounded: the process may have started before it could log).
func Stages(o Observations) []artifact.Stage {
	var st []artifact.Stage
	add := func(name string, at time.Time, bounded bool, source, note string) {
		if !at.IsZero() {
			st = append(st, artifact.Stage{Name: name, At: at.UTC(), Bounded: bounded, Source: source, Note: note})
		}
	}
	add(artifact.StageLoadApplied, o.LoadApplied, false, "probe start", "before the clock: not part of T_total")
	add(artifact.StageDesiredSet, o.DesiredSet, false, "UpdateEndpointWeightsAndCapacities call", "the clock starts here")
	add(artifact.StageInstanceLogging, o.FirstEvent, true, "log stream firstEventTimestamp ("+o.Stream+")",
		"upper bound on provisioning plus image pull")
	started := false
	var earliest *Marker
	for i, m := range o.Markers {
		name := m.Name
		if n, ok := containerStages[name]; ok {
			name = n
			started = true
		}
		add(name, m.At, false, fmt.Sprintf("container stage marker (elapsed_s=%.3f)", m.ElapsedS), "")
		if earliest == nil || m.At.Before(earliest.At) {
			earliest = &o.Markers[i]
		}
	}
	if !started && earliest != nil {
		at := earliest.At.Add(-time.Duration(earliest.ElapsedS * float64(time.Second)))
		add(artifact.StageContainerStarted, at, true, "derived from elapsed_s",
			fmt.Sprintf("%s minus its elapsed_s=%.3f", earliest.Name, earliest.ElapsedS))
	}
	poll := ""
	if o.Poll > 0 {
		poll = fmt.Sprintf(" (polled every %v)", o.Poll)
	}
	add(artifact.StageInService, o.InService, false, "DescribeEndpoint CurrentInstanceCount"+poll, "")
	add(artifact.StageTrafficRecovered, o.Recovered, true, "client-side probe p95 recovery", o.RecoveryNote)
	return st
}

// Row is one interval of the table: between two consecutive stages.
type Row struct {
	From, To    string
	D           time.Duration
	Bounded     bool
	BeforeClock bool // ends at or before desired_set
}

// Table is the stage timeline laid end to end. Its intervals cover the time from the first
// stage to the last exactly once, so PreClock + Clocked = Wall, PreClock is the sum of the
// rows before the clock and Clocked (T_total) the sum of the rest, in exact nanoseconds.
type Table struct {
	Rows     []Row
	PreClock time.Duration // load_applied → desired_set
	Clocked  time.Duration // desired_set → the last stage: T_total
	Wall     time.Duration // the first stage → the last
}

// NewTable builds the table from stages (any order); it needs desired_set.
func NewTable(stages []artifact.Stage) (Table, error) {
	s := artifact.SortStages(stages)
	var clock time.Time
	for _, x := range s {
		if x.Name == artifact.StageDesiredSet {
			clock = x.At
		}
	}
	if clock.IsZero() {
		return Table{}, fmt.Errorf("no %s stage: the clock has no start", artifact.StageDesiredSet)
	}
	var t Table
	for i := 1; i < len(s); i++ {
		a, b := s[i-1], s[i]
		r := Row{From: a.Name, To: b.Name, D: b.At.Sub(a.At), Bounded: a.Bounded || b.Bounded, BeforeClock: !b.At.After(clock)}
		t.Rows = append(t.Rows, r)
		if r.BeforeClock {
			t.PreClock += r.D
		} else {
			t.Clocked += r.D
		}
	}
	t.Wall = s[len(s)-1].At.Sub(s[0].At)
	return t, nil
}

// Write prints the table: each interval with its share of T_total, the pre-clock stage apart,
// and the sums.
func (t Table) Write(w io.Writer) error {
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "from\tto\tseconds\tof T_total\t\t")
	for _, r := range t.Rows {
		share, mark := "", ""
		if r.BeforeClock {
			share = "before clock"
		} else if t.Clocked > 0 {
			share = fmt.Sprintf("%.1f %%", 100*float64(r.D)/float64(t.Clocked))
		}
		if r.Bounded {
			mark = "upper bound"
		}
		fmt.Fprintf(tw, "%s\t%s\t%.3f\t%s\t%s\t\n", r.From, r.To, r.D.Seconds(), share, mark)
	}
	fmt.Fprintf(tw, "pre-clock (load_applied → desired_set)\t\t%.3f\t\t\t\n", t.PreClock.Seconds())
	fmt.Fprintf(tw, "T_total (desired_set → last stage)\t\t%.3f\t100.0 %%\t\t\n", t.Clocked.Seconds())
	fmt.Fprintf(tw, "wall (first stage → last stage)\t\t%.3f\t\t\t\n", t.Wall.Seconds())
	return tw.Flush()
}
