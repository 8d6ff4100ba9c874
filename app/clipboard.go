package app

// This file copies text to the clipboard of the machine the screen runs
// on, with the tool that machine has: the terminal's own way (OSC 52)
// does not reach it everywhere (tmux drops it unless told to pass it on,
// many terminals ignore it), and a screen that says "copied" must have.

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"runtime"
	"strings"
	"time"
)

// clipboardTool is a program that puts its standard input on a clipboard,
// and when it can be used.
type clipboardTool struct {
	// name is how the screen says it copied ("with wl-copy").
	name string
	args []string
	// needs is the environment variable that must be set for the tool to
	// reach a clipboard ("" for none).
	needs string
	// os is the only system it is for ("" for any).
	os string
}

// clipboardTools are tried in order: the desktop's own tools, then tmux's
// buffer (which tmux also hands to the terminal where it can).
var clipboardTools = []clipboardTool{
	{name: "pbcopy", args: []string{"pbcopy"}, os: "darwin"},
	{name: "wl-copy", args: []string{"wl-copy"}, needs: "WAYLAND_DISPLAY"},
	{name: "xclip", args: []string{"xclip", "-selection", "clipboard", "-in"}, needs: "DISPLAY"},
	{name: "xsel", args: []string{"xsel", "--clipboard", "--input"}, needs: "DISPLAY"},
	{name: "tmux's buffer", args: []string{"tmux", "load-buffer", "-w", "-"}, needs: "TMUX"},
}

// clipboardWait bounds how long a tool may take: one that hangs must not
// leave the person waiting for a word.
const clipboardWait = 3 * time.Second

// Clipboard returns how the screen copies text on this machine: the first
// tool of clipboardTools it has and can use, which answers how it copied
// ("with wl-copy", "to tmux's buffer"), or nil when there is none, and the
// screen asks the terminal instead (OSC 52). getenv and lookPath are
// os.Getenv and exec.LookPath outside tests.
func Clipboard(getenv func(string) string, lookPath func(string) (string, error)) func(text string) (string, error) {
	for _, t := range clipboardTools {
		if t.os != "" && t.os != runtime.GOOS || t.needs != "" && getenv(t.needs) == "" {
			continue
		}
		path, err := lookPath(t.args[0])
		if err != nil {
			continue
		}
		return func(text string) (string, error) {
			ctx, cancel := context.WithTimeout(context.Background(), clipboardWait)
			defer cancel()
			cmd := exec.CommandContext(ctx, path, t.args[1:]...)
			cmd.Stdin = strings.NewReader(text)
			var stderr bytes.Buffer
			cmd.Stderr = &stderr
			// A tool that keeps the selection (xclip) stays behind in the
			// background with its own copy of the pipes: wait for the one
			// that was started, not for them to close.
			cmd.WaitDelay = 100 * time.Millisecond
			err := cmd.Run()
			if errors.Is(err, exec.ErrWaitDelay) {
				err = nil
			}
			how := "with " + t.name
			if t.needs == "TMUX" {
				how = "to " + t.name
			}
			if err != nil {
				if msg := strings.TrimSpace(stderr.String()); msg != "" {
					err = fmt.Errorf("%w: %s", err, firstLine(msg))
				}
				return "", fmt.Errorf("%s: %w", t.name, err)
			}
			return how, nil
		}
	}
	return nil
}

// localClipboard is Clipboard for the machine agentwatch runs on.
func localClipboard() func(string) (string, error) { return Clipboard(os.Getenv, exec.LookPath) }

// firstLine is s up to its first line break.
func firstLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i]
	}
	return s
}
