package tui

// The screen in a real Program, its terminal played by the test: what it
// is asked at start, what it answers (or not), and what the output then
// holds: pictures sent once and placeholder cells, half blocks, or text.

import (
	"crypto/sha256"
	"encoding/base64"
	"io"
	"regexp"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/colorprofile"
	"github.com/charmbracelet/x/ansi/kitty"
	"github.com/charmbracelet/x/vt"

	"github.com/agentwatch/agentwatch/fold"
	"github.com/agentwatch/agentwatch/internal/testkit/syncbuf"
	"github.com/agentwatch/agentwatch/model"
)

// asked reports whether out holds the graphics query: image 31, action
// query.
func asked(out string) bool {
	for _, m := range graphicsCodeRE.FindAllStringSubmatch(out, -1) {
		keys := map[string]string{}
		for _, kv := range strings.Split(m[1], ",") {
			k, v, _ := strings.Cut(kv, "=")
			keys[k] = v
		}
		if keys["i"] == "31" && keys["a"] == "q" {
			return true
		}
	}
	return false
}

// graphicsCodeRE matches any graphics escape code: its keys and payload.
var graphicsCodeRE = regexp.MustCompile(`\x1b_G([^;\x1b]*)(?:;([^\x1b]*))?\x1b\\`)

// imageTerminal runs the demo's screen in a Program whose terminal has
// the environment env and the colour profile profile, and answers the
// graphics query with answer ("": never).
type imageTerminal struct {
	t    *testing.T
	p    *tea.Program
	out  *syncbuf.Buffer
	in   *io.PipeWriter
	done <-chan error
	recs []model.Record
}

func startImageTerminal(t *testing.T, env []string, profile colorprofile.Profile, answer string) *imageTerminal {
	t.Helper()
	recs := demoRecords(t)
	ch := make(chan []model.Record, 1)
	ch <- recs
	close(ch)
	a := NewApp(fold.New(fold.Options{}), ch, AppOptions{Title: "demo"})
	inR, inW := io.Pipe()
	it := &imageTerminal{t: t, out: &syncbuf.Buffer{}, in: inW, recs: recs}
	it.p, it.done = startProgram(a, 160, 48, tea.WithInput(inR), tea.WithOutput(it.out),
		tea.WithEnvironment(env), tea.WithColorProfile(profile))
	t.Cleanup(func() {
		it.p.Kill()
		inW.Close()
	})
	it.waitFor("a first frame", func(s string) bool { return strings.Contains(s, "agent computer") })
	if answer != "" {
		it.waitFor("the graphics query", asked)
		io.WriteString(inW, "\x1b_Gi=31;"+answer+"\x1b\\")
	}
	return it
}

