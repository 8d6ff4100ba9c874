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
// the same. When start is given (Claude Code's procStart) and the system
// says when pid started (Linux), a process that started at another time
// is a reused pid: Dead.
func ProcessAlive(pid int, start string) Liveness {
	if pid <= 0 {
		return Dead
	}
	err := syscall.Kill(pid, 0)
	if err != nil && !errors.Is(err, syscall.EPERM) {
		return Dead
	}
	if start != "" {
		if got, ok := procStart(pid); ok && got != start {
			return Dead
		}
	}
	return Alive
}

// procStart is the start time of process pid as /proc/<pid>/stat gives it
// (its 22nd field, in clock ticks since boot); false where there is no
// /proc.
func procStart(pid int) (string, bool) {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return "", false
	}
	s := string(b)
	// The command name, field 2, is in parentheses and may hold spaces.
	i := strings.LastIndexByte(s, ')')
	if i < 0 {
		return "", false
	}
	f := strings.Fields(s[i+1:]) // from field 3 on
	if len(f) < 20 {
		return "", false
	}
	return f[19], true
}
