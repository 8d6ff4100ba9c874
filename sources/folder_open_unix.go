//go:build unix

package sources

import "syscall"

// defaultMaxOpen is how many files a followed folder holds open at once:
// half of what the process may open (its soft RLIMIT_NOFILE), leaving the
// rest to the screen, the watcher and the reads of files' heads, and at
// most 4,096.
func defaultMaxOpen() int {
	var lim syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_NOFILE, &lim); err != nil || lim.Cur == 0 {
		return 128
	}
	return int(max(8, min(lim.Cur/2, 4096)))
}
