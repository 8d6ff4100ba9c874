package cli

import (
	"bytes"
	"context"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/agentwatch/agentwatch/app"
	"github.com/agentwatch/agentwatch/fold"
	"github.com/agentwatch/agentwatch/internal/testkit/otlptest"
	"github.com/agentwatch/agentwatch/internal/testkit/syncbuf"
	"github.com/agentwatch/agentwatch/model"
	"github.com/agentwatch/agentwatch/sources"
)

// otlpLines are the Collector file's lines, each with its newline.
func otlpLines(t *testing.T) [][]byte {
	t.Helper()
	b, err := os.ReadFile(otlpFile)
	if err != nil {
		t.Fatal(err)
	}
	return bytes.SplitAfter(bytes.TrimSpace(b), []byte("\n"))
}

// appendTo appends b to the file at path.
func appendTo(t *testing.T, path string, b []byte) {
	t.Helper()
	f, err := os.OpenFile(path, os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o600)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.Write(b); err != nil {
		t.Fatal(err)
	}
	if !bytes.HasSuffix(b, []byte("\n")) {
		f.Write([]byte("\n"))
	}
	f.Close()
}

// agentwatch tail on an OTLP file the Collector is still writing (not
// there yet when the tail starts) shows each line's telemetry as the line
// is written, before the next one comes.
func TestOTLPTailGrowing(t *testing.T) {
	lines := otlpLines(t)
	path := filepath.Join(t.TempDir(), "telemetry.jsonl")
	out := &syncbuf.Buffer{}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	done := make(chan error, 1)
	go func() { done <- follow(ctx, &app.Options{Plain: true, Stdout: out, Stderr: io.Discard}, path) }()
	appendTo(t, path, lines[0])
	waitFor(t, out, "run prompt-1 started", "you: why does the build fail?", "step 1 execute pending")
	if strings.Contains(out.String(), "fold/fold.go") {
		t.Fatalf("the second line's step before the line was written:\n%s", out.String())
	}
	appendTo(t, path, lines[1])
	waitFor(t, out, "step 2 read completed · Read · fold/fold.go · 40ms", "step 3 edit cancelled · Edit cancelled")
	if strings.Contains(out.String(), "lookup_order") {
		t.Fatalf("the third line's step before the line was written:\n%s", out.String())
	}
	appendTo(t, path, lines[2])
	waitFor(t, out, "step 1 other completed · Used lookup_order · 400ms", "run 4bf92f3577b34da6a3ce929d0e0e4736 completed")
	cancel()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if strings.Contains(out.String(), "problem") {
		t.Errorf("problems:\n%s", out.String())
	}
}

// OTLP on standard input: the headless commands read it as they read the
// file; --plain maps each line as it comes and ends the runs when the
// input ends; a request written out pretty is read too.
func TestOTLPStdin(t *testing.T) {
	b, err := os.ReadFile(otlpFile)
	if err != nil {
		t.Fatal(err)
	}
	for _, cmd := range [][]string{{"fold"}, {"steps"}, {"validate"}, {"threads"}} {
		_, fromFile, _ := runCLI(t, nil, append(cmd, otlpFile)...)
		code, fromStdin, errOut := runCLI(t, b, append(cmd, "-")...)
		if code != 0 || errOut != "" || fields(fromStdin) != fields(strings.ReplaceAll(fromFile, otlpFile, "standard input")) {
			t.Errorf("%s -: exit %d, err %q\n%s\nwant what %s FILE prints:\n%s", cmd[0], code, errOut, fromStdin, cmd[0], fromFile)
		}
	}
	code, out, errOut := runCLI(t, b, "--plain", "-")
	for _, w := range []string{"step 1 other completed · Used lookup_order", "step 3 edit cancelled", "run prompt-1 completed"} {
		if code != 0 || !strings.Contains(out, w) || strings.Contains(out, "problem") {
			t.Fatalf("--plain -: exit %d, err %q, no %q or a problem in\n%s", code, errOut, w, out)
		}
	}
	pretty := bytes.ReplaceAll(otlpLines(t)[1], []byte(`,"`), []byte(",\n  \""))
	code, out, errOut = runCLI(t, pretty, "steps", "-")
	if code != 0 || !strings.Contains(out, "Read · fold/fold.go") {
		t.Errorf("steps - of a pretty request: exit %d, err %q, %q", code, errOut, out)
	}
}

