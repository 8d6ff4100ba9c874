package sources

import (
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"testing"
	"unsafe"
)

// TestReadCodexLocks holds one thread's lock as Codex does (flock) and
// leaves another's file unlocked, as Codex leaves it when it lets the
// thread go: only the held one is open. testdata's lock is such a file
// left behind.
func TestReadCodexLocks(t *testing.T) {
	dir := t.TempDir()
	for _, name := range []string{"held.lock", "left.lock", ".coordination.lock", "notes.txt"} {
		if err := os.WriteFile(filepath.Join(dir, name), nil, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	f, err := os.Open(filepath.Join(dir, "held.lock"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		t.Fatal(err)
	}
	got, err := ReadCodexLocks(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 1 || !got["held"] {
		t.Fatalf("open threads %v, want held alone", got)
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_UN); err != nil {
		t.Fatal(err)
	}
	if got, err := ReadCodexLocks(dir); err != nil || len(got) != 0 {
		t.Fatalf("after unlocking: %v, %v", got, err)
	}
	if got, err := ReadCodexLocks(filepath.Join("..", "testdata", "codex", "thread-writer-locks")); err != nil || len(got) != 0 {
		t.Fatalf("testdata's lock left behind: %v, %v", got, err)
	}
}

// TestProcessAliveZombie: a process that exited but that its parent has
// not waited for yet still answers the signal 0; it is dead all the same.
func TestProcessAliveZombie(t *testing.T) {
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(exe, "-test.run=^$")
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	pid := cmd.Process.Pid
	defer cmd.Wait()
	// Wait for the exit without reaping it (waitid with WNOWAIT).
	const pPID, wExited, wNoWait = 1, 4, 0x1000000
	var info [128]byte
	if _, _, errno := syscall.Syscall6(syscall.SYS_WAITID, pPID, uintptr(pid), uintptr(unsafe.Pointer(&info[0])), wExited|wNoWait, 0, 0); errno != 0 {
		t.Fatal(errno)
	}
	if err := syscall.Kill(pid, 0); err != nil {
		t.Skipf("the zombie does not answer the signal: %v", err)
	}
	if got := ProcessAlive(pid, ""); got != Dead {
		t.Errorf("a zombie: %v, want dead", got)
	}
}
