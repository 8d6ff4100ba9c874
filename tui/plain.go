package tui

// This file holds the --plain output: no screen, one line per display change
// that matters, for CI logs and pipes.

import (
	"fmt"
	"io"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/agentwatch/agentwatch/fold"
	"github.com/agentwatch/agentwatch/model"
	"github.com/agentwatch/agentwatch/tui/render"
	"github.com/agentwatch/agentwatch/tui/runtree"
)

// plainTextMax is how many characters of a message a plain line shows.
const plainTextMax = 120

// PlainPrinter writes one line per display change that matters, as records are folded:
// a message finished ("you: <first line, ≤120 chars>" / "agent: …"), a step appeared
// ("step 7 execute pending · Running command · go test ./..." while its arguments stream),
// started ("step 7 execute running · Running command · go test ./...") or finished ("step 7
// execute completed · Ran command · go test ./... · 1.2s", with "· exit 2" when failed), a run
// started or finished ("run r2 started (continues r1)" or "(branch of r1)", "run r2 completed"/"failed: <message>"),
// a permission request asked and answered ("permission · Run `make`? · waiting for you: Allow,
// Reject", then "… · allowed once"), a diagnostic ("problem #12 TEXT_MESSAGE_CONTENT: …
// [R6-text-not-open]"). Nothing for deltas
// that change nothing of that. All agent text goes through Plain and onto one line.
//
// It remembers what it printed, so each line appears once, in the order of
// the records; when one Update covers many records the lines come in item
// order (a step's started line right before its finished line).
//
// A step's lines are the states it was seen in, each once, in order. The
// printer sees a step as the fold left it at the end of an Update, so a
// step seen pending, then running, then completed gets three lines, and one
// first seen running gets two. A step is never shown in a state it was not
// seen in, with one exception so that every finished step reads as started:
// a finished line always follows a running line, printed in the same Update
// when the step was not seen running (its end and result came in one
// Update); a step whose permission the user refused never ran and gets
// none. So a
// step seen pending and next seen completed gets pending, running,
// completed; one that appears and finishes within one Update (a whole log
// applied at once) gets running, completed and no pending line; and a step
// that falls back to pending after its running line (a run that ends
// leaving the call to the client) prints nothing for it.
type PlainPrinter struct {
	w io.Writer
	f *fold.Fold

	stepShown   map[int]stepShown // step index → last of its lines printed
	itemDone    map[uint64]bool   // item seq → finished line printed (messages, problems, errors, answers)
	permAsked   map[uint64]bool   // permission item seq → waiting line printed
	runStarted  map[uint64]bool   // run item seq → started line printed
	runEnded    map[uint64]bool   // run item seq → finished line printed
	pendingEnds []*model.Item     // runs that ended in this Update, printed last

	buf strings.Builder
}

// NewPlainPrinter returns a printer of f's changes onto w.
func NewPlainPrinter(w io.Writer, f *fold.Fold) *PlainPrinter {
	return &PlainPrinter{w: w, f: f,
		stepShown: map[int]stepShown{},
		itemDone:  map[uint64]bool{}, permAsked: map[uint64]bool{}, runStarted: map[uint64]bool{}, runEnded: map[uint64]bool{}}
}

// Forget drops what the printer remembers of items older than the fold's
// oldest item (after the fold shed them) and of steps whose last line is
// printed, so that a printer that follows an endless log stays small too.
func (p *PlainPrinter) Forget() {
	oldest := ^uint64(0)
	if items := p.f.Items(); len(items) > 0 {
		oldest = items[0].Seq
	}
	for _, m := range []map[uint64]bool{p.itemDone, p.permAsked, p.runStarted, p.runEnded} {
		for seq := range m {
			if seq < oldest {
				delete(m, seq)
			}
		}
	}
	// A finished step rarely changes again; the newest ones might (a late
	// result), so their lines are remembered, not to print them twice.
	// A step Forget dropped will not change again.
	n := p.f.StepCount()
	for i, shown := range p.stepShown {
		if s := p.f.Step(i); s == nil || shown == shownFinished && i < n-plainKeepSteps && s.Status.Done() {
			delete(p.stepShown, i)
		}
	}
}

