package tui

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/golden"

	"github.com/agentwatch/agentwatch/model"
)

// agentSessionNames name the copies of the Claude Code fixture an agent's
// folder is made of here, oldest activity first: each copy's times are a
// minute later than the one before.
var agentSessionNames = []string{"docs", "api", "cli", "web", "ops"}

// agentSessionPath is the file of the copy named name.
func agentSessionPath(name string) string {
	return "/home/dev/.claude/projects/-home-dev-" + name + "/" + name + ".jsonl"
}

// agentsApp is a live folder of agentSessionNames' sessions at w×h, its
// clock an hour after the newest record, each row naming its project.
func agentsApp(t *testing.T, w, h int, bell bool) *threadsApp {
	t.Helper()
	var batches []model.Batch
	var newest time.Time
	for i, name := range agentSessionNames {
		recs := sessionRecords(t, sessionFixtures[0].path)
		for k := range recs {
			if !recs[k].At.IsZero() {
				recs[k].At = recs[k].At.Add(time.Duration(i) * time.Minute)
				newest = recs[k].At
			}
		}
		batches = append(batches, model.Batch{Source: agentSessionPath(name), Records: recs, Read: 100, Size: 100})
	}
	now := newest.Add(time.Hour)
	opts := AppOptions{Title: "claude", Bell: bell, Now: func() time.Time { return now },
		Project: func(source string) string {
			return "/home/dev/" + strings.TrimSuffix(source[strings.LastIndexByte(source, '/')+1:], ".jsonl")
		}}
	return newThreadsApp(t, w, h, opts, batches...)
}

// states is an AgentStatesMsg of the named sessions.
func states(of map[string]model.AgentState) AgentStatesMsg {
	msg := AgentStatesMsg{}
	for name, s := range of {
		msg[agentSessionPath(name)] = s
	}
	return msg
}

// send hands msg to the App and returns what its command writes raw to
// the terminal ("" for none).
func (d *threadsApp) send(t *testing.T, msg tea.Msg) string {
	t.Helper()
	_, cmd := d.Update(msg)
	if cmd == nil {
		return ""
	}
	raw, ok := cmd().(tea.RawMsg)
	if !ok {
		t.Fatalf("the command gave %T, want tea.RawMsg", cmd())
	}
	return fmt.Sprint(raw.Msg)
}

// rowNames are the list's rows as their sessions' names, in order.
func (d *threadsApp) rowNames() []string {
	var out []string
	for _, th := range d.tv().order {
		s := strings.TrimSuffix(th.Source[strings.LastIndexByte(th.Source, '/')+1:], ".jsonl")
		out = append(out, s)
	}
	return out
}

// row is the list's row of the session named name.
func (d *threadsApp) row(t *testing.T, name string) (int, model.AgentState, bool) {
	t.Helper()
	for i, r := range d.tv().list.Rows() {
		if r.Source == agentSessionPath(name) {
			return i, r.Agent, r.Asking
		}
	}
	t.Fatalf("no row of %s", name)
	return -1, 0, false
}

// TestAgentStatesGolden draws the list of an agent's sessions in every
// state: two waiting for you (ops started waiting after the screen
// opened: marked !), one working, one idle and one ended, at 80×24 and
// 160×48. No row or title says LIVE of a session its agent does not work
// on, though every copy's file was last written an hour ago.
func TestAgentStatesGolden(t *testing.T) {
	for _, sz := range [][2]int{{80, 24}, {160, 48}} {
		t.Run(fmt.Sprintf("%dx%d", sz[0], sz[1]), func(t *testing.T) {
			d := agentsApp(t, sz[0], sz[1], false)
			d.send(t, states(map[string]model.AgentState{"docs": model.AgentWaiting, "api": model.AgentWorking, "cli": model.AgentIdle, "web": model.AgentEnded, "ops": model.AgentIdle}))
			d.send(t, states(map[string]model.AgentState{"docs": model.AgentWaiting, "api": model.AgentWorking, "cli": model.AgentIdle, "web": model.AgentEnded, "ops": model.AgentWaiting}))
			if got, want := d.rowNames(), []string{"ops", "docs", "api", "cli", "web"}; !slices.Equal(got, want) {
				t.Errorf("rows %v, want %v", got, want)
			}
			got := d.screen(t)
			text := ansi.Strip(got)
			for _, word := range []string{"waiting for you", "working", "idle", "ended", "!"} {
				if !strings.Contains(text, word) {
					t.Errorf("the list does not say %q:\n%s", word, text)
				}
			}
			golden.RequireEqual(t, got)
		})
	}
}