// waitFor waits until the output so far satisfies ok.
func (it *imageTerminal) waitFor(what string, ok func(string) bool) {
	it.t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for !ok(it.out.String()) {
		if time.Now().After(deadline) {
			it.t.Fatalf("no %s after 10 s; output ends %q", what, tail(it.out.String()))
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// press sends key n times, in order with every other message.
func (it *imageTerminal) press(key rune, n int) {
	for range n {
		it.p.Send(tea.KeyPressMsg{Code: key})
	}
}

// walk selects the first step, then every step up to the last that has a
// screenshot: each step's screenshot is drawn in the panel, and each
// card's in the transcript.
func (it *imageTerminal) walk() {
	steps, shot := demoSteps(it.t, it.recs)
	it.press(tea.KeyLeft, len(steps))
	it.press(tea.KeyRight, shot)
}

// screen redraws the whole screen and returns what a w×h terminal shows:
// the output from the redraw's erase on, drawn by a terminal emulator.
// (Diffs from frame to frame are left out: the emulator reads some of
// Bubble Tea's scrolling optimisations differently.)
func (it *imageTerminal) screen(w, h int) string {
	it.t.Helper()
	from := len(it.out.String())
	it.p.Send(tea.ClearScreen())
	it.waitFor("a redraw", func(s string) bool { return strings.Contains(s[from:], "\x1b[2J") })
	out := it.out.String()
	redraw := out[from+strings.Index(out[from:], "\x1b[2J"):]
	em := vt.NewEmulator(w, h)
	defer em.Close()
	em.Write([]byte(redraw))
	return em.String()
}

// quit ends the Program and returns everything it wrote.
func (it *imageTerminal) quit() string {
	it.t.Helper()
	it.p.Quit()
	select {
	case err := <-it.done:
		if err != nil {
			it.t.Fatal(err)
		}
	case <-time.After(10 * time.Second):
		it.t.Fatal("the program did not end")
	}
	return it.out.String()
}

func tail(s string) string { return s[max(0, len(s)-400):] }

// demoSteps folds the demo: its steps, and the index of the last one with
// a screenshot.
func demoSteps(t *testing.T, recs []model.Record) ([]*model.Step, int) {
	t.Helper()
	f := fold.New(fold.Options{})
	f.Apply(recs...)
	last := -1
	for i, s := range f.Steps() {
		if len(s.Screenshots) > 0 {
			last = i
		}
	}
	if last < 0 {
		t.Fatal("the demo has no screenshot")
	}
	return f.Steps(), last
}

// demoShots is how many different screenshots the demo's steps show (the
// latest of each step that has some).
func demoShots(t *testing.T, recs []model.Record) int {
	f := fold.New(fold.Options{})
	f.Apply(recs...)
	seen := map[[32]byte]bool{}
	for _, s := range f.Steps() {
		for i := len(s.Screenshots) - 1; i >= 0; i-- {
			if sh := s.Screenshots[i]; len(sh.Data) > 0 && !sh.Truncated {
				seen[sha256.Sum256(sh.Data)] = true
				break
			}
		}
	}
	if len(seen) < 2 {
		t.Fatalf("the demo shows %d screenshots; the test needs at least 2", len(seen))
	}
	return len(seen)
}

// graphics reads the graphics codes in out: the uploads by image id (the
// base64 of their chunks joined), the placements, and whether anything
// but codes of plain keys and base64 went out as graphics.
func graphics(t *testing.T, out string) (uploads map[string]string, places int) {
	t.Helper()
	uploads = map[string]string{}
	cur := ""
	for _, m := range graphicsCodeRE.FindAllStringSubmatch(out, -1) {
		keys := map[string]string{}
		for _, kv := range strings.Split(m[1], ",") {
			k, v, _ := strings.Cut(kv, "=")
			keys[k] = v
		}
		switch {
		case keys["a"] == "q":
		case keys["a"] == "p":
			places++
		case keys["a"] == "" && (keys["f"] == "100" || keys["f"] == "24"): // a PNG, or RGB bytes
			if _, ok := uploads[keys["i"]]; ok {
				t.Errorf("image %s uploaded twice", keys["i"])
			}
			cur = keys["i"]
			uploads[cur] = m[2]
		case cur != "":
			uploads[cur] += m[2]
		}
		if keys["m"] != "1" {
			cur = ""
		}
	}
	return uploads, places
}

func TestImagesKittyAnswered(t *testing.T) {
	it := startImageTerminal(t, []string{"TERM=xterm-kitty"}, colorprofile.TrueColor, "OK")
	shots := demoShots(t, it.recs)
	it.walk()
	if s := it.screen(160, 48); !strings.ContainsRune(s, kitty.Placeholder) || strings.Contains(s, "▀") {
		t.Errorf("the screen shows no placeholder, or half blocks:\n%s", s)
	}
	// Another size: the pictures are placed again, not sent again.
	it.p.Send(tea.WindowSizeMsg{Width: 120, Height: 40})
	it.walk()
	if s := it.screen(120, 40); !strings.ContainsRune(s, kitty.Placeholder) {
		t.Errorf("at 120×40 the screen shows no placeholder:\n%s", s)
	}
	it.waitFor("every screenshot sent", func(s string) bool {
		u, _ := graphics(t, s)
		return len(u) >= shots
	})
	out := it.quit()

	uploads, places := graphics(t, out)
	if len(uploads) != shots {
		t.Errorf("%d pictures sent, want one per screenshot shown: %d", len(uploads), shots)
	}
	payloads := map[string]string{}
	for id, b64 := range uploads {
		if _, err := base64.StdEncoding.DecodeString(b64); err != nil {
			t.Errorf("image %s: payload is not base64: %v", id, err)
		}
		if other, ok := payloads[b64]; ok {
			t.Errorf("images %s and %s are the same picture sent twice", id, other)
		}
		payloads[b64] = id
	}
	// Each picture shows in the panel and in a card, at two screen sizes:
	// more placements than pictures.
	if places <= len(uploads) {
		t.Errorf("%d placements for %d pictures: each should be placed at each size it shows at", places, len(uploads))
	}
	// Once the first picture is sent, the cells are placeholders that name
	// pictures sent, and no half block is drawn again.
	firstUpload := -1
	for _, m := range graphicsCodeRE.FindAllStringSubmatchIndex(out, -1) {
		if keys := out[m[2]:m[3]]; !strings.Contains(keys, "a=") {
			firstUpload = m[0]
			break
		}
	}
	cells := out[firstUpload:]
	if strings.Contains(cells, "▀") {
		t.Error("half blocks drawn after the terminal answered")
	}
	named := regexp.MustCompile(`\x1b\[38;5;(\d+);58;5;\d+m`+string(kitty.Placeholder)).FindAllStringSubmatch(cells, -1)
	if len(named) == 0 {
		t.Fatal("no placeholder cells after the first picture was sent")
	}
	for _, m := range named {
		if _, ok := uploads[m[1]]; !ok {
			t.Errorf("placeholder cells name image %s, which was not sent", m[1])
		}
	}
}

func TestImagesNoAnswer(t *testing.T) {
	for _, env := range [][]string{
		{"TERM=xterm-256color"}, // asked its name only, and it gives none
		{"TERM=xterm-kitty"},    // sent the graphics query, never answered
		{"TERM=tmux-256color"},  // asked nothing
	} {
		t.Run(env[0], func(t *testing.T) {
			it := startImageTerminal(t, env, colorprofile.TrueColor, "")
			it.walk()
			s := it.screen(160, 48)
			out := it.quit()
			if uploads, places := graphics(t, out); len(uploads) > 0 || places > 0 {
				t.Errorf("%d pictures sent and %d placed to a terminal that never answered", len(uploads), places)
			}
			if strings.ContainsRune(out, kitty.Placeholder) {
				t.Error("placeholder cells drawn for a terminal that never answered")
			}
			if !strings.Contains(s, "▀") {
				t.Errorf("no half blocks on the screen:\n%s", s)
			}
			if got, want := asked(out), env[0] == "TERM=xterm-kitty"; got != want {
				t.Errorf("graphics query sent: %v, want %v", got, want)
			}
		})
	}
}

func TestImagesNoColor(t *testing.T) {
	for _, tc := range []struct {
		name    string
		env     []string
		profile colorprofile.Profile
		// asked: the query may go out before the profile is known.
		asked bool
	}{
		{"NO_COLOR", []string{"TERM=xterm-kitty", "NO_COLOR=1"}, colorprofile.TrueColor, false},
		{"no colours", []string{"TERM=xterm-kitty"}, colorprofile.ASCII, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			answer := ""
			if tc.asked {
				answer = "OK" // and it answers: still no pictures
			}
			it := startImageTerminal(t, tc.env, tc.profile, answer)
			it.walk()
			s := it.screen(160, 48)
			out := it.quit()
			if !tc.asked && asked(out) {
				t.Error("the graphics query was sent without colours")
			}
			if !strings.Contains(s, "[screenshot 160×100]") {
				t.Errorf("the panel does not name the screenshot:\n%s", s)
			}
			if strings.Contains(s, "▀") || strings.ContainsRune(out, kitty.Placeholder) {
				t.Errorf("pictures drawn without colours:\n%s", s)
			}
		})
	}
}
