//go:build unix

package acpconn

import (
	"os"
	"os/exec"
	"syscall"
)

// The signals that stop an agent's process group.
const (
	terminate = syscall.SIGTERM
	kill      = syscall.SIGKILL
)

// ownGroup makes cmd the leader of a new process group, which then holds
// everything it starts (unless that leaves on purpose). A Ctrl-C typed at
// the terminal then reaches agentwatch alone, which ends the agent itself.
func ownGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
}

// signalGroup sends sig to p's process group; the group outlives its
// leader while a member is left.
func signalGroup(p *os.Process, sig syscall.Signal) {
	_ = syscall.Kill(-p.Pid, sig)
}