// TestAgentStatesNotLive: a folder whose agent ended every session says
// no LIVE, whatever run a file left open; the session on screen neither.
func TestAgentStatesNotLive(t *testing.T) {
	d := agentsApp(t, 120, 30, false)
	all := map[string]model.AgentState{}
	for _, n := range agentSessionNames {
		all[n] = model.AgentEnded
	}
	d.send(t, states(all))
	if text := ansi.Strip(d.screen(t)); strings.Contains(text, "LIVE") {
		t.Errorf("an ended folder says LIVE:\n%s", text)
	}
	for _, r := range d.tv().list.Rows() {
		if r.Live {
			t.Errorf("row %s is live", r.Source)
		}
	}
	d.open(t, d.tv().order[0])
	if text := ansi.Strip(d.screen(t)); strings.Contains(text, "LIVE") {
		t.Errorf("an ended session says LIVE:\n%s", text)
	}
	all["docs"] = model.AgentWorking
	d.send(t, states(all))
	d.press("esc")
	if i, s, _ := d.row(t, "docs"); i != 0 || s != model.AgentWorking || !d.tv().list.Rows()[0].Live {
		t.Errorf("working session at row %d as %v", i, s)
	}
	if text := ansi.Strip(d.screen(t)); !strings.Contains(text, "LIVE") {
		t.Errorf("a folder with a working session does not say LIVE:\n%s", text)
	}
}

// TestAgentStatesSort orders the rows waiting, working, idle, ended, and
// within each the newest activity first; a session still open whose turn
// is not known counts by its last run. Without the agents' word the list
// keeps its order of newest activity first.
func TestAgentStatesSort(t *testing.T) {
	d := agentsApp(t, 120, 30, false)
	if got, want := d.rowNames(), []string{"ops", "web", "cli", "api", "docs"}; !slices.Equal(got, want) {
		t.Fatalf("rows before the agents spoke %v, want %v", got, want)
	}
	d.send(t, states(map[string]model.AgentState{"docs": model.AgentWorking, "api": model.AgentEnded, "cli": model.AgentWaiting, "web": model.AgentIdle, "ops": model.AgentEnded}))
	if got, want := d.rowNames(), []string{"cli", "docs", "web", "ops", "api"}; !slices.Equal(got, want) {
		t.Errorf("rows %v, want %v", got, want)
	}
	open := model.AgentOpen.Resolve(anyRunOpen(d.tv().order[0].Fold))
	d.send(t, states(map[string]model.AgentState{"docs": model.AgentOpen, "api": model.AgentOpen, "cli": model.AgentOpen, "web": model.AgentOpen, "ops": model.AgentOpen}))
	for i, r := range d.tv().list.Rows() {
		if r.Agent != open {
			t.Errorf("row %d: an open session whose last run is as the fixture's is %v, want %v", i, r.Agent, open)
		}
	}
	if got, want := d.rowNames(), []string{"ops", "web", "cli", "api", "docs"}; !slices.Equal(got, want) {
		t.Errorf("rows of one state %v, want %v", got, want)
	}
}

