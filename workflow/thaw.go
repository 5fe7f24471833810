package workflow

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/kokoro-sm/kokoro/sagemaker"
)

// stateDir is where freezes keep their state files: --state-dir, else KOKORO_STATE_DIR, else
// $XDG_STATE_HOME/kokoro or ~/.local/state/kokoro.
func stateDir(flag string) string {
	if flag != "" {
		return flag
	}
	if d := os.Getenv(LookupSetting("state-dir").Env); d != "" {
		return d
	}
	return sagemaker.DefaultStateDir(os.Getenv)
}

// Thaw is `kokoro thaw`: the autoscaling and instance count a killed bench run left frozen,
// restored from its state file (State), the endpoint's (Endpoint), or every one in Dir.
type Thaw struct {
	AWS               AWS
	Endpoint, Variant string
	State, Dir        string
	Force, DryRun     bool
}

// NewThaw returns a Thaw of the default variant.
func NewThaw() Thaw { return Thaw{Variant: sagemaker.DefaultVariant} }

// Run restores each state file and removes it, or with DryRun prints the calls it would make.
func (f Thaw) Run(ctx context.Context, out io.Writer) error {
	d := stateDir(f.Dir)
	var files []string
	switch {
	case f.State != "":
		files = []string{f.State}
	case f.Endpoint != "":
		c, err := f.AWS.Control(ctx)
		if err != nil {
			return err
		}
		files = []string{sagemaker.StatePath(d, c.Region, f.Endpoint, f.Variant)}
	default:
		var err error
		if files, err = sagemaker.StateFiles(d); err != nil {
			return err
		}
	}
	var errs []error
	thawed := 0
	for _, file := range files {
		st, err := sagemaker.ReadState(file)
		if errors.Is(err, os.ErrNotExist) {
			fmt.Fprintf(out, "nothing to thaw: no state file %s\n", file)
			continue
		}
		if err != nil {
			errs = append(errs, err)
			continue
		}
		if f.DryRun {
			if err := thawDryRun(ctx, out, f.AWS, st, file, f.Force); err != nil {
				errs = append(errs, err)
			}
			continue
		}
		if st.Alive() && !f.Force {
			errs = append(errs, fmt.Errorf("%s: the run that froze %s (pid %d) is still running and restores on exit; stop it with Ctrl-C, or pass --force", file, st.Endpoint, st.PID))
			continue
		}
		o := f.AWS.Options()
		if o.Region == "" {
			o.Region = st.Region
		}
		c, err := controlFor(ctx, o)
		if err != nil {
			return err
		}
		if err := c.Restore(ctx, st, func(s string) { fmt.Fprintln(out, s) }); err != nil {
			errs = append(errs, fmt.Errorf("thaw %s: %w (state kept in %s)", st.Endpoint, err, file))
			continue
		}
		if err := os.Remove(file); err != nil {
			errs = append(errs, err)
			continue
		}
		thawed++
		fmt.Fprintf(out, "thawed %s/%s as recorded at %s\n", st.Endpoint, st.Variant, st.Created.Format(time.RFC3339))
	}
	if len(files) == 0 {
		fmt.Fprintf(out, "nothing to thaw: no state files in %s\n", d)
	}
	return errors.Join(errs...)
}

// thawDryRun prints what thawing st would call, one readable line per call.
func thawDryRun(ctx context.Context, out io.Writer, a AWS, st sagemaker.FreezeState, file string, force bool) error {
	if st.Alive() && !force {
		fmt.Fprintf(out, "dry run: %s: the run that froze %s (pid %d) is still running and restores on exit; thaw would refuse it without --force\n", file, st.Endpoint, st.PID)
	}
	o := a.Options()
	if o.Region == "" {
		o.Region = st.Region
	}
	c, err := controlFor(ctx, o)
	if err != nil {
		return err
	}
	calls, err := c.PlanRestore(ctx, st)
	if err != nil {
		return fmt.Errorf("thaw %s: %w", st.Endpoint, err)
	}
	if len(calls) == 0 {
		fmt.Fprintf(out, "dry run: %s/%s is already as recorded at %s: a thaw would only remove %s\n", st.Endpoint, st.Variant, st.Created.Format(time.RFC3339), file)
		return nil
	}
	for _, call := range calls {
		fmt.Fprintf(out, "would call %s\n", call)
	}
	fmt.Fprintf(out, "dry run: %d call(s) would restore %s/%s as recorded at %s, then remove %s; nothing was changed\n", len(calls), st.Endpoint, st.Variant, st.Created.Format(time.RFC3339), file)
	return nil
}
