package cli

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/agentwatch/agentwatch/internal/testkit/acptest"
)

// notRegular makes, in dir, each kind of path no output may go to: a
// named pipe, a device (a copy of /dev/null's numbers, made only as root,
// so a wrong rename replaces nothing real), a folder, and links to them.
func notRegular(t *testing.T, dir string) []string {
	t.Helper()
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	sub := filepath.Join(dir, "sub")
	os.Mkdir(sub, 0o700)
	paths := []string{fifo, sub}
	link := func(name, target string) {
		p := filepath.Join(dir, name)
		if err := os.Symlink(target, p); err != nil {
			t.Fatal(err)
		}
		paths = append(paths, p)
	}
	link("to-fifo", fifo)
	link("to-sub", sub)
	link("to-nothing", filepath.Join(dir, "nothing"))
	dev := filepath.Join(dir, "null")
	if err := syscall.Mknod(dev, syscall.S_IFCHR|0o666, 1<<8|3); err == nil {
		paths = append(paths, dev)
		link("to-null", dev)
	}
	return paths
}

// kindOf is what a path is, to tell a refusal left it alone.
func kindOf(p string) string {
	st, err := os.Lstat(p)
	if err != nil {
		return "missing"
	}
	return st.Mode().Type().String()
}

// Every file agentwatch writes (compact -o, --record, --record --append,
// acp --record, acp --stderr-log) refuses a named pipe, a device, a folder
// and a link to one, by name and with exit 2, leaving it as it was.
func TestOutputPathsRefuseNonRegular(t *testing.T) {
	sample := "../testdata/peer/samples/full.json"
	bin := acptest.Build(t)
	for _, cmd := range []struct {
		name string
		args func(path, dir string) []string
	}{
		{"compact -o", func(p, _ string) []string { return []string{"compact", "-o", p, sample} }},
		{"--record", func(p, _ string) []string { return []string{"--plain", "--record", p, sample} }},
		{"--record --append", func(p, _ string) []string { return []string{"--plain", "--record", p, "--append", sample} }},
		{"acp --record", func(p, dir string) []string {
			return []string{"acp", "--cwd", dir, "--stderr-log", filepath.Join(dir, "agent.log"), "--plain", "--record", p, "--prompt", "hi", "--", bin}
		}},
		{"acp --stderr-log", func(p, dir string) []string {
			return []string{"acp", "--cwd", dir, "--stderr-log", p, "--plain", "--prompt", "hi", "--", bin}
		}},
	} {
		t.Run(cmd.name, func(t *testing.T) {
			dir := t.TempDir()
			for _, p := range notRegular(t, dir) {
				before := kindOf(p)
				code, _, errOut := runCLI(t, nil, cmd.args(p, dir)...)
				if code != exitUnreadable || !strings.Contains(errOut, p) || !strings.Contains(errOut, "not a regular file") {
					t.Errorf("%s: exit %d, stderr %q; want 2 and a refusal naming it", p, code, errOut)
				}
				if after := kindOf(p); after != before {
					t.Errorf("%s was %s and is now %s", p, before, after)
				}
			}
		})
	}
}

// A link to a regular file is written through: compact -o replaces the
// file it leads to and --record --append adds to it; the link stays a link.
func TestOutputThroughLink(t *testing.T) {
	dir := t.TempDir()
	target := filepath.Join(dir, "target.json")
	os.WriteFile(target, []byte("[]"), 0o640)
	link := filepath.Join(dir, "link.json")
	if err := os.Symlink("target.json", link); err != nil {
		t.Fatal(err)
	}
	if code, _, errOut := runCLI(t, nil, "compact", "-o", link, "../testdata/peer/samples/full.json"); code != 0 {
		t.Fatalf("compact -o link: exit %d, %s", code, errOut)
	}
	if st, err := os.Lstat(link); err != nil || st.Mode()&fs.ModeSymlink == 0 {
		t.Fatalf("the link was replaced: %v %v", st.Mode(), err)
	}
	st, _ := os.Stat(target)
	if st.Mode().Perm() != 0o640 {
		t.Errorf("the replaced file's mode is %v, was 0640", st.Mode().Perm())
	}
	compacted, _ := os.ReadFile(target)
	if code, _, errOut := runCLI(t, nil, "--plain", "--record", link, "--append", "../testdata/peer/samples/full.json"); code != 0 {
		t.Fatalf("--record link --append: exit %d, %s", code, errOut)
	}
	if after, _ := os.ReadFile(target); len(after) <= len(compacted) {
		t.Errorf("--append through the link added nothing to the file")
	}
}

// Recordings hold what agents saw and said: whatever the protocol, a new
// one is readable by its owner only. So is a new compacted log.
func TestRecordingsArePrivate(t *testing.T) {
	dir := t.TempDir()
	agui := filepath.Join(dir, "agui.json")
	if code, _, errOut := runCLI(t, nil, "--plain", "--record", agui, "../testdata/peer/samples/full.json"); code != 0 {
		t.Fatalf("--record: exit %d, %s", code, errOut)
	}
	compacted := filepath.Join(dir, "compact.json")
	if code, _, errOut := runCLI(t, nil, "compact", "-o", compacted, "../testdata/peer/samples/full.json"); code != 0 {
		t.Fatalf("compact -o: exit %d, %s", code, errOut)
	}
	acp := filepath.Join(dir, "acp.jsonl")
	if code, out, errOut, _ := acpRun(t, nil, "--plain", "--record", acp, "--prompt", "hi"); code != 0 {
		t.Fatalf("acp --record: exit %d\n%s\n%s", code, out, errOut)
	}
	for _, p := range []string{agui, compacted, acp} {
		st, err := os.Stat(p)
		if err != nil {
			t.Fatal(err)
		}
		if st.Mode().Perm() != 0o600 {
			t.Errorf("%s has mode %v, want 0600", filepath.Base(p), st.Mode().Perm())
		}
	}
}
