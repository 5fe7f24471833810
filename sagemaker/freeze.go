package sagemaker

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	aastypes "github.com/aws/aws-sdk-go-v2/service/applicationautoscaling/types"
	sm "github.com/aws/aws-sdk-go-v2/service/sagemaker"
	smtypes "github.com/aws/aws-sdk-go-v2/service/sagemaker/types"

	"github.com/kokoro-sm/kokoro/internal/ctxtime"
)

// FreezeStateVersion is the version of the state file's JSON.
const FreezeStateVersion = 1

// FreezeState is what a freeze found before it changed anything, written to a state file
// before the first change so that `kokoro thaw` can put it back after a crash or a kill.
type FreezeState struct {
	Version  int       `json:"version"`
	Endpoint string    `json:"endpoint"`
	Variant  string    `json:"variant"`
	Region   string    `json:"region"`
	Created  time.Time `json:"created"`
	PID      int       `json:"pid"`
	Host     string    `json:"host"`
	Purpose  string    `json:"purpose,omitempty"` // what froze it, e.g. "bench qmax"

	// DesiredInstanceCount of the variant before the freeze.
	DesiredInstanceCount int `json:"desired_instance_count"`
	// Pin is the instance count the freeze set; 0 when it left the count alone.
	Pin int `json:"pin"`
	// RestoreCount: thaw sets the desired count back even without a pin (the caller means
	// to change it, as the scale-out timer does).
	RestoreCount bool `json:"restore_count,omitempty"`
	// Target is the scalable target as it was; nil when autoscaling was not registered.
	Target *Target `json:"scalable_target"`
	// Policies are the variant's scaling policies as they were. A freeze does not change
	// them; thaw puts back any that went missing.
	Policies []aastypes.ScalingPolicy `json:"scaling_policies"`
}

// FreezeSpec says what to freeze.
type FreezeSpec struct {
	Endpoint, Variant string
	// Pin sets the variant to this many instances for the measurement; 0 keeps the count.
	Pin int
	// RestoreCount makes thaw set the recorded count back although Pin is 0.
	RestoreCount bool
	// StateFile is where the state is written before the first change (see StatePath).
	StateFile string
	Purpose   string
	// PinWait bounds the wait for the pinned count to be in service; 0 means 30 minutes.
	PinWait    time.Duration
	OnProgress func(Progress)
}

// ErrFrozen is wrapped when a state file of an earlier freeze is still there.
var ErrFrozen = errors.New("endpoint already frozen")

// StatePath is the default state file of a variant's freeze: one per region, endpoint and
// variant, so that two endpoints can be measured at once but one cannot be frozen twice.
func StatePath(dir, region, endpoint, variant string) string {
	return filepath.Join(dir, fmt.Sprintf("freeze-%s-%s-%s.json", region, endpoint, variant))
}

// DefaultStateDir is $XDG_STATE_HOME/kokoro, else ~/.local/state/kokoro.
func DefaultStateDir(getenv func(string) string) string {
	if d := getenv("XDG_STATE_HOME"); d != "" {
		return filepath.Join(d, "kokoro")
	}
	if h := getenv("HOME"); h != "" {
		return filepath.Join(h, ".local", "state", "kokoro")
	}
	return filepath.Join(os.TempDir(), "kokoro-state")
}

// Frozen is a variant held still: scaling suspended and, when asked, a pinned instance count.
type Frozen struct {
	c     *Control
	State FreezeState
	file  string
}

