package acpconn

import (
	"fmt"
	"io"
	"os"
	"os/exec"
	"sync"
	"time"
)

// agentProcess is the agent's process and agentwatch's ends of its three
// pipes. The pipes are made here, not by exec, so that waiting for the
// process never waits for its output: a wrapper (`sh -c 'agent; true'`, a
// pipeline, an npx or node launcher) exits or lives on while a child of it
// holds the pipes, and the connection decides when it has ended, not the
// pipes. The agent runs in a process group of its own (where the system
// has them), so that stopping it stops what it started too.
type agentProcess struct {
	cmd    *exec.Cmd
	stdin  *os.File // written to the agent
	stdout *os.File // read from the agent
	stderr *os.File // read from the agent, copied by copyStderr

	stderrCopied chan struct{} // the copy of its standard error ended
	exited       chan struct{} // the process exited; err is set
	err          error

	closeOnce sync.Once
}

// startProcess runs command in dir, its standard error copied to stderr.
func startProcess(command []string, dir string, stderr io.Writer) (*agentProcess, error) {
	cmd := exec.Command(command[0], command[1:]...)
	cmd.Dir = dir
	ownGroup(cmd)
	var theirs []*os.File // the child's ends, closed here once it has them
	defer func() {
		for _, f := range theirs {
			f.Close()
		}
	}()
	p := &agentProcess{cmd: cmd, stderrCopied: make(chan struct{}), exited: make(chan struct{})}
	var err error
	var in, out, errOut *os.File
	if in, p.stdin, err = os.Pipe(); err == nil {
		theirs = append(theirs, in)
		if p.stdout, out, err = os.Pipe(); err == nil {
			theirs = append(theirs, out)
			if p.stderr, errOut, err = os.Pipe(); err == nil {
				theirs = append(theirs, errOut)
			}
		}
	}
	if err == nil {
		cmd.Stdin, cmd.Stdout, cmd.Stderr = in, out, errOut
		err = cmd.Start() // it names the command: "fork/exec /no/agent: no such file or directory"
	}
	if err != nil {
		p.closePipes()
		return nil, err
	}
	go func() {
		io.Copy(stderr, p.stderr)
		close(p.stderrCopied)
	}()
	go func() {
		p.err = cmd.Wait()
		close(p.exited)
	}()
	return p, nil
}

// closePipes closes agentwatch's ends of the pipes, once: a read of the
// agent's output then ends, and so does the connection.
func (p *agentProcess) closePipes() {
	p.closeOnce.Do(func() {
		for _, f := range []*os.File{p.stdin, p.stdout, p.stderr} {
			if f != nil {
				f.Close()
			}
		}
	})
}

// Bounds of the steps that end an agent (stop): each step waits this long
// for the session to end before the next is taken.
const (
	// eofGrace is how long an agent has to exit once its input ended,
	// which is how ACP agents are asked to; it saves its session meanwhile.
	eofGrace = 2 * time.Second
	// signalGrace is how long it has after each signal.
	signalGrace = time.Second
)

// stop ends the agent step by step until ended is closed: its input is
// closed (an agent exits when its input ends), then its process group is
// sent SIGTERM, then SIGKILL; last, agentwatch closes its own ends of the
// pipes, so that a process that left the group and holds them cannot hold
// the session open. It returns whether ended closed.
func (p *agentProcess) stop(ended <-chan struct{}) bool {
	steps := []struct {
		do   func()
		wait time.Duration
	}{
		{func() { p.stdin.Close() }, eofGrace},
		{func() { signalGroup(p.cmd.Process, terminate) }, signalGrace},
		{func() { signalGroup(p.cmd.Process, kill) }, signalGrace},
		{p.closePipes, signalGrace},
	}
	for _, s := range steps {
		select {
		case <-ended:
			return true
		default:
		}
		s.do()
		select {
		case <-ended:
			return true
		case <-time.After(s.wait):
		}
	}
	select {
	case <-ended:
		return true
	default:
		return false
	}
}

// finish waits for the copy of the agent's standard error, at most
// signalGrace (a child that outlived it may hold the pipe), and closes the
// pipes; call it once the process exited and the connection ended.
func (p *agentProcess) finish() {
	select {
	case <-p.stderrCopied:
	case <-time.After(signalGrace):
	}
	p.closePipes()
	<-p.stderrCopied
}

// errNotEnded says an agent could not be stopped.
func errNotEnded(p *agentProcess) error {
	return fmt.Errorf("the agent (process %d) did not end, even killed", p.cmd.Process.Pid)
}
