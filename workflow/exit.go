package workflow

import "errors"

// ExitError carries a specific process exit status: 1 for a plan with a STOP finding, drift
// or a failed validation; 130 for a run ended by an interrupt.
type ExitError struct {
	Code int
	Err  error
}

func (e *ExitError) Error() string { return e.Err.Error() }
func (e *ExitError) Unwrap() error { return e.Err }

// ErrUsage marks an error in how a command was called (a flag's value, a missing argument).
var ErrUsage = errors.New("usage")