// Freeze records the variant's scalable target, policies and instance count, writes them to
// the state file, then suspends every kind of scaling and pins the instance count. When a step
// fails, what was already changed is restored before the error returns. A state file left by
// an earlier freeze makes it refuse: recording a frozen endpoint as the state to restore would
// leave it frozen for good.
func (c *Control) Freeze(ctx context.Context, s FreezeSpec) (*Frozen, error) {
	if s.Variant == "" {
		s.Variant = DefaultVariant
	}
	if s.StateFile == "" {
		return nil, errors.New("freeze: no state file")
	}
	if prev, err := ReadState(s.StateFile); err == nil {
		return nil, fmt.Errorf("%w: a run (pid %d on %s, %s) left %s frozen and its state in %s: run `kokoro thaw --state %s` first",
			ErrFrozen, prev.PID, prev.Host, prev.Created.Format(time.RFC3339), prev.Endpoint, s.StateFile, s.StateFile)
	} else if !errors.Is(err, os.ErrNotExist) {
		return nil, err
	}
	info, err := c.RequireInService(ctx, s.Endpoint, s.Variant)
	if err != nil {
		return nil, err
	}
	v, _ := info.Variant(s.Variant)
	rid := ResourceID(s.Endpoint, s.Variant)
	target, err := c.scalableTarget(ctx, rid)
	if err != nil {
		return nil, err
	}
	pols, err := c.policies(ctx, rid)
	if err != nil {
		return nil, err
	}
	host, _ := os.Hostname()
	st := FreezeState{
		Version: FreezeStateVersion, Endpoint: s.Endpoint, Variant: s.Variant, Region: c.Region,
		Created: time.Now().UTC(), PID: os.Getpid(), Host: host, Purpose: s.Purpose,
		DesiredInstanceCount: v.Desired, Pin: s.Pin, RestoreCount: s.RestoreCount, Target: target, Policies: pols,
	}
	if err := writeState(s.StateFile, st); err != nil {
		return nil, err
	}
	f := &Frozen{c: c, State: st, file: s.StateFile}
	if err := f.apply(ctx, s); err != nil {
		// Undo on a context of its own: the failure may be the user's Ctrl-C.
		tctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Minute)
		defer cancel()
		if terr := f.Thaw(tctx); terr != nil {
			return nil, errors.Join(err, fmt.Errorf("restore after a failed freeze: %w (state kept in %s for `kokoro thaw`)", terr, s.StateFile))
		}
		return nil, err
	}
	return f, nil
}

func (f *Frozen) apply(ctx context.Context, s FreezeSpec) error {
	c, st := f.c, f.State
	if st.Target != nil {
		frozen := *st.Target
		frozen.Suspended = Suspension{DynamicIn: true, DynamicOut: true, Scheduled: true}
		// A minimum above the pin would fight it.
		if s.Pin > 0 && frozen.MinCapacity > s.Pin {
			frozen.MinCapacity = s.Pin
		}
		if _, err := c.Scaling.RegisterScalableTarget(ctx, registerInput(frozen)); err != nil {
			return fmt.Errorf("suspend scaling of %s: %w", frozen.ResourceID, c.explain(err))
		}
	}
	if s.Pin > 0 && st.DesiredInstanceCount != s.Pin {
		if err := c.SetDesired(ctx, st.Endpoint, st.Variant, s.Pin); err != nil {
			return err
		}
	}
	if s.Pin > 0 {
		wait := s.PinWait
		if wait == 0 {
			wait = 30 * time.Minute
		}
		if err := c.waitCount(ctx, st.Endpoint, st.Variant, s.Pin, wait, s.OnProgress); err != nil {
			return err
		}
	}
	return nil
}

// Thaw restores what Freeze found: the instance count, then the scalable target (limits and
// suspended state exactly as recorded), then any recorded policy that went missing. The state
// file is removed once everything is back.
func (f *Frozen) Thaw(ctx context.Context) error {
	if err := f.c.Restore(ctx, f.State, nil); err != nil {
		return fmt.Errorf("%w (state kept in %s for `kokoro thaw`)", err, f.file)
	}
	if err := os.Remove(f.file); err != nil && !errors.Is(err, os.ErrNotExist) {
		return fmt.Errorf("remove state file: %w", err)
	}
	return nil
}

// StateFile is where the freeze's state is kept until Thaw.
func (f *Frozen) StateFile() string { return f.file }

