//go:build linux

package sources

import (
	"bufio"
	"io/fs"
	"os"
	"strconv"
	"strings"
	"syscall"
)

// heldLocks reads the system's table of file locks (/proc/locks) and
// returns whether a file is locked by some process: its device and inode
// are in the table. Nothing is locked or opened to ask, so the agent that
// holds or takes a lock is never in the way of this look. nil when the
// table cannot be read.
func heldLocks() func(fs.FileInfo) bool {
	f, err := os.Open("/proc/locks")
	if err != nil {
		return nil
	}
	defer f.Close()
	held := map[string]bool{} // "major:minor:inode", as the table writes it
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		// "1: FLOCK  ADVISORY  WRITE 1234 08:01:5678 0 EOF"; a blocked
		// waiter's line has "->" after the number.
		fields := strings.Fields(sc.Text())
		for i, fl := range fields {
			if strings.Count(fl, ":") == 2 && i >= 4 {
				held[fl] = true
				break
			}
		}
	}
	return func(info fs.FileInfo) bool {
		st, ok := info.Sys().(*syscall.Stat_t)
		if !ok {
			return true
		}
		dev := uint64(st.Dev)
		major := (dev>>8)&0xfff | (dev>>32)&^uint64(0xfff)
		minor := dev&0xff | (dev>>12)&^uint64(0xff)
		// The table writes the device numbers in hex, two digits at least.
		return held[pad2(strconv.FormatUint(major, 16))+":"+pad2(strconv.FormatUint(minor, 16))+":"+strconv.FormatUint(st.Ino, 10)]
	}
}

// pad2 is a hex number written with two digits at least.
func pad2(s string) string {
	if len(s) < 2 {
		return "0" + s
	}
	return s
}
