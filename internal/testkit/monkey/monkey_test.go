package monkey

import (
	"context"
	"fmt"
	"io"
	"reflect"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
)

// The same seed gives the same inputs; another seed, others.
func TestSeeded(t *testing.T) {
	a, b, c := New(7, 80, 24), New(7, 80, 24), New(8, 80, 24)
	differ := false
	for i := range 500 {
		x, y, z := a.Msg(), b.Msg(), c.Msg()
		if !reflect.DeepEqual(x, y) {
			t.Fatalf("input %d: %v and %v from one seed", i, x, y)
		}
		differ = differ || !reflect.DeepEqual(x, z)
	}
	if !differ {
		t.Fatal("two seeds gave the same 500 inputs")
	}
}

// It makes every kind of input a person's hands make, and never the keys
// that quit on purpose.
func TestMakesEveryKind(t *testing.T) {
	g := New(1, 80, 24)
	seen := map[string]int{}
	for range 5000 {
		msg := g.Msg()
		seen[fmt.Sprintf("%T", msg)]++
		if k, ok := msg.(tea.KeyPressMsg); ok {
			switch k.String() {
			case "q", "ctrl+c", "ctrl+z":
				t.Fatalf("made %q", k.String())
			}
		}
	}
	for _, kind := range []string{"tea.KeyPressMsg", "tea.MouseClickMsg", "tea.MouseReleaseMsg", "tea.MouseMotionMsg", "tea.MouseWheelMsg", "tea.PasteMsg", "tea.WindowSizeMsg"} {
		if seen[kind] == 0 {
			t.Errorf("no %s in 5000 inputs: %v", kind, seen)
		}
	}
}

// recorder keeps the messages a program receives.
type recorder struct{ got chan tea.Msg }

func (r *recorder) Init() tea.Cmd { return nil }
func (r *recorder) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	switch msg.(type) {
	case tea.KeyPressMsg, tea.MouseMsg, tea.PasteMsg:
		r.got <- msg
	}
	return r, nil
}
func (r *recorder) View() tea.View { return tea.NewView("") }

// What Encode writes, Bubble Tea reads back as the same kind of input at
// the same place: the bytes reach a program as the messages would.
func TestEncodeReadsBack(t *testing.T) {
	g := New(3, 100, 30)
	var want []tea.Msg
	var in strings.Builder
	for len(want) < 300 {
		msg := g.Msg()
		if _, ok := msg.(tea.WindowSizeMsg); ok {
			continue // a program's first size comes from its terminal, not from this test's
		}
		if k, ok := msg.(tea.KeyPressMsg); ok && (k.Code == tea.KeyEscape || k.Mod&tea.ModAlt != 0) {
			continue // an esc runs into what follows it, as on a real terminal
		}
		want = append(want, msg)
		in.WriteString(Encode(msg))
	}
	r := &recorder{got: make(chan tea.Msg, 4096)}
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	p := tea.NewProgram(r, tea.WithInput(strings.NewReader(in.String())), tea.WithOutput(io.Discard), tea.WithContext(ctx), tea.WithoutSignals())
	go p.Run()
	defer p.Kill()
	for i, w := range want {
		var got tea.Msg
		select {
		case got = <-r.got:
		case <-ctx.Done():
			t.Fatalf("input %d (%T %v) never arrived", i, w, w)
		}
		if kind(got) != kind(w) {
			t.Fatalf("input %d: sent %T %v, read %T %v", i, w, w, got, got)
		}
	}
}

// kind is what a message is, as far as bytes can tell: the type and the
// position of a mouse event, the text of a paste; keys by type alone.
func kind(msg tea.Msg) string {
	switch m := msg.(type) {
	case tea.MouseMsg:
		mm := m.Mouse()
		return fmt.Sprintf("%T@%d,%d", msg, max(mm.X, 0), max(mm.Y, 0))
	case tea.PasteMsg:
		return "paste " + m.Content
	}
	return fmt.Sprintf("%T", msg)
}