// Restore puts a recorded state back. It is what Thaw and `kokoro thaw` do; it is safe to
// repeat. onStep, when set, hears each change made.
func (c *Control) Restore(ctx context.Context, st FreezeState, onStep func(string)) error {
	note := func(s string) {
		if onStep != nil {
			onStep(s)
		}
	}
	var errs []error
	if st.Pin > 0 || st.RestoreCount {
		if err := c.restoreCount(ctx, st.Endpoint, st.Variant, st.DesiredInstanceCount, note); err != nil {
			errs = append(errs, err)
		}
	}
	if st.Target != nil {
		if _, err := c.Scaling.RegisterScalableTarget(ctx, registerInput(*st.Target)); err != nil {
			errs = append(errs, fmt.Errorf("restore scalable target %s: %w", st.Target.ResourceID, c.explain(err)))
		} else {
			note(fmt.Sprintf("scalable target %s: min %d, max %d, suspended in=%t out=%t scheduled=%t",
				st.Target.ResourceID, st.Target.MinCapacity, st.Target.MaxCapacity, st.Target.Suspended.DynamicIn, st.Target.Suspended.DynamicOut, st.Target.Suspended.Scheduled))
		}
	}
	if len(st.Policies) > 0 && st.Target != nil {
		live, err := c.policies(ctx, st.Target.ResourceID)
		if err != nil {
			errs = append(errs, err)
		} else {
			have := map[string]bool{}
			for _, p := range live {
				have[aws.ToString(p.PolicyName)] = true
			}
			for _, p := range st.Policies {
				if have[aws.ToString(p.PolicyName)] {
					continue
				}
				if _, err := c.Scaling.PutScalingPolicy(ctx, putPolicyInput(p)); err != nil {
					errs = append(errs, fmt.Errorf("restore scaling policy %s: %w", aws.ToString(p.PolicyName), c.explain(err)))
				} else {
					note("scaling policy " + aws.ToString(p.PolicyName) + " put back")
				}
			}
		}
	}
	return errors.Join(errs...)
}

// SetDesired sets the variant's DesiredInstanceCount directly (UpdateEndpointWeightsAndCapacities).
func (c *Control) SetDesired(ctx context.Context, endpoint, variant string, n int) error {
	_, err := c.SageMaker.UpdateEndpointWeightsAndCapacities(ctx, &sm.UpdateEndpointWeightsAndCapacitiesInput{
		EndpointName: aws.String(endpoint),
		DesiredWeightsAndCapacities: []smtypes.DesiredWeightAndCapacity{{
			VariantName: aws.String(variant), DesiredInstanceCount: aws.Int32(int32(n)),
		}},
	})
	if err != nil {
		return fmt.Errorf("set %s/%s to %d instance(s): %w", endpoint, variant, n, c.explain(err))
	}
	return nil
}

// restoreWait bounds how long a restore waits out an Updating endpoint: SageMaker refuses a
// capacity change while an update is in progress, and the restore is the one call that must
// not give up early.
const restoreWait = 20 * time.Minute

// restoreCount sets the desired count back, first waiting out an update in progress.
func (c *Control) restoreCount(ctx context.Context, endpoint, variant string, n int, note func(string)) error {
	already := false
	err := ctxtime.PollUntil(ctx, c.poll(), time.Now().Add(restoreWait), func() (bool, error) {
		info, err := c.endpointStatus(ctx, endpoint)
		if err != nil {
			return false, err
		}
		v, ok := info.Variant(variant)
		if !ok {
			return false, noVariant(info, variant)
		}
		already = v.Desired == n
		return already || info.Status != StatusUpdating, nil
	})
	if errors.Is(err, ctxtime.ErrDeadline) {
		return fmt.Errorf("endpoint %s still Updating after %v; set it back by hand: aws sagemaker update-endpoint-weights-and-capacities --endpoint-name %s --desired-weights-and-capacities VariantName=%s,DesiredInstanceCount=%d",
			endpoint, restoreWait, endpoint, variant, n)
	}
	if err != nil {
		return err
	}
	if already {
		note(fmt.Sprintf("%s/%s already at %d instance(s)", endpoint, variant, n))
		return nil
	}
	if err := c.SetDesired(ctx, endpoint, variant, n); err != nil {
		return err
	}
	note(fmt.Sprintf("%s/%s set back to %d instance(s)", endpoint, variant, n))
	return nil
}

