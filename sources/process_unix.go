//go:build unix

package sources

import (
	"errors"
	"os"
	"strconv"
	"strings"
	"syscall"
)

// ProcessAlive reports whether process pid runs. A signal 0 asks without
// sending anything; a process of another user that refuses it runs all
// the same. Where the system says more (Linux's /proc), a process that
// exited but was not yet waited for (a zombie) is Dead, and so is one
// that started at another time than start says when it is given (Claude
// Code's procStart): a reused pid.
func ProcessAlive(pid int, start string) Liveness {
	if pid <= 0 {
		return Dead
	}
	err := syscall.Kill(pid, 0)
	if err != nil && !errors.Is(err, syscall.EPERM) {
		return Dead
	}
	f, ok := procStat(pid)
	switch {
	case !ok:
		return Alive // no /proc: the signal is all there is to ask
	case f[0] == "Z" || f[0] == "X":
		return Dead // exited, not yet waited for by its parent
	case start != "" && f[19] != start:
		return Dead
	}
	return Alive
}

// procStart is the start time of process pid as /proc/<pid>/stat gives it
// (its 22nd field, in clock ticks since boot); false where there is no
// /proc.
func procStart(pid int) (string, bool) {
	f, ok := procStat(pid)
	if !ok {
		return "", false
	}
	return f[19], true
}

// procStat is /proc/<pid>/stat's fields from the third on (the state,
// then the parent's pid, …); false where there is no /proc or it cannot
// be read.
func procStat(pid int) ([]string, bool) {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return nil, false
	}
	s := string(b)
	// The command name, field 2, is in parentheses and may hold spaces.
	i := strings.LastIndexByte(s, ')')
	if i < 0 {
		return nil, false
	}
	f := strings.Fields(s[i+1:])
	if len(f) < 20 {
		return nil, false
	}
	return f, true
}
