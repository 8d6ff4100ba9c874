package app

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// fakeTool writes an executable named name into dir that keeps its
// standard input in dir/name.got, or fails with a message when fail.
func fakeTool(t *testing.T, dir, name string, fail bool) {
	t.Helper()
	script := "#!/bin/sh\ncat > \"$(dirname \"$0\")/" + name + ".got\"\n"
	if fail {
		script = "#!/bin/sh\necho \"Error: Can't open display\" >&2\nexit 1\n"
	}
	if err := os.WriteFile(filepath.Join(dir, name), []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
}

// The copy goes through the first tool the machine has and can use: not a
// desktop's tool without its display, tmux's buffer inside tmux; none at
// all leaves the terminal to it (nil). A tool that fails says why.
func TestClipboardTools(t *testing.T) {
	dir := t.TempDir()
	for _, name := range []string{"wl-copy", "xclip", "tmux"} {
		fakeTool(t, dir, name, false)
	}
	look := func(name string) (string, error) { return exec.LookPath(filepath.Join(dir, name)) }
	env := func(vars map[string]string) func(string) string { return func(k string) string { return vars[k] } }

	for _, tc := range []struct {
		env       map[string]string
		tool, how string
	}{
		{map[string]string{"WAYLAND_DISPLAY": "wayland-0", "DISPLAY": ":0"}, "wl-copy", "with wl-copy"},
		{map[string]string{"DISPLAY": ":0"}, "xclip", "with xclip"},
		{map[string]string{"TMUX": "/tmp/tmux-0/default,1,0"}, "tmux", "to tmux's buffer"},
	} {
		clip := Clipboard(env(tc.env), look)
		if clip == nil {
			t.Fatalf("%v: no tool", tc.env)
		}
		how, err := clip("go test ./...")
		if err != nil || how != tc.how {
			t.Fatalf("%v: %q, %v; want %q", tc.env, how, err, tc.how)
		}
		got, err := os.ReadFile(filepath.Join(dir, tc.tool+".got"))
		if err != nil || string(got) != "go test ./..." {
			t.Fatalf("%s got %q (%v)", tc.tool, got, err)
		}
	}
	if clip := Clipboard(env(map[string]string{"SSH_CONNECTION": "1.2.3.4 5 6.7.8.9 22"}), look); clip != nil {
		t.Error("a machine with no display and no tmux has a clipboard tool")
	}
	broken := t.TempDir()
	fakeTool(t, broken, "xclip", true)
	clip := Clipboard(env(map[string]string{"DISPLAY": ":0"}), func(name string) (string, error) { return exec.LookPath(filepath.Join(broken, name)) })
	if _, err := clip("x"); err == nil || !strings.Contains(err.Error(), "xclip") || !strings.Contains(err.Error(), "Can't open display") {
		t.Fatalf("a failing tool says %v", err)
	}
}
