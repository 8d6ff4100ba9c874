package tui

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/charmbracelet/x/exp/golden"

	"github.com/agentwatch/agentwatch/fold"
	"github.com/agentwatch/agentwatch/model"
	"github.com/agentwatch/agentwatch/sources"
	"github.com/agentwatch/agentwatch/tui/computer"
)

// reviewSteps opens a messages-only fixture the way the app does (detect,
// then fold) and returns its steps. The AI SDK file names no categories,
// so it is folded with the fixtures' --tool-kinds mapping; the AG-UI one
// carries them in its calls' metadata.
func reviewSteps(t *testing.T, name string, want sources.MessagesFormat) []*model.Step {
	t.Helper()
	dir := filepath.Join("..", "testdata", "messages")
	b, err := os.ReadFile(filepath.Join(dir, name))
	if err != nil {
		t.Fatal(err)
	}
	recs, format, ok, err := sources.DetectMessages(b)
	if err != nil || !ok || format != want {
		t.Fatalf("%s: format %q, ok %v, err %v", name, format, ok, err)
	}
	var opts fold.Options
	if want == sources.MessagesAISDK {
		kb, err := os.ReadFile(filepath.Join(dir, "tool-kinds.json"))
		if err != nil {
			t.Fatal(err)
		}
		if opts.ToolKinds, err = fold.ParseToolKinds(kb); err != nil {
			t.Fatal(err)
		}
	}
	f := fold.New(opts)
	if _, err := f.Apply(recs...); err != nil {
		t.Fatal(err)
	}
	return f.Steps()
}

// TestMessagesGolden draws the computer panel (80×20 and its status line)
// for every step of the two messages fixtures, as a reviewer steps through
// them: one golden file per fixture, a section per step.
func TestMessagesGolden(t *testing.T) {
	const width, height = 80, 20
	fixtures := []struct {
		file   string
		format sources.MessagesFormat
		golden string
		// wants are what some step's view must show, whatever the golden holds.
		wants map[int][]string
	}{
		{"aisdk-coding-agent.json", sources.MessagesAISDK, "aisdk-coding-agent.golden", map[int][]string{
			0: {" 1 package api", "func (s *Server) Health("},
			1: {"$ go test ./internal/api/...", "--- FAIL: TestHealth", "step 2 of 8 · done"},
			2: {"Edit failed · internal/api/health.go", "old_string not found", "step 3 of 8 · failed"},
			3: {"+++ b/internal/api/health.go", "+    if err := s.store.Open(r.Context()); err != nil {"},
			5: {"https://pkg.go.dev/net/http#ResponseWriter", "WriteHeader sends the status line"},
			6: {"http://localhost:8080/health", "▀", "Screenshot of http://localhost:8080/health"},
			7: {"$ go vet ./...", "step 8 of 8 · pending"},
		}},
		{"agui-snapshot.json", sources.MessagesAGUI, "agui-snapshot.golden", map[int][]string{
			1: {"--- FAIL: TestHealth", "failed", "exit 1"},
			6: {"▀"},
		}},
	}
	for _, fx := range fixtures {
		t.Run(strings.TrimSuffix(fx.golden, ".golden"), func(t *testing.T) {
			steps := reviewSteps(t, fx.file, fx.format)
			if len(steps) != 8 {
				t.Fatalf("%d steps, want 8", len(steps))
			}
			var b strings.Builder
			for i, s := range steps {
				lines := computer.PanelLines(s, width, height)
				checkPanel(t, lines, width, height)
				status := computer.PanelStatus(s, i, len(steps), width)
				view := strings.Join(lines, "\n") + "\n" + status + "\n"
				bare := sgrRE.ReplaceAllString(view, "")
				for _, w := range fx.wants[i] {
					if !strings.Contains(bare, w) {
						t.Errorf("step %d (%s) lacks %q:\n%s", i+1, s.Label(), w, bare)
					}
				}
				fmt.Fprintf(&b, "── step %d: %s (%s) ──\n%s", i+1, s.Label(), s.ToolName, view)
			}
			golden.RequireEqual(t, b.String())
		})
	}
}
