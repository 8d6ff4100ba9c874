package tui

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/agentwatch/agentwatch/fold"
	"github.com/agentwatch/agentwatch/model"
	"github.com/agentwatch/agentwatch/sources"
)

// jstr is s as a JSON string literal.
func jstr(s string) string {
	b, err := json.Marshal(s)
	if err != nil {
		panic(err)
	}
	return string(b)
}

// benchCategories are the ten step categories, in the order the generated
// logs cycle through them.
var benchCategories = []string{"read", "edit", "delete", "move", "search", "execute", "think", "fetch", "switch_mode", "other"}

// bigLog is an AG-UI JSON Lines log of one run with msgs assistant messages,
// each followed by steps/msgs tool calls (with arguments and a result).
func bigLog(msgs, steps int) []byte {
	var b bytes.Buffer
	ts := int64(1_760_000_000_000)
	line := func(format string, args ...any) {
		ts += 7
		fmt.Fprintf(&b, format, args...)
		fmt.Fprintf(&b, `,"timestamp":%d}`+"\n", ts)
	}
	line(`{"type":"RUN_STARTED","threadId":"t","runId":"r1","input":{"threadId":"t","runId":"r1","state":{},"messages":[{"id":"u1","role":"user","content":"Fix the failing test and tidy up."}],"tools":[],"context":[]}`)
	per := steps / msgs
	n := 0
	for m := range msgs {
		id := fmt.Sprintf("m%d", m)
		line(`{"type":"TEXT_MESSAGE_START","messageId":%q,"role":"assistant"`, id)
		line(`{"type":"TEXT_MESSAGE_CONTENT","messageId":%q,"delta":"Looking at **step %d** now: I'll read the file, `, id, m)
		line(`{"type":"TEXT_MESSAGE_CONTENT","messageId":%q,"delta":"run the tests and fix what fails."`, id)
		line(`{"type":"TEXT_MESSAGE_END","messageId":%q`, id)
		for range per {
			cat := benchCategories[n%len(benchCategories)]
			call := fmt.Sprintf("c%d", n)
			loc := fmt.Sprintf("src/pkg%d/file%d.go", n%37, n)
			line(`{"type":"TOOL_CALL_START","toolCallId":%q,"toolCallName":"tool_%s","parentMessageId":%q,"metadata":{"category":%q,"location":%q}`, call, cat, id, cat, loc)
			line(`{"type":"TOOL_CALL_ARGS","toolCallId":%q,"delta":%s`, call, jstr(fmt.Sprintf(`{"path":%q,"command":"go test ./..."}`, loc)))
			line(`{"type":"TOOL_CALL_END","toolCallId":%q`, call)
			line(`{"type":"TOOL_CALL_RESULT","messageId":"r%d","toolCallId":%q,"content":%s`, n, call,
				jstr(fmt.Sprintf("ok\tgithub.com/x/pkg%d\t0.%03ds\nline two of the result\nline three", n%37, n%1000)))
			n++
		}
	}
	line(`{"type":"RUN_FINISHED","threadId":"t","runId":"r1"`)
	return b.Bytes()
}

func readLog(t testing.TB, log []byte) []model.Record {
	t.Helper()
	recs, err := sources.ReadAll(bytes.NewReader(log))
	if err != nil {
		t.Fatal(err)
	}
	return recs
}

// BenchmarkAppView measures one frame of the whole screen at 200×60 over a
// log of 10,000 steps and 2,000 messages: the layout Update makes and the
// drawing View does. The budget is 2 ms a frame.
func BenchmarkAppView(b *testing.B) {
	recs := readLog(b, bigLog(2_000, 10_000))
	f := fold.New(fold.Options{})
	if _, err := f.Apply(recs...); err != nil {
		b.Fatal(err)
	}
	if got := len(f.Steps()); got != 10_000 {
		b.Fatalf("fold has %d steps, want 10000", got)
	}
	a := NewApp(f, nil, AppOptions{})
	a.Update(tea.WindowSizeMsg{Width: 200, Height: 60})
	if a.View().Content == "" {
		b.Fatal("empty first frame")
	}
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		a.relayout()
		_ = a.View()
	}
	ns := float64(b.Elapsed().Nanoseconds()) / float64(b.N)
	b.ReportMetric(ns, "ns/frame")
	if ns > 2e6 {
		b.Errorf("%.0f ns/frame, over the 2 ms budget", ns)
	}
}