// plainKeepSteps is how many of the newest steps Forget remembers.
const plainKeepSteps = 1024

// Print writes the lines for one Apply's Update (call it after every f.Apply).
func (p *PlainPrinter) Print(u fold.Update) error {
	p.buf.Reset()
	items := p.f.Items()
	steps := p.f.Steps()
	seen := map[int]bool{}
	for _, seq := range u.Items {
		i, ok := slices.BinarySearchFunc(items, seq, func(it *model.Item, s uint64) int {
			switch {
			case it.Seq < s:
				return -1
			case it.Seq > s:
				return 1
			}
			return 0
		})
		if !ok {
			continue // evicted
		}
		it := items[i]
		if it.Kind == model.ItemToolCall && p.f.Step(it.Step) != nil {
			seen[it.Step] = true
		}
		p.item(it, steps)
	}
	// Steps whose tool-call item did not change in this Update.
	for _, i := range u.Steps {
		if s := p.f.Step(i); s != nil && !seen[i] {
			p.step(s)
		}
	}
	p.flushRunEnds(steps)
	if p.buf.Len() == 0 {
		return nil
	}
	_, err := io.WriteString(p.w, p.buf.String())
	return err
}

func (p *PlainPrinter) item(it *model.Item, steps []*model.Step) {
	switch it.Kind {
	case model.ItemMessage:
		if !it.Status.Done() || p.itemDone[it.Seq] {
			return
		}
		p.itemDone[it.Seq] = true
		p.line(messageLine(it, ""))
	case model.ItemToolCall:
		if s := p.f.Step(it.Step); s != nil {
			p.step(s)
		}
	case model.ItemRun:
		p.flushRunEnds(steps) // an earlier run ends before a later one starts
		if !p.runStarted[it.Seq] {
			p.runStarted[it.Seq] = true
			s := "run " + plainOneLine(runtree.NameOf(p.f.Runs(), it)) + " started"
			if note := runNoteOf(p.f.Runs(), it); note != "" {
				s += " (" + note + ")"
			}
			p.line(s)
		}
		if it.Status.Done() && !p.runEnded[it.Seq] {
			p.runEnded[it.Seq] = true
			// Printed after the run's own messages and steps of this Update
			// (a whole log applied at once still reads in order).
			p.pendingEnds = append(p.pendingEnds, it)
		}
	case model.ItemPermission:
		// Like a step: a line when it is seen waiting, one when answered.
		if !it.Status.Done() {
			if !p.permAsked[it.Seq] {
				p.permAsked[it.Seq] = true
				p.line(plainOneLine(render.PermissionText(it)))
			}
			return
		}
		if !p.itemDone[it.Seq] {
			p.itemDone[it.Seq] = true
			p.line(plainOneLine(render.PermissionText(it)))
		}
	case model.ItemDiagnostic:
		if p.itemDone[it.Seq] {
			return
		}
		p.itemDone[it.Seq] = true
		typ := it.ID
		if typ == "" {
			typ = "record"
		}
		p.line(fmt.Sprintf("problem #%d %s: %s [%s]", it.FirstSeq, plainOneLine(typ), plainOneLine(it.Text), plainOneLine(it.Name)))
	}
}

// messageLine is a message's line: who spoke, with mark after it, and the
// first line of what was said.
func messageLine(it *model.Item, mark string) string {
	who := it.Role
	switch who {
	case "user":
		who = "you"
	case "assistant", "":
		who = "agent"
	}
	return plainOneLine(who) + mark + ": " + plainFirstLine(it.Text, plainTextMax)
}

// flushRunEnds prints the end lines of the runs that ended, after the
// steps their end settled.
func (p *PlainPrinter) flushRunEnds(steps []*model.Step) {
	for _, it := range p.pendingEnds {
		for _, s := range steps {
			if s.RunID == it.ID && s.Status.Done() {
				p.step(s)
			}
		}
		p.line(p.runEnd(it))
	}
	p.pendingEnds = p.pendingEnds[:0]
}

