package tui

import (
	"bytes"
	"fmt"
	"image/color"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/colorprofile"
	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/golden"

	"github.com/agentwatch/agentwatch/fold"
	"github.com/agentwatch/agentwatch/model"
	"github.com/agentwatch/agentwatch/replay"
)

// stateCase is a screen in one of the states the words on screen tell,
// and the words it must say (and must not).
type stateCase struct {
	name       string
	make       func(t *testing.T, w, h int) *App
	says, lies []string
}

// Every state word is true of the source and the thread, not of when the
// screen opened them: a finished file is watched, not LIVE, and quiet for
// as long as its last event is old; a live tail is LIVE; a stream that
// went quiet says for how long; a stream that closed mid-run has ended; a
// replay says it plays or is paused, and its button what a click will do;
// a folder of logs without timestamps shows no times and keeps its files'
// order. Goldens at 80×24 and 160×48, dark, light and without colours.
func TestStateWordsGolden(t *testing.T) {
	recs := demoRecords(t)
	last := recs[len(recs)-1].At
	half := len(recs) / 2
	mid := recs[half-1].At
	cases := []stateCase{
		{name: "finished-file", says: []string{"◌ watching", "quiet 92d"}, lies: []string{"LIVE"},
			make: func(t *testing.T, w, h int) *App {
				return stateThreads(t, w, h, last.Add(92*24*time.Hour), false, model.Batch{Source: "run.jsonl", Records: recs, Read: 100, Size: 100})
			}},
		{name: "live-tail", says: []string{"● LIVE"}, lies: []string{"· quiet", "watching"},
			make: func(t *testing.T, w, h int) *App {
				return stateThreads(t, w, h, mid.Add(2*time.Second), false, model.Batch{Source: "run.jsonl", Records: recs[:half], Read: 100, Size: 100})
			}},
		{name: "quiet-stream", says: []string{"● LIVE", "quiet 12s"}, lies: []string{"watching"},
			make: func(t *testing.T, w, h int) *App {
				return stateThreads(t, w, h, mid.Add(12*time.Second), false, model.Batch{Source: "http://agent.example/run", Records: recs[:half]})
			}},
		{name: "ended-stream", says: []string{"◼ ended"}, lies: []string{"LIVE", "· quiet", "Back to live"},
			make: func(t *testing.T, w, h int) *App {
				return stateThreads(t, w, h, mid.Add(time.Hour), true, model.Batch{Source: "http://agent.example/run", Records: recs[:half]})
			}},
		{name: "replay-playing", says: []string{"▶ replaying", "❚❚ pause"}, lies: []string{"LIVE", "▶ play "},
			make: func(t *testing.T, w, h int) *App { return stateReplay(t, w, h, recs, true) }},
		{name: "replay-paused", says: []string{"❚❚ paused", "▶ play"}, lies: []string{"LIVE", "❚❚ pause "},
			make: func(t *testing.T, w, h int) *App { return stateReplay(t, w, h, recs, false) }},
		{name: "untimed-folder", says: []string{"threads · 3", "◌ watching"}, lies: []string{"●", "LIVE", ":"},
			make: func(t *testing.T, w, h int) *App {
				var bs []model.Batch
				for _, name := range []string{"c.jsonl", "a.jsonl", "b.jsonl"} {
					bs = append(bs, model.Batch{Source: name, Records: untimedRun(t, name), Read: 10, Size: 10})
				}
				return stateThreads(t, w, h, last, false, bs...)
			}},
	}
	for _, c := range cases {
		for _, sz := range [][2]int{{80, 24}, {160, 48}} {
			for _, theme := range []string{"dark", "light", "nocolor"} {
				name := fmt.Sprintf("%s_%dx%d_%s", c.name, sz[0], sz[1], theme)
				t.Run(name, func(t *testing.T) {
					a := c.make(t, sz[0], sz[1])
					if theme == "light" {
						a.Update(tea.BackgroundColorMsg{Color: color.White})
					}
					screen := a.View().Content
					if theme == "nocolor" {
						screen = withoutColours(screen)
					}
					golden.RequireEqual(t, screen)
					text := ansi.Strip(screen)
					for _, want := range c.says {
						if !strings.Contains(text, want) {
							t.Errorf("the screen does not say %q:\n%s", want, text)
						}
					}
					if c.name == "untimed-folder" {
						a, b, cc := strings.Index(text, "task a"), strings.Index(text, "task b"), strings.Index(text, "task c")
						if a < 0 || !(a < b && b < cc) {
							t.Errorf("the threads are not in their files' order:\n%s", text)
						}
					}
					for _, lie := range c.lies {
						if strings.Contains(text, lie) {
							t.Errorf("the screen says %q:\n%s", lie, text)
						}
					}
				})
			}
		}
	}
}

