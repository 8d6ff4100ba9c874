package tui

import (
	"fmt"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/agentwatch/agentwatch/fold"
	"github.com/agentwatch/agentwatch/internal/testkit/hostile"
	"github.com/agentwatch/agentwatch/model"
	"github.com/agentwatch/agentwatch/sources"
)

// TestAppQuitsWithALongMessagePending folds a log whose one message is 20
// MiB and checks that the frame after it renders a screenful, not the
// message, and that q and ctrl+c still quit.
func TestAppQuitsWithALongMessagePending(t *testing.T) {
	body := hostile.Prose(20<<20, 3)
	log := fmt.Sprintf(`{"type":"RUN_STARTED","threadId":"t","runId":"r"}
{"type":"TEXT_MESSAGE_START","messageId":"m","role":"assistant"}
{"type":"TEXT_MESSAGE_CONTENT","messageId":"m","delta":%q}
`, body)
	recs, err := sources.ReadAll(strings.NewReader(log))
	if err != nil {
		t.Fatal(err)
	}
	ch := make(chan []model.Record, 1)
	ch <- recs
	a := NewApp(fold.New(fold.Options{}), ch, AppOptions{})
	a.Update(tea.WindowSizeMsg{Width: 120, Height: 40})
	before := a.transcript.MarkdownBytes()
	a.Update(a.Init()())
	a.View()
	if rendered := a.transcript.MarkdownBytes() - before; rendered == 0 || rendered > 8*16<<10 {
		t.Errorf("the frame after a 20 MiB message rendered %d bytes of it", rendered)
	}
	for _, k := range []tea.KeyPressMsg{keyPress("q"), {Code: 'c', Mod: tea.ModCtrl}} {
		_, cmd := a.Update(k)
		if cmd == nil {
			t.Fatalf("%v gave no command", k)
		}
		if _, ok := cmd().(tea.QuitMsg); !ok {
			t.Errorf("%v does not quit", k)
		}
	}
}
