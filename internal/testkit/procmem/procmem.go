// Package procmem reads a process's memory figures from /proc, for the
// benchmarks that hold agentwatch to its memory budgets (Linux only).
package procmem

import (
	"fmt"
	"os"
	"strconv"
	"strings"
)

// Field returns a memory field of /proc/PID/status in bytes: "VmHWM" (the
// peak resident set) or "VmRSS" (the resident set now). pid "self" is the
// calling process.
func Field(pid, name string) (int64, error) {
	b, err := os.ReadFile("/proc/" + pid + "/status")
	if err != nil {
		return 0, err
	}
	for line := range strings.SplitSeq(string(b), "\n") {
		v, ok := strings.CutPrefix(line, name+":")
		if !ok {
			continue
		}
		kb, err := strconv.ParseInt(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(v), "kB")), 10, 64)
		if err != nil {
			return 0, fmt.Errorf("%s in /proc/%s/status: %w", name, pid, err)
		}
		return kb << 10, nil
	}
	return 0, fmt.Errorf("no %s in /proc/%s/status", name, pid)
}