// compact, like every headless command, opens an OTLP file: its AG-UI
// events, compacted, which validate and fold like the file.
func TestOTLPCompact(t *testing.T) {
	code, out, errOut := runCLI(t, nil, "compact", otlpFile)
	if code != 0 || !strings.Contains(out, `"RUN_STARTED"`) {
		t.Fatalf("compact: exit %d, err %q\n%s", code, errOut, out)
	}
	if code, v, _ := runCLI(t, []byte(out), "validate", "-"); code != 0 || v != "" {
		t.Errorf("the compacted log: validate exit %d, %q", code, v)
	}
	_, want, _ := runCLI(t, nil, "steps", otlpFile)
	if _, got, _ := runCLI(t, []byte(out), "steps", "-"); got != want {
		t.Errorf("steps of the compacted log\n%s\nwant\n%s", got, want)
	}
}

// --tool-kinds maps OTLP tools in every path: a file, a folder (read
// whole and followed), standard input, a file followed, a served source
// and the receiver. Read is builtin "read"; the user's file says search.
func TestOTLPToolKindsEverywhere(t *testing.T) {
	dir := t.TempDir()
	kinds := filepath.Join(dir, "kinds.json")
	os.WriteFile(kinds, []byte(`{"Read":{"category":"search","location":"/file_path"},"Bash":"read"}`), 0o600)
	logs := filepath.Join(dir, "logs")
	os.Mkdir(logs, 0o700)
	b, _ := os.ReadFile(otlpFile)
	os.WriteFile(filepath.Join(logs, "telemetry.jsonl"), b, 0o600)
	const want = "2  search  Searched  ·  fold/fold.go"
	for _, args := range [][]string{{otlpFile}, {logs}, {"-"}} {
		code, out, errOut := runCLI(t, b, append([]string{"steps", "--tool-kinds", kinds}, args...)...)
		if code != 0 || !strings.Contains(fields(out), want) {
			t.Errorf("steps %s: exit %d, err %q, no %q in\n%s", args[0], code, errOut, want, out)
		}
	}
	opts := func(out io.Writer) *app.Options {
		return &app.Options{Plain: true, Stdout: out, Stderr: io.Discard, ToolKinds: kinds}
	}
	for _, path := range []string{filepath.Join(logs, "telemetry.jsonl"), logs} {
		out := &syncbuf.Buffer{}
		ctx, cancel := context.WithCancel(context.Background())
		done := make(chan error, 1)
		go func() { done <- follow(ctx, opts(out), path) }()
		waitFor(t, out, "step 2 search completed · Searched · fold/fold.go")
		cancel()
		if err := <-done; err != nil {
			t.Fatal(err)
		}
	}
	// serve reads each source once, as OpenStream opens it.
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	for _, arg := range []string{otlpFile, logs} {
		a := app.New(opts(io.Discard))
		src, err := a.Identify(arg)
		if err != nil {
			t.Fatal(err)
		}
		st, err := a.OpenStream(ctx, src, sources.ConnectOptions{})
		if err != nil {
			t.Fatal(err)
		}
		go func() {
			for range st.Status {
			}
		}()
		fo, _ := a.FoldOptions()
		ts := fold.NewThreads(fo)
		deadline := time.After(20 * time.Second)
	served:
		for {
			select {
			case bt := <-st.Batches:
				ts.Apply(bt.Source, bt.Records...)
				for _, th := range ts.List() {
					for _, s := range th.Fold.Steps() {
						if s.ToolName == "Read" && s.Category == model.CategorySearch {
							break served
						}
					}
				}
			case <-deadline:
				t.Fatalf("serve %s: the Read step never came as a search", arg)
			}
		}
	}
	// The receiver: a Claude Code Bash command is a read here.
	out := &syncbuf.Buffer{}
	addrs := make(chan string, 1)
	rctx, rcancel := context.WithCancel(context.Background())
	defer rcancel()
	done := make(chan error, 1)
	go func() {
		done <- app.New(opts(out)).ReceiveOTLP(rctx, &app.OTLPOptions{HTTP: "127.0.0.1:0", Ready: func(h, _ string) { addrs <- h }})
	}()
	cl, err := otlptest.New(rctx, otlptest.HTTP, <-addrs, "", "claude-code", "laptop")
	if err != nil {
		t.Fatal(err)
	}
	cl.ClaudeCode(rctx, "s1", time.Date(2026, 3, 1, 10, 0, 0, 0, time.UTC))
	if err := cl.Shutdown(rctx); err != nil {
		t.Fatal(err)
	}
	waitFor(t, out, "step 1 read completed")
	rcancel()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
}

// fields is text with the runs of spaces that align its columns made two
// spaces, so that columns sized by another value compare equal.
func fields(s string) string {
	var lines []string
	for l := range strings.SplitSeq(s, "\n") {
		lines = append(lines, strings.Join(strings.Fields(l), "  "))
	}
	return strings.Join(lines, "\n")
}

// follow follows path as agentwatch tail does, with opts.
func follow(ctx context.Context, opts *app.Options, path string) error {
	a := app.New(opts)
	src, err := a.IdentifyFollowed(path)
	if err != nil {
		return err
	}
	return a.Follow(ctx, src)
}