// waitCount waits until the variant serves exactly n instances and the endpoint is InService.
func (c *Control) waitCount(ctx context.Context, endpoint, variant string, n int, timeout time.Duration, onProgress func(Progress)) error {
	start := time.Now()
	var (
		info *EndpointInfo
		v    VariantInfo
	)
	err := ctxtime.PollUntil(ctx, c.poll(), start.Add(timeout), func() (bool, error) {
		var err error
		if info, err = c.endpointStatus(ctx, endpoint); err != nil {
			return false, err
		}
		var ok bool
		if v, ok = info.Variant(variant); !ok {
			return false, noVariant(info, variant)
		}
		if onProgress != nil {
			onProgress(Progress{Endpoint: endpoint, Status: info.Status, Current: v.Current, Desired: v.Desired, Elapsed: time.Since(start)})
		}
		if info.Status == StatusInService && v.Current == n {
			return true, nil
		}
		if info.Status == StatusFailed {
			return false, notInService(endpoint, info.Status, info.FailureReason)
		}
		return false, nil
	})
	if errors.Is(err, ctxtime.ErrDeadline) {
		return fmt.Errorf("endpoint %s did not reach %d instance(s) within %v (now %d, %s)", endpoint, n, timeout, v.Current, info.Status)
	}
	return err
}

// writeState writes the state file atomically (temporary file, fsync, rename) so that a kill
// at any moment leaves either no file or a whole one.
func writeState(path string, st FreezeState) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return fmt.Errorf("state directory: %w", err)
	}
	b, err := json.MarshalIndent(st, "", "  ")
	if err != nil {
		return fmt.Errorf("encode state: %w", err)
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), ".freeze-*.json")
	if err != nil {
		return fmt.Errorf("write state: %w", err)
	}
	_, werr := tmp.Write(append(b, '\n'))
	serr := tmp.Sync()
	cerr := tmp.Close()
	if err := errors.Join(werr, serr, cerr); err != nil {
		os.Remove(tmp.Name())
		return fmt.Errorf("write state: %w", err)
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		os.Remove(tmp.Name())
		return fmt.Errorf("write state: %w", err)
	}
	return nil
}

// ReadState reads a state file written by Freeze.
func ReadState(path string) (FreezeState, error) {
	var st FreezeState
	b, err := os.ReadFile(path)
	if err != nil {
		return st, err
	}
	if err := json.Unmarshal(b, &st); err != nil {
		return st, fmt.Errorf("state file %s: %w", path, err)
	}
	switch {
	case st.Version < 1 || st.Version > FreezeStateVersion:
		return st, fmt.Errorf("state file %s: version %d not supported", path, st.Version)
	case st.Endpoint == "" || st.Variant == "":
		return st, fmt.Errorf("state file %s names no endpoint or variant", path)
	case st.Target != nil && st.Target.ResourceID != ResourceID(st.Endpoint, st.Variant):
		return st, fmt.Errorf("state file %s: scalable target %s is not %s's", path, st.Target.ResourceID, st.Endpoint)
	}
	return st, nil
}

// StateFiles lists the state files in dir, oldest name first.
func StateFiles(dir string) ([]string, error) {
	ents, err := os.ReadDir(dir)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var out []string
	for _, e := range ents {
		if n := e.Name(); !e.IsDir() && strings.HasPrefix(n, "freeze-") && strings.HasSuffix(n, ".json") {
			out = append(out, filepath.Join(dir, n))
		}
	}
	return out, nil
}

// Alive reports whether the process that wrote st still runs on this host. A state file of a
// live run must not be thawed under it: that run restores on its own exit.
func (st FreezeState) Alive() bool {
	host, _ := os.Hostname()
	if st.PID <= 0 || st.PID == os.Getpid() || st.Host != host {
		return false
	}
	return syscall.Kill(st.PID, 0) == nil
}