// withoutColours is screen as a terminal under NO_COLOR shows it: Bubble
// Tea writes through the ASCII profile, which keeps attributes (bold,
// reverse) and drops colours.
func withoutColours(screen string) string {
	var b bytes.Buffer
	w := &colorprofile.Writer{Forward: &b, Profile: colorprofile.ASCII}
	w.WriteString(screen)
	return b.String()
}

// stateThreads is a screen of threads at w×h whose clock reads now, that
// got batches, and whose source has closed when closed.
func stateThreads(t *testing.T, w, h int, now time.Time, closed bool, batches ...model.Batch) *App {
	d := newThreadsApp(t, w, h, AppOptions{Title: "run", Now: func() time.Time { return now }}, batches...)
	if closed {
		d.close(t)
	}
	return d.App
}

// stateReplay is a replay of recs paused half way, or playing there.
func stateReplay(t *testing.T, w, h int, recs []model.Record, playing bool) *App {
	src := replay.Slice(recs)
	tl, err := replay.BuildTimeline(src, fold.Options{}, 64)
	if err != nil {
		t.Fatal(err)
	}
	clk := &stillClock{now: time.UnixMilli(1_700_000_000_000)}
	p := replay.NewPlayer(src, tl, replay.NewSchedule(src, replay.ScheduleOptions{IdleCap: replay.DefaultIdleCap}), replay.PlayerOptions{Clock: clk})
	if _, err := p.Seek(len(recs) / 2); err != nil {
		t.Fatal(err)
	}
	if playing {
		if err := p.Play(); err != nil {
			t.Fatal(err)
		}
	}
	a := NewReplayApp(p, AppOptions{Title: "demo"})
	a.Update(tea.WindowSizeMsg{Width: w, Height: h})
	return a
}

// untimedRun is a finished run of one tool call in a thread of its own,
// with no timestamps: as the tail gives a log that was written before it
// looked, its records carry no time.
func untimedRun(t *testing.T, name string) []model.Record {
	id := strings.TrimSuffix(name, ".jsonl")
	log := fmt.Sprintf(`{"type":"RUN_STARTED","threadId":"t-%[1]s","runId":"r-%[1]s"}
{"type":"TEXT_MESSAGE_START","messageId":"u-%[1]s","role":"user"}
{"type":"TEXT_MESSAGE_CONTENT","messageId":"u-%[1]s","delta":"task %[1]s"}
{"type":"TEXT_MESSAGE_END","messageId":"u-%[1]s"}
{"type":"TOOL_CALL_START","toolCallId":"c-%[1]s","toolCallName":"bash","metadata":{"category":"execute","location":"make %[1]s"}}
{"type":"TOOL_CALL_END","toolCallId":"c-%[1]s"}
{"type":"TOOL_CALL_RESULT","messageId":"m-%[1]s","toolCallId":"c-%[1]s","content":"ok"}
{"type":"RUN_FINISHED","threadId":"t-%[1]s","runId":"r-%[1]s"}
`, id)
	return readLog(t, []byte(log))
}
