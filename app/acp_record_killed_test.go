package app

import (
	"bytes"
	"encoding/json"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/agentwatch/agentwatch/fold"
	"github.com/agentwatch/agentwatch/internal/testkit/acptest"
	"github.com/agentwatch/agentwatch/model"
	"github.com/agentwatch/agentwatch/protocol/acp"
	"github.com/agentwatch/agentwatch/sources"
)

// killedRecordEnv, set to "RECORDING\nCWD\nAGENT", makes
// TestACPRecordKilled the child that records a long turn until it is
// killed.
const killedRecordEnv = "AGENTWATCH_TEST_ACP_KILLED_RECORD"

// acp --record killed with SIGKILL in the middle of a long turn leaves a
// recording that is an exact prefix of the session: every whole line is
// a line of the session, in order, none missing (the burst's numbers run
// on without a gap), at most the last one cut short, and the file reads
// and folds as a recording with only that tail unreadable.
func TestACPRecordKilled(t *testing.T) {
	if v := os.Getenv(killedRecordEnv); v != "" {
		args := strings.Split(v, "\n")
		opts := &Options{Plain: true, Record: args[0], Stdout: io.Discard, Stderr: io.Discard}
		_ = New(opts).ACP(&ACPOptions{Cwd: args[1], Prompt: "burst 1000000"}, args[2:])
		return
	}
	if testing.Short() {
		t.Skip("runs agentwatch and an agent as processes")
	}
	bin := acptest.Build(t)
	dir := t.TempDir()
	rec := filepath.Join(dir, "session.jsonl")
	cmd := exec.Command(os.Args[0], "-test.run=^TestACPRecordKilled$")
	cmd.Env = append(os.Environ(), killedRecordEnv+"="+strings.Join([]string{rec, dir, bin}, "\n"))
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	// Killed once the burst is well under way, wherever a write stands.
	deadline := time.Now().Add(time.Minute)
	for {
		if st, err := os.Stat(rec); err == nil && st.Size() > 512<<10 {
			break
		}
		if time.Now().After(deadline) {
			cmd.Process.Kill()
			cmd.Wait()
			t.Fatalf("the recording never grew past 512 KiB\n%s", out.String())
		}
		time.Sleep(5 * time.Millisecond)
	}
	if err := cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	if err := cmd.Wait(); err == nil {
		t.Fatalf("agentwatch finished before it was killed\n%s", out.String())
	}

	data, err := os.ReadFile(rec)
	if err != nil {
		t.Fatal(err)
	}
	whole, tail := data, []byte(nil)
	if i := bytes.LastIndexByte(data, '\n'); i+1 < len(data) {
		whole, tail = data[:i+1], data[i+1:]
	}
	next := 0 // the burst's next number
	lines := bytes.Split(bytes.TrimSuffix(whole, []byte("\n")), []byte("\n"))
	for i, l := range lines {
		line, err := acp.ParseLine(l)
		if err != nil || !json.Valid(line.Msg) {
			t.Fatalf("line %d of %d is not a whole recording line (%v): %.200q", i+1, len(lines), err, l)
		}
		if n, ok := burstNumber(line.Msg); ok {
			if n != next {
				t.Fatalf("line %d holds update %d of the burst, want %d: lost or out of order", i+1, n, next)
			}
			next++
		}
	}
	if next < 1000 {
		t.Fatalf("only %d updates of the burst were recorded", next)
	}

	recs, err := sources.ReadACPRecording(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	wantRecs := len(lines)
	if len(tail) > 0 {
		wantRecs++
	}
	if len(recs) != wantRecs {
		t.Fatalf("read %d records, want %d lines and a tail of %d bytes", len(recs), len(lines), len(tail))
	}
	u, err := fold.New(fold.Options{}).Apply(recs...)
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range u.Diagnostics {
		if len(tail) == 0 || d.Seq != recs[len(recs)-1].Seq {
			t.Errorf("diagnostic for a whole line: %+v", d)
		}
	}
	if len(tail) > 0 {
		if _, bad := recs[len(recs)-1].Event.(*model.Unreadable); !bad {
			t.Errorf("the cut-off tail %.100q reads as an event", tail)
		}
	}
	t.Logf("killed with %d whole lines (%d updates of the burst) and a tail of %d bytes", len(lines), next, len(tail))
}

// burstNumber is the number of an update of the fixture's burst: the text
// "<i> " of a message chunk, or rawOutput.seq of a tool call update.
func burstNumber(msg []byte) (int, bool) {
	var m struct {
		Params struct {
			Update struct {
				SessionUpdate string `json:"sessionUpdate"`
				ToolCallID    string `json:"toolCallId"`
				Content       struct {
					Text string `json:"text"`
				} `json:"content"`
				RawOutput struct {
					Seq *int `json:"seq"`
				} `json:"rawOutput"`
			} `json:"update"`
		} `json:"params"`
	}
	if json.Unmarshal(msg, &m) != nil {
		return 0, false
	}
	u := m.Params.Update
	switch {
	case u.SessionUpdate == "agent_message_chunk" && strings.HasSuffix(u.Content.Text, " "):
		n, err := strconv.Atoi(strings.TrimSuffix(u.Content.Text, " "))
		return n, err == nil
	case u.SessionUpdate == "tool_call_update" && u.ToolCallID == "tc-burst" && u.RawOutput.Seq != nil:
		return *u.RawOutput.Seq, true
	}
	return 0, false
}
