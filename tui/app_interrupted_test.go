package tui

import (
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/agentwatch/agentwatch/fold"
	"github.com/agentwatch/agentwatch/model"
	"github.com/agentwatch/agentwatch/protocol/acp"
)

// When the agent exits mid-turn, the steps it left open read
// "interrupted" on the screen; the fold keeps them as they were.
func TestAgentExitInterruptsOpenSteps(t *testing.T) {
	lines := []string{
		`send {"jsonrpc":"2.0","id":1,"method":"session/prompt","params":{"sessionId":"s","prompt":[{"type":"text","text":"go"}]}}`,
		`recv {"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s","update":{"sessionUpdate":"tool_call","toolCallId":"t1","title":"Read a.go","kind":"read","status":"completed","locations":[{"path":"a.go"}]}}}`,
		`recv {"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s","update":{"sessionUpdate":"tool_call","toolCallId":"t2","title":"make","kind":"execute","status":"in_progress","rawInput":{"command":"make"}}}}`,
	}
	var recs []model.Record
	t0 := time.UnixMilli(1764500000000)
	for i, l := range lines {
		dir, msg, _ := strings.Cut(l, " ")
		recs = append(recs, model.Record{Seq: uint64(i + 1), Proto: model.ProtoACP, Raw: []byte(msg),
			Event: acp.DecodeDir([]byte(msg), acp.Direction(dir)), At: t0.Add(time.Duration(i) * time.Second)})
	}
	ch := make(chan []model.Record, 1)
	ch <- recs
	close(ch)
	f := fold.New(fold.Options{})
	a := NewAgentApp(f, ch, &fakeAgent{}, AppOptions{})
	a.Update(tea.WindowSizeMsg{Width: 120, Height: 30})
	a.Update(a.pump()())
	if s := ansi.Strip(a.View().Content); strings.Contains(s, "interrupted") {
		t.Fatal("interrupted before the agent exited")
	}
	a.Update(a.pump()()) // the channel closed: the agent exited
	s := ansi.Strip(a.View().Content)
	if !strings.Contains(s, "⊘ ❯ Command interrupted · make") || !strings.Contains(s, "interrupted") {
		t.Errorf("the open step does not read interrupted:\n%s", s)
	}
	if strings.Contains(s, "Read interrupted") {
		t.Error("a finished step reads interrupted")
	}
	if st := f.Steps()[1].Status; st != model.StatusRunning {
		t.Errorf("the fold's step is %s: the display changed the fold", st)
	}
}
