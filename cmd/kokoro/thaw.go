package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"sync"
	"syscall"
	"time"

	"github.com/spf13/cobra"

	"github.com/kokoro-sm/kokoro/sagemaker"
)

// stateDir is where freezes keep their state files: --state-dir, else KOKORO_STATE_DIR, else
// $XDG_STATE_HOME/kokoro or ~/.local/state/kokoro.
func stateDir(flag string) string {
	if flag != "" {
		return flag
	}
	if d := os.Getenv("KOKORO_STATE_DIR"); d != "" {
		return d
	}
	return sagemaker.DefaultStateDir(os.Getenv)
}

func newThawCmd() *cobra.Command {
	var (
		a                 awsFlags
		endpoint, variant string
		state, dir        string
		force, dryRun     bool
	)
	cmd := &cobra.Command{
		Use:   "thaw [--endpoint NAME | --state FILE]",
		Short: "Restore the autoscaling and instance count a killed bench run left frozen",
		Long: `A bench run against an endpoint records the scalable target, its policies and the instance
count in a state file before it suspends scaling and pins the count, and restores them when it
ends. If it was killed (SIGKILL, a crash, a closed laptop) the state file stays behind, and thaw
puts back exactly what it recorded, then removes it. Without --endpoint or --state it thaws every
state file in the state directory. It refuses a state file whose run is still alive (that run
restores on its own exit) unless --force. --dry-run reads what is deployed and prints the calls a
thaw would make, each with the fields it changes, and keeps the state files.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			ctx := cmd.Context()
			out := cmd.OutOrStdout()
			d := stateDir(dir)
			var files []string
			switch {
			case state != "":
				files = []string{state}
			case endpoint != "":
				c, err := a.control(ctx)
				if err != nil {
					return err
				}
				files = []string{sagemaker.StatePath(d, c.Region, endpoint, variant)}
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
				if dryRun {
					if err := thawDryRun(ctx, out, a, st, file, force); err != nil {
						errs = append(errs, err)
					}
					continue
				}
				if st.Alive() && !force {
					errs = append(errs, fmt.Errorf("%s: the run that froze %s (pid %d) is still running and restores on exit; stop it with Ctrl-C, or pass --force", file, st.Endpoint, st.PID))
					continue
				}
				o := a.options()
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
		},
	}
	fl := cmd.Flags()
	a.add(fl, "")
	fl.StringVar(&endpoint, "endpoint", "", "endpoint whose freeze to undo")
	fl.StringVar(&variant, "variant", sagemaker.DefaultVariant, "production variant")
	fl.StringVar(&state, "state", "", "state file to restore from")
	fl.StringVar(&dir, "state-dir", "", "directory of state files (default: KOKORO_STATE_DIR, $XDG_STATE_HOME/kokoro or ~/.local/state/kokoro)")
	fl.BoolVar(&force, "force", false, "thaw even when the run that froze it looks alive")
	fl.BoolVar(&dryRun, "dry-run", false, "read what is deployed and print the calls a thaw would make; change nothing, keep the state files")
	return cmd
}

// thawDryRun prints what thawing st would call, one readable line per call.
func thawDryRun(ctx context.Context, out io.Writer, a awsFlags, st sagemaker.FreezeState, file string, force bool) error {
	if st.Alive() && !force {
		fmt.Fprintf(out, "dry run: %s: the run that froze %s (pid %d) is still running and restores on exit; thaw would refuse it without --force\n", file, st.Endpoint, st.PID)
	}
	o := a.options()
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

// lockedWriter serialises writes to a writer shared with the signal handler's goroutine.
type lockedWriter struct {
	mu *sync.Mutex
	w  io.Writer
}

func (l lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}

// lockedPair wraps a command's output and error writers under one lock: they may be the same
// writer, and interruptContext writes from a goroutine of its own.
func lockedPair(out, errw io.Writer) (io.Writer, io.Writer) {
	mu := &sync.Mutex{}
	return lockedWriter{mu, out}, lockedWriter{mu, errw}
}

// interruptContext is cancelled by the first SIGINT or SIGTERM, so the command stops and
// restores what it changed. Later signals do not kill the process mid-restore: they print
// where the state is kept, so a user who must leave knows how to finish the restore.
func interruptContext(parent context.Context, w io.Writer, stateFile func() string) (context.Context, func()) {
	ctx, cancel := context.WithCancel(parent)
	sig := make(chan os.Signal, 2)
	signal.Notify(sig, os.Interrupt, syscall.SIGTERM)
	done, finished := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(finished)
		n := 0
		for {
			select {
			case <-done:
				return
			case <-sig:
				n++
				if n == 1 {
					fmt.Fprintln(w, "\ninterrupted: stopping and restoring the endpoint's scaling…")
					cancel()
					continue
				}
				msg := "still restoring the endpoint's scaling; it is bounded and will finish"
				if f := stateFile(); f != "" {
					msg += "; if this process is killed, `kokoro thaw --state " + f + "` completes it"
				}
				fmt.Fprintln(w, msg)
			}
		}
	}()
	return ctx, func() {
		signal.Stop(sig)
		close(done)
		<-finished // nothing is written after the command has returned
		cancel()
	}
}