// runPump drives the app the way the Bubble Tea loop does: it runs the
// pump's command, hands the message to Update and runs the next command,
// until the pump reports the channel closed. It returns how many record
// messages Update received.
func runPump(t *testing.T, a *App) (recordMsgs int) {
	t.Helper()
	cmd := a.Init()
	for cmd != nil {
		msg := cmd()
		if _, ok := msg.(recordsMsg); ok {
			recordMsgs++
		}
		_, cmd = a.Update(msg)
		if _, ok := msg.(recordsDoneMsg); ok {
			if cmd != nil {
				t.Errorf("Update(recordsDoneMsg) returned a command")
			}
			break
		}
	}
	return recordMsgs
}

// TestBurstIsBatched sends 10,000 records one per send while the pump runs
// and checks the pump turns the burst into far fewer messages (and so far
// fewer frames) than sends. It also logs the figure for the unbuffered
// channel the application layer (app/view.go) makes.
func TestBurstIsBatched(t *testing.T) {
	recs := readLog(t, bigLog(250, 2_500))
	if len(recs) < 10_000 {
		t.Fatalf("log has %d records, want at least 10000", len(recs))
	}
	recs = recs[:10_000]
	// (An unbuffered channel parks a sender on at most one batch while
	// Update runs, so the pump gathers about two batches a message
	// whatever it does: nothing to bound there.)
	for _, buf := range []int{64} {
		t.Run(fmt.Sprintf("buffer=%d", buf), func(t *testing.T) {
			ch := make(chan []model.Record, buf)
			a := NewApp(fold.New(fold.Options{}), ch, AppOptions{})
			a.Update(tea.WindowSizeMsg{Width: 120, Height: 40})
			go func() {
				for i := range recs {
					ch <- recs[i : i+1]
				}
				close(ch)
			}()
			got := runPump(t, a)
			if n := len(a.fold.Steps()); n == 0 {
				t.Fatal("no steps folded")
			}
			t.Logf("10000 sends (channel buffer %d) reached Update as %d record messages", buf, got)
			if got > 1_000 {
				t.Errorf("10000 sends gave %d record messages, want far fewer (≤ 1000)", got)
			}
			if !a.done {
				t.Error("app not done after the channel closed")
			}
		})
	}
}

// TestIdleHasNoTicks checks that once the input has closed and nothing
// plays, the app asks for no timer: no command for a resize, for the close,
// or for idle keys, and the pump left behind by the last record message
// ends with the close instead of ticking.
func TestIdleHasNoTicks(t *testing.T) {
	recs := readLog(t, bigLog(4, 20))
	ch := make(chan []model.Record, 1)
	a := NewApp(fold.New(fold.Options{}), ch, AppOptions{})
	if _, cmd := a.Update(tea.WindowSizeMsg{Width: 120, Height: 40}); cmd != nil {
		t.Error("Update(WindowSizeMsg) returned a command while live")
	}
	ch <- recs
	msg := a.Init()()
	if _, ok := msg.(recordsMsg); !ok {
		t.Fatalf("pump gave %T, want recordsMsg", msg)
	}
	_, last := a.Update(msg)
	if last == nil {
		t.Fatal("no pump after the last record message")
	}
	close(ch)

	// The command after the last record message is the pump: with the
	// channel closed it must answer at once with the close, not a tick.
	got := make(chan tea.Msg, 1)
	go func() { got <- last() }()
	select {
	case m := <-got:
		if _, ok := m.(recordsDoneMsg); !ok {
			t.Fatalf("pump after close gave %T, want recordsDoneMsg", m)
		}
		if _, cmd := a.Update(m); cmd != nil {
			t.Error("Update(recordsDoneMsg) returned a command")
		}
	case <-time.After(200 * time.Millisecond):
		t.Fatal("pump did not end within 200 ms of the close")
	}

	if a.playing {
		t.Fatal("app plays without being asked")
	}
	for _, m := range []tea.Msg{
		tea.WindowSizeMsg{Width: 200, Height: 60},
		tea.WindowSizeMsg{Width: 80, Height: 24},
		keyPress("left"),
		keyPress("right"),
		keyPress("home"),
		keyPress("end"),
	} {
		_ = a.View()
		if _, cmd := a.Update(m); cmd != nil {
			t.Errorf("idle Update(%T %v) returned a command", m, m)
		}
	}
}

