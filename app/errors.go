package app

// InputError is a failure the user fixes by changing the command line or
// the input: a file that cannot be read, a flag value out of range, a
// recording that cannot be written. The command line exits 2 on it.
type InputError struct{ Err error }

func (e *InputError) Error() string { return e.Err.Error() }
func (e *InputError) Unwrap() error { return e.Err }

// BadInput wraps err as an InputError (nil stays nil).
func BadInput(err error) error {
	if err == nil {
		return nil
	}
	return &InputError{Err: err}
}

// ProblemsError says the work was done and found problems: a log that
// breaks protocol rules, a log that could not be compacted, an agent turn
// that did not end well. The command line exits 1 on it. Err is nil when
// the problems were already printed.
type ProblemsError struct{ Err error }

func (e *ProblemsError) Error() string {
	if e.Err == nil {
		return ""
	}
	return e.Err.Error()
}
func (e *ProblemsError) Unwrap() error { return e.Err }
