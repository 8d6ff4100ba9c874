//go:build !unix

package acpconn

import (
	"os"
	"os/exec"
)

// groupSignal is how an agent is stopped where there are no process
// groups: the process alone is asked, then killed.
type groupSignal int

const (
	terminate groupSignal = iota
	kill
)

// ownGroup does nothing where there are no process groups.
func ownGroup(*exec.Cmd) {}

// signalGroup interrupts or kills p itself.
func signalGroup(p *os.Process, sig groupSignal) {
	if sig == terminate {
		_ = p.Signal(os.Interrupt)
		return
	}
	_ = p.Kill()
}