// hostile are escape sequences an agent could smuggle into its text: an
// OSC 52 clipboard write, a screen clear, a window title, a DCS string and
// a C1 CSI screen clear.
var hostileSeqs = []string{
	"\x1b]52;c;ZXZpbA==\x07",
	"\x1b[2J",
	"\x1b]0;pwned\x07",
	"\x1bPq#0;2;0;0;0#1;2;100;100;0\x1b\\",
	"\u009b2J",
}

// evil is s with every hostile sequence in it.
func evil(s string) string {
	return s + " " + strings.Join(hostileSeqs, " mid ") + " end"
}

func hostileLog() []byte {
	var b bytes.Buffer
	ts := int64(1_760_000_000_000)
	line := func(format string, args ...any) {
		ts += 500
		fmt.Fprintf(&b, format, args...)
		fmt.Fprintf(&b, `,"timestamp":%d}`+"\n", ts)
	}
	user := jstr(evil("user asks"))
	line(`{"type":"RUN_STARTED","threadId":"t","runId":"r1","input":{"threadId":"t","runId":"r1","state":{},"messages":[{"id":"u1","role":"user","content":%s},{"id":"u2","role":"user","content":[{"type":"text","text":%s}]}],"tools":[],"context":[]}`, user, user)
	line(`{"type":"STATE_SNAPSHOT","snapshot":{"status":%s,"task":%s}`, jstr(evil("state")), jstr(evil("task")))
	line(`{"type":"REASONING_START","messageId":"rs1"`)
	line(`{"type":"REASONING_MESSAGE_START","messageId":"rm1","role":"reasoning"`)
	line(`{"type":"REASONING_MESSAGE_CONTENT","messageId":"rm1","delta":%s`, jstr(evil("thinking")))
	line(`{"type":"REASONING_MESSAGE_END","messageId":"rm1"`)
	line(`{"type":"REASONING_END","messageId":"rs1"`)
	line(`{"type":"TEXT_MESSAGE_START","messageId":"a1","role":"assistant"`)
	line(`{"type":"TEXT_MESSAGE_CONTENT","messageId":"a1","delta":%s`, jstr(evil("# Heading\n\nassistant says `code`")))
	line(`{"type":"TEXT_MESSAGE_CONTENT","messageId":"a1","delta":%s`, jstr(evil("\n\n- item\n\n```\nblock\n```\n")))
	line(`{"type":"TEXT_MESSAGE_END","messageId":"a1"`)
	for i, cat := range benchCategories {
		call := fmt.Sprintf("c%d", i)
		args, _ := json.Marshal(map[string]string{
			"path": evil("src/a.go"), "command": evil("ls"), "query": evil("q"), "url": evil("https://x"),
			"old_string": evil("old"), "new_string": evil("new"), "mode": evil("plan"), "thought": evil("hm"),
			"diff": "--- a/x\n+++ b/x\n@@ -1 +1 @@\n-" + evil("old") + "\n+" + evil("new") + "\n",
		})
		line(`{"type":"TOOL_CALL_START","toolCallId":%q,"toolCallName":%s,"parentMessageId":"a1","metadata":{"category":%q,"location":%s}`,
			call, jstr(evil("tool_"+cat)), cat, jstr(evil("loc")))
		line(`{"type":"TOOL_CALL_ARGS","toolCallId":%q,"delta":%s`, call, jstr(string(args)))
		line(`{"type":"TOOL_CALL_END","toolCallId":%q`, call)
		var content string
		if i%2 == 0 {
			content = jstr(evil("result\n\x1b[31mred\x1b[0m\nline"))
		} else {
			content = fmt.Sprintf(`[{"type":"text","text":%s},{"type":"text","text":%s}]`, jstr(evil("part one")), jstr(evil("part two")))
		}
		line(`{"type":"TOOL_CALL_RESULT","messageId":"r%d","toolCallId":%q,"content":%s`, i, call, content)
	}
	line(`{"type":"CUSTOM","name":%s,"value":{"text":%s}`, jstr(evil("custom")), jstr(evil("value")))
	line(`{"type":"ACTIVITY_SNAPSHOT","messageId":"act1","activityType":%s,"content":{"text":%s,"steps":[%s]},"replace":true`,
		jstr(evil("plan")), jstr(evil("activity")), jstr(evil("step")))
	line(`{"type":"RUN_FINISHED","threadId":"t","runId":"r1"`)
	line(`{"type":"RUN_STARTED","threadId":"t","runId":"r2","parentRunId":"r1"`)
	line(`{"type":"TOOL_CALL_START","toolCallId":"cf","toolCallName":%s,"metadata":{"category":"execute","location":%s}`, jstr(evil("bash")), jstr(evil("rm")))
	line(`{"type":"TOOL_CALL_ARGS","toolCallId":"cf","delta":%s`, jstr(`{"command":`+jstr(evil("rm -rf"))+`}`))
	line(`{"type":"TOOL_CALL_END","toolCallId":"cf"`)
	line(`{"type":"RUN_ERROR","message":%s,"code":%s`, jstr(evil("boom")), jstr(evil("E1")))
	// A malformed event: its diagnostic quotes what was read.
	line(`{"type":"TOOL_CALL_RESULT","toolCallId":%s,"content":%s`, jstr(evil("nope")), jstr(evil("orphan")))
	return b.Bytes()
}