// runEnd is the finished line of a run item, with the run's outcome.
func (p *PlainPrinter) runEnd(it *model.Item) string {
	var run *model.Run
	runs := p.f.Runs()
	for i := len(runs) - 1; i >= 0; i-- {
		if r := runs[i]; r.RunID == it.ID && r.FirstSeq == it.FirstSeq {
			run = r
			break
		}
	}
	if run == nil {
		return "run " + plainOneLine(it.ID) + " " + string(it.Status)
	}
	s := "run " + plainOneLine(run.Name()) + " " + string(it.Status)
	switch {
	case it.Status == model.StatusFailed:
		if run.Error != "" {
			s += ": " + plainOneLine(run.Error)
		}
		if run.ErrorCode != "" {
			s += " [" + plainOneLine(run.ErrorCode) + "]"
		}
	case run.Outcome != "" && run.Outcome != "success" && run.Outcome != "cancelled":
		s += " (" + plainOneLine(run.Outcome) + ")"
	}
	return s
}

// stepShown is the last of a step's lines printed; the lines come in this order.
type stepShown uint8

const (
	shownNothing stepShown = iota
	shownPending
	shownRunning
	shownFinished
)

// step prints the lines of a step's state not printed yet: pending only as
// its first line, running before finished.
func (p *PlainPrinter) step(s *model.Step) {
	shown := p.stepShown[s.Index]
	switch {
	case s.Status == model.StatusPending:
		if shown == shownNothing {
			p.stepShown[s.Index] = shownPending
			p.line(stepLine(s))
		}
		return
	case s.Status != model.StatusRunning && !s.Status.Done():
		return
	}
	if shown < shownRunning && !s.Refused {
		p.stepShown[s.Index] = shownRunning
		running := *s
		running.Status = model.StatusRunning
		p.line(stepLine(&running))
	}
	if s.Status.Done() && shown < shownFinished {
		p.stepShown[s.Index] = shownFinished
		l := stepLine(s)
		if d := s.Duration(); d > 0 {
			l += " · " + plainDuration(d)
		}
		if s.ExitCode != nil && (*s.ExitCode != 0 || s.Status == model.StatusFailed) {
			if exit := fmt.Sprintf("exit %d", *s.ExitCode); !strings.Contains(l, "("+exit+")") {
				l += " · " + exit
			}
		}
		p.line(l)
	}
}

// stepLine is a step's number, category, status and label.
func stepLine(s *model.Step) string {
	return fmt.Sprintf("step %d %s %s · %s", s.Index+1, plainOneLine(string(s.Category)), s.Status, plainOneLine(s.Label()))
}

func (p *PlainPrinter) line(s string) {
	p.buf.WriteString(s)
	p.buf.WriteByte('\n')
}

// plainDuration is a duration as 412ms, 1.2s or 2m3s.
func plainDuration(d time.Duration) string {
	switch {
	case d < time.Second:
		return fmt.Sprintf("%dms", d.Milliseconds())
	case d < time.Minute:
		return fmt.Sprintf("%.1fs", d.Seconds())
	}
	return d.Round(time.Second).String()
}

// plainOneLine makes untrusted text safe and flat: escapes and controls removed,
// newlines and tabs turned into spaces, runs of spaces collapsed.
func plainOneLine(s string) string {
	return strings.Join(strings.Fields(Plain(s)), " ")
}

// plainFirstLine is the first non-blank line of untrusted text, safe and at most
// limit characters ("…" marks text cut short or more lines following).
func plainFirstLine(s string, limit int) string {
	s = strings.TrimSpace(Plain(s))
	more := false
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		more = strings.TrimSpace(s[i:]) != ""
		s = s[:i]
	}
	s = plainOneLine(s)
	if utf8.RuneCountInString(s) > limit {
		more = true
	}
	if more {
		if r := []rune(s); len(r) > limit-1 {
			s = strings.TrimRight(string(r[:limit-1]), " ")
		}
		s += "…"
	}
	return s
}
