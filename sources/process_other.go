//go:build !unix

package sources

// ProcessAlive reports whether process pid runs: this system gives no
// cheap way to ask, so it is LivenessUnknown.
func ProcessAlive(pid int, start string) Liveness { return LivenessUnknown }