// TestAgentStartsWaiting: a session that starts waiting for the person is
// marked and rings the bell once; it stays marked while it waits, rings
// no more, and loses its mark when the person selects its row; waiting
// again marks and rings again. Sessions already waiting when the screen
// learnt their states are not news. Without Bell nothing rings.
func TestAgentStartsWaiting(t *testing.T) {
	for _, bell := range []bool{true, false} {
		t.Run(fmt.Sprintf("bell=%v", bell), func(t *testing.T) {
			ring := ""
			if bell {
				ring = "\a"
			}
			d := agentsApp(t, 120, 30, bell)
			idle := map[string]model.AgentState{"docs": model.AgentWaiting, "api": model.AgentIdle, "cli": model.AgentIdle, "web": model.AgentIdle, "ops": model.AgentIdle}
			if got := d.send(t, states(idle)); got != "" {
				t.Fatalf("the first states rang %q", got)
			}
			if _, _, asking := d.row(t, "docs"); asking {
				t.Error("a session waiting before the screen knew is marked")
			}
			waiting := maps(idle, "api", model.AgentWaiting)
			if got := d.send(t, states(waiting)); got != ring {
				t.Fatalf("api starts waiting: rang %q, want %q", got, ring)
			}
			i, s, asking := d.row(t, "api")
			if s != model.AgentWaiting || !asking {
				t.Fatalf("api: %v, marked %v", s, asking)
			}
			if !strings.Contains(ansi.Strip(d.screen(t)), "!") {
				t.Error("the screen shows no ! mark")
			}
			if got := d.send(t, states(waiting)); got != "" {
				t.Errorf("still waiting: rang %q", got)
			}
			if _, _, asking := d.row(t, "api"); !asking {
				t.Error("the mark went before the row was selected")
			}
			d.press("g")
			for range i {
				d.press("j")
			}
			if _, _, asking := d.row(t, "api"); asking {
				t.Error("the mark stays on the selected row")
			}
			d.send(t, states(idle))
			if got := d.send(t, states(waiting)); got != ring {
				t.Errorf("waiting again: rang %q, want %q", got, ring)
			}
			if _, _, asking := d.row(t, "api"); !asking {
				t.Error("waiting again is not marked")
			}
			d.send(t, states(idle))
			if _, _, asking := d.row(t, "api"); asking {
				t.Error("the mark stays after the session stopped waiting")
			}
			two := maps(maps(idle, "cli", model.AgentWaiting), "web", model.AgentWaiting)
			if got := d.send(t, states(two)); got != ring+ring {
				t.Errorf("two start waiting: rang %q, want one bell each", got)
			}
		})
	}
}

// TestAgentStateChangesRow: each new word of the agents changes the rows
// at once, and a session the agents stop naming is no longer said to be
// in any state.
func TestAgentStateChangesRow(t *testing.T) {
	d := agentsApp(t, 120, 30, false)
	d.send(t, states(map[string]model.AgentState{"web": model.AgentWorking}))
	if _, s, _ := d.row(t, "web"); s != model.AgentWorking {
		t.Fatalf("web %v", s)
	}
	d.send(t, states(map[string]model.AgentState{"web": model.AgentEnded}))
	if _, s, _ := d.row(t, "web"); s != model.AgentEnded {
		t.Fatalf("web %v after its entry went", s)
	}
	if text := ansi.Strip(d.screen(t)); !strings.Contains(text, "ended") {
		t.Errorf("the list does not say ended:\n%s", text)
	}
	d.send(t, states(map[string]model.AgentState{}))
	if _, s, _ := d.row(t, "web"); s != model.AgentUnknown {
		t.Fatalf("web %v when not named", s)
	}
}

// maps is of with name's state set to s, of left as it was.
func maps(of map[string]model.AgentState, name string, s model.AgentState) map[string]model.AgentState {
	out := make(map[string]model.AgentState, len(of))
	for k, v := range of {
		out[k] = v
	}
	out[name] = s
	return out
}