// TestHostileTextNeverReachesTheScreen renders a log whose every agent
// string carries escape sequences, in both layouts at two sizes, with each
// step selected in turn, and checks none of the sequences reaches a frame.
func TestHostileTextNeverReachesTheScreen(t *testing.T) {
	log := hostileLog()
	for _, layout := range []string{LayoutSide, LayoutSheet} {
		for _, size := range [][2]int{{120, 40}, {80, 24}} {
			t.Run(fmt.Sprintf("%s/%dx%d", layout, size[0], size[1]), func(t *testing.T) {
				recs := readLog(t, log)
				ch := make(chan []model.Record, 1)
				ch <- recs
				close(ch)
				a := NewApp(fold.New(fold.Options{}), ch, AppOptions{Layout: layout, Title: evil("title")})
				a.Update(tea.WindowSizeMsg{Width: size[0], Height: size[1]})
				runPump(t, a)
				steps := len(a.fold.Steps())
				if steps < len(benchCategories) {
					t.Fatalf("%d steps folded, want at least %d", steps, len(benchCategories))
				}
				var seen strings.Builder
				check := func(what string) {
					t.Helper()
					v := a.View().Content
					seen.WriteString(v)
					for _, bad := range []string{"\x1b]", "\x1b[2J", "\x1bP", "\x9b", "\x07"} {
						if i := strings.Index(v, bad); i >= 0 {
							t.Errorf("%s: frame contains %q at %d: …%q…", what, bad, i, v[max(0, i-40):min(len(v), i+40)])
						}
					}
				}
				check("live")
				a.Update(keyPress("home"))
				check("step 1")
				for i := 1; i < steps; i++ {
					a.Update(keyPress("right"))
					check(fmt.Sprintf("step %d (right)", i+1))
				}
				for i := steps - 1; i > 0; i-- {
					a.Update(keyPress("left"))
					check(fmt.Sprintf("step %d (left)", i))
				}
				for _, k := range []tea.KeyPressMsg{keyPress("tab"), {Code: tea.KeyEnter}, keyPress("?"), keyPress("?"), keyPress("v"), keyPress("c"), keyPress("c")} {
					a.Update(k)
					check("after " + k.String())
				}
				// The hostile strings did reach the screen, cleaned.
				all := ansi.Strip(seen.String())
				for _, want := range []string{"tool_", "mid"} {
					if !strings.Contains(all, want) {
						t.Errorf("no frame shows %q: the hostile text never reached the screen", want)
					}
				}
				t.Logf("%d steps, %d frames checked", steps, 2*steps+8)
			})
		}
	}
}
