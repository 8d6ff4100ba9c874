package transcript

// This file turns one transcript item into rows, exactly width cells each,
// and caches them per (item, width, version): a finished
// item keeps its version, so it is rendered once per width.

import (
	"bytes"
	"cmp"
	"encoding/json"
	"math"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/agentwatch/agentwatch/internal/sanitize"
	"github.com/agentwatch/agentwatch/model"
	"github.com/agentwatch/agentwatch/tui/render"
	"github.com/agentwatch/agentwatch/tui/runtree"
	"github.com/agentwatch/agentwatch/tui/styles"
	"github.com/charmbracelet/x/ansi"
)

// gutterWidth is the width of the author column ("agent  "); message
// text and the rows of a reply start after it.
const gutterWidth = 7

// gutterMinWidth is the narrowest view that has a gutter; below it the
// author gets a line of its own and everything starts at column 0.
const gutterMinWidth = 32

// renderKey names what a rendering is of: an item, and the part of its text
// (0 for an item drawn whole).
type renderKey struct {
	seq  uint64
	part int
}

// keyOf is the cache key of entry e.
func (t *Transcript) keyOf(e int) renderKey {
	en := t.entry(e)
	return renderKey{seq: t.items[en.item].Seq, part: en.part}
}

// renderedItem is an item's rows for one width, and what they depend on.
type renderedItem struct {
	version uint64
	stepSeq uint64 // the step's LastSeq, for tool calls: steps change without the item
	// stepStatus is the step's status as drawn: a source that ended shows
	// its open steps interrupted without changing them.
	stepStatus model.Status
	width      int
	expanded   bool
	lines      []string
	// card is what the computer card drawn below a reply's last tool call
	// depends on (zero for none); cardRows is its height at the end of
	// lines, and cardStep the step it shows.
	card     cardKey
	cardRows int
	cardStep int
}

// stepOf returns the step a tool-call item shows, or nil.
func (t *Transcript) stepOf(it *model.Item) *model.Step {
	i := t.stepIndex(it)
	if i < 0 {
		return nil
	}
	if s := t.steps[i]; s != nil && s.Index < 0 && t.rowSteps[i] != nil {
		return t.rowSteps[i] // a forgotten step's stand-in, read back
	}
	return t.steps[i]
}

// stepIndex is the index in the steps of the step a tool-call item shows,
// or -1.
func (t *Transcript) stepIndex(it *model.Item) int {
	if it.Kind != model.ItemToolCall {
		return -1
	}
	if it.Step >= 0 && it.Step < len(t.steps) {
		return it.Step
	}
	return -1
}

// lines returns the rows of entry e at the current width, from the cache
// when the item, its step and its expansion have not changed.
func (t *Transcript) lines(e int) []string {
	en := t.entry(e)
	i := en.item
	it := t.items[i]
	var stepSeq uint64
	var status model.Status
	if s := t.stepOf(it); s != nil {
		stepSeq = s.LastSeq + 1 // 0 stays "no step"
		status = s.Status
	}
	exp := it.Kind == model.ItemReasoning && t.expanded[it.Seq]
	card := t.cardOf(i, false)
	key := renderKey{seq: it.Seq, part: en.part}
	if r, ok := t.cache[key]; ok && r.version == it.Version && r.stepSeq == stepSeq && r.stepStatus == status && r.width == t.width && r.expanded == exp && r.card == card.key {
		return r.lines
	}
	t.renders++
	ls := t.render(it, exp, en.part)
	if len(ls) == 0 {
		ls = []string{strings.Repeat(" ", t.width)}
	}
	r := &renderedItem{version: it.Version, stepSeq: stepSeq, stepStatus: status, width: t.width, expanded: exp, lines: ls, card: card.key}
	if card.key.seq != 0 {
		card = t.cardOf(i, true)
		g, _ := t.gutter()
		pad := strings.Repeat(" ", g)
		card.state.Pictures = t.pictures
		cl := ComputerCard(card.state, t.width-g)
		for _, l := range cl {
			r.lines = append(r.lines, pad+l)
		}
		r.cardRows, r.cardStep = len(cl), card.step
	}
	t.cache[key] = r
	return r.lines
}

// heightOf is entry e's height at the current width without rendering it:
// cached, exact for the one-line kinds, estimated for the rest.
func (t *Transcript) heightOf(e int) int {
	en := t.entry(e)
	i := en.item
	it := t.items[i]
	if r, ok := t.cache[renderKey{seq: it.Seq, part: en.part}]; ok && r.width == t.width && r.version == it.Version {
		return len(r.lines)
	}
	w := t.width
	text, first, _ := t.partText(it, en.part)
	head := 0
	if first {
		head = 1
	}
	switch it.Kind {
	case model.ItemMessage:
		g, _ := t.gutter()
		return head + estimateRows(text, w-g)
	case model.ItemReasoning:
		if t.expanded[it.Seq] {
			g, _ := t.gutter()
			return head + estimateRows(text, w-g-2)
		}
	case model.ItemError, model.ItemDiagnostic, model.ItemGap:
		return estimateRows(text, w-2)
	case model.ItemToolCall:
		if t.replies.owner(i) >= 0 {
			// Most replies with tool calls have a card: guess its height.
			if t.compactCards {
				return 1 + 3
			}
			return 1 + 2 + cardThumbRows
		}
	}
	return 1
}

// estimateRows guesses how many lines text takes wrapped at width cells
// (bytes for cells, one line per paragraph at least): close enough to step
// over items during a long scroll.
func estimateRows(text string, width int) int {
	width = max(width, 1)
	n := 0
	for p := range strings.SplitSeq(text, "\n") {
		n += 1 + len(p)/width
	}
	return max(n, 1)
}

// gutter returns the author column's width and whether the author has a
// line of its own.
func (t *Transcript) gutter() (int, bool) {
	if t.width < gutterMinWidth {
		return 0, true
	}
	return gutterWidth, false
}

// maxNest is the most levels a subagent's step is set in by.
const maxNest = 4

// planRows bounds a plan drawn in the transcript.
const planRows = 12

// render draws one item; every line is exactly t.width cells.
func (t *Transcript) render(it *model.Item, expanded bool, part int) []string {
	w := t.width
	g, _ := t.gutter()
	pad := strings.Repeat(" ", g)
	text, first, _ := t.partText(it, part)
	if isCompaction(it) {
		return []string{compactionRow(it, pad, w)}
	}
	switch it.Kind {
	case model.ItemMessage:
		return t.renderMessage(it, text, first)
	case model.ItemReasoning:
		return reasoningRows(text, first, w, pad, expanded)
	case model.ItemToolCall:
		if s := t.stepOf(it); s != nil {
			// A subagent's step sits under the step that started it.
			in := strings.Repeat("  ", min(s.Depth, maxNest))
			return []string{pad + in + render.StepRow(s, w-g-len(in))}
		}
		return []string{dimLine(pad, "○ "+oneLine(it.Name), w)}
	case model.ItemRun:
		return []string{runSeparator(runtree.NameOf(t.runs, it), runtree.NoteOf(t.runs, it), w)}
	case model.ItemError:
		if !first {
			return wrapRows(sanitize.Plain(text), w, styles.ParamRed)
		}
		head := "✗ error"
		if it.Name != "" {
			head += " " + oneLine(it.Name)
		}
		return wrapRows(head+": "+sanitize.Plain(text), w, styles.ParamRed)
	case model.ItemDiagnostic:
		if !first {
			return wrapRows(sanitize.Plain(text), w, styles.ParamRed)
		}
		return wrapRows("⚠ "+sanitize.Plain(text), w, styles.ParamRed)
	case model.ItemPermission:
		return []string{pad + render.PermissionRow(it, w-g)}
	case model.ItemGap:
		// Wrapped, not cut: it may say why reading back failed.
		return wrapRows(oneLine(it.Text), w, styles.ParamDim)
	case model.ItemActivity:
		if line, ok := activityLine(it); ok {
			return []string{dimLine(pad, line, w)}
		}
	case model.ItemPlan:
		// The plan as a checklist: it is replaced as the agent works.
		if lines := render.PlanLines(it.Data, w-g, planRows); lines != nil {
			out := []string{fitLine(styled("plan", styles.ParamDim), w)}
			for _, l := range lines {
				out = append(out, fitLine(pad+l, w))
			}
			return out
		}
	}
	return []string{dimLine(pad, otherLine(it), w)}
}

// renderMessage draws a message: a blank line, then the author in the gutter
// beside the markdown of its text.
func (t *Transcript) renderMessage(it *model.Item, text string, first bool) []string {
	w := t.width
	g, ownLine := t.gutter()
	label, sgr := author(it)
	var out []string
	if first {
		out = append(out, strings.Repeat(" ", w))
		if ownLine {
			out = append(out, fitLine(styled(label, sgr), w))
		}
	}
	var body []string
	if text := strings.TrimSpace(sanitize.Plain(text)); text != "" {
		t.markdownBytes += len(text)
		body = splitMarkdown(t.markdown(text, w-g))
	}
	if len(body) == 0 && first {
		body = []string{styled("…", styles.ParamDim)}
	}
	pad := strings.Repeat(" ", g)
	for i, l := range body {
		prefix := pad
		if i == 0 && first && !ownLine {
			prefix = styled(label, sgr) + strings.Repeat(" ", g-ansi.StringWidth(label))
		}
		out = append(out, fitLine(prefix+l, w))
	}
	return out
}

// author is the gutter word for a message and its colour.
func author(it *model.Item) (string, string) {
	switch {
	case it.SubagentRunID != "" && it.Role == "user":
		return "task", styles.ParamDim // what the agent asked of its subagent
	case it.SubagentRunID != "" && it.Role == "assistant":
		return "sub", styles.ParamAgent
	}
	switch it.Role {
	case "user":
		return "you", styles.ParamYou
	case "assistant":
		return "agent", styles.ParamAgent
	case "developer":
		return "dev", styles.ParamDim
	case "":
		return "msg", styles.ParamDim
	}
	// One space between the gutter and the text is enough: "system" fits.
	return ansi.Truncate(oneLine(it.Role), gutterWidth-1, "…"), styles.ParamDim
}

// reasoningRows draws reasoning collapsed to one dim line, or expanded:
// a header line and the text wrapped below it.
func reasoningRows(text string, first bool, w int, pad string, expanded bool) []string {
	if !expanded {
		return []string{dimLine(pad, "▸ thinking: "+oneLine(text), w)}
	}
	text = strings.TrimSpace(sanitize.Plain(text))
	var out []string
	if first {
		out = append(out, fitLine(pad+styled("▾ thinking", styles.ParamDim), w))
	}
	inner := max(w-len(pad)-2, 1)
	for l := range strings.SplitSeq(ansi.Wrap(text, inner, ""), "\n") {
		out = append(out, fitLine(pad+"  "+styled(l, styles.ParamThought), w))
	}
	return out
}

// runSeparator is a dim rule naming the run (name, from NameOf) and how
// it joins the run tree (note, from NoteOf).
func runSeparator(name, note string, w int) string {
	label := "── run " + name
	if note != "" {
		label += " (" + note + ")"
	}
	label += " "
	if n := ansi.StringWidth(label); n > w {
		label = ansi.Truncate(label, w, "…")
	} else if n := w - n; n > 0 {
		label += strings.Repeat("─", n)
	}
	return fitLine(styled(label, styles.ParamDim), w)
}

// otherLine is the one-line summary of an item of another kind.
func otherLine(it *model.Item) string {
	s := "· " + string(it.Kind)
	if it.Name != "" {
		s += " " + oneLine(it.Name)
	}
	if it.Text != "" {
		s += ": " + oneLine(it.Text)
	}
	if it.Kind == model.ItemPhase && it.Status.Done() {
		s += " ✓"
	}
	if len(it.Data) > 0 {
		if d := compactJSON(it.Data); d != "" {
			s += " " + d
		}
	}
	return s
}

// compactJSON is raw JSON on one line, made safe; at most 512 bytes are
// looked at, as the line is cut to the width anyway.
func compactJSON(raw json.RawMessage) string {
	var b bytes.Buffer
	if err := json.Compact(&b, raw); err != nil {
		return oneLine(string(raw[:min(len(raw), 512)]))
	}
	s := b.String()
	if len(s) > 512 {
		s = s[:512]
		for !utf8.ValidString(s) {
			s = s[:len(s)-1]
		}
	}
	return oneLine(s)
}

// wrapRows wraps plain text to the width in colour sgr, continuation lines
// indented by two cells.
func wrapRows(text string, w int, sgr string) []string {
	var out []string
	for i, l := range strings.Split(ansi.Wrap(strings.TrimRight(text, "\n"), max(w-2, 1), ""), "\n") {
		if i > 0 {
			l = "  " + l
		}
		out = append(out, fitLine(styled(l, sgr), w))
	}
	return out
}

// oneLine is s made safe and flat: no escapes or controls, breaks as
// spaces. A line shows at most a few hundred cells, so only the head of a
// long text is looked at.
func oneLine(s string) string {
	s = strings.Map(func(r rune) rune {
		if r == '\n' || r == '\t' || r == '\r' {
			return ' '
		}
		return r
	}, sanitize.Plain(head(s, oneLineMax)))
	return strings.TrimSpace(s)
}

// oneLineMax is how many bytes of a text a one-line summary looks at.
const oneLineMax = 4 << 10

// dimLine is one dim line of plain text after pad, cut with "…" when it
// is longer than the width.
func dimLine(pad, text string, w int) string {
	if room := w - len(pad); room > 0 && ansi.StringWidth(text) > room {
		text = ansi.Truncate(text, room, "…")
	}
	return fitLine(pad+styled(text, styles.ParamDim), w)
}

// styled wraps s in the SGR sgr and a reset ("" leaves it plain).
func styled(s, sgr string) string {
	if sgr == "" || s == "" {
		return s
	}
	return "\x1b[" + sgr + "m" + s + styles.Reset
}

// fitLine cuts or pads a styled line to exactly w cells, closing any colour
// at the end of its text so nothing bleeds into the padding.
func fitLine(s string, w int) string {
	n := ansi.StringWidth(s)
	if n > w {
		s = ansi.Truncate(s, w, "")
		n = ansi.StringWidth(s)
	}
	if strings.IndexByte(s, 0x1b) >= 0 && !strings.HasSuffix(s, styles.Reset) {
		s += styles.Reset
	}
	return s + strings.Repeat(" ", max(w-n, 0))
}

// replyIndex groups the items into replies for the computer card: a reply
// starts at each user message and at each run separator, and runs up to
// the next one, so a reply is one run's answer to one user message. The
// card is drawn below the reply's last tool-call row.
//
// index is incremental: items are only ever appended by the fold (kinds and
// roles never change), so a longer list with the same first and last known
// items resumes where the last scan stopped.
type replyIndex struct {
	starts   []int   // first item of each reply
	lastTool []int   // last tool-call item of each reply, -1 for none
	of       []int32 // reply of each item
	first    *model.Item
	last     *model.Item
	// runs finds the run separator item of a run id; its status is the
	// run's (open while it runs).
	runs map[string]int
	// stepItem finds the tool-call item that shows a step.
	stepItem map[int]int
}

func (r *replyIndex) index(items []*model.Item) {
	n := len(r.of)
	if n == 0 || len(items) < n || items[0] != r.first || items[n-1] != r.last {
		*r = replyIndex{runs: map[string]int{}, stepItem: map[int]int{}}
		n = 0
	}
	for i := n; i < len(items); i++ {
		it := items[i]
		if len(r.starts) == 0 || it.Kind == model.ItemRun || (it.Kind == model.ItemMessage && it.Role == "user") {
			r.starts = append(r.starts, i)
			r.lastTool = append(r.lastTool, -1)
		}
		k := len(r.starts) - 1
		r.of = append(r.of, int32(k))
		switch it.Kind {
		case model.ItemToolCall:
			r.lastTool[k] = i
			if it.Step >= 0 {
				r.stepItem[it.Step] = i
			}
		case model.ItemRun:
			r.runs[it.ID] = i
		}
	}
	if len(items) > 0 {
		r.first, r.last = items[0], items[len(items)-1]
	}
}

// owner is the reply whose last tool call item i is, or -1.
func (r *replyIndex) owner(i int) int {
	if i < 0 || i >= len(r.of) {
		return -1
	}
	if k := int(r.of[i]); r.lastTool[k] == i {
		return k
	}
	return -1
}

// cardKey is what a card's rendering depends on: the newest change among
// its steps (LastSeq+1, 0 for no card), how many steps, and the live mark.
type cardKey struct {
	seq     uint64
	n       int
	live    bool
	compact bool
}

type card struct {
	key   cardKey
	state CardState
	step  int // index of the current step in Transcript.steps
}

// forgottenOfRun counts the steps of run just before step from that the
// screen forgot (drawn as stand-ins, Index -1, which carry their run but
// not where they began): a reply that starts with its run's row began
// before all of them.
func (t *Transcript) forgottenOfRun(from int, run string) int {
	if from <= 0 || from > len(t.steps) {
		return 0
	}
	c := &t.forgotten
	if c.from == from && c.run == run && c.first == &t.steps[0] {
		return c.n
	}
	n := 0
	for i := from - 1; i >= 0; i-- {
		s := t.steps[i]
		if s == nil || s.Index >= 0 || s.RunID != run {
			break
		}
		n++
	}
	*c = forgottenCount{from: from, run: run, first: &t.steps[0], n: n}
	return n
}

// forgottenCount is the last count forgottenOfRun made: stand-ins never
// change, so it holds while the steps before from are the same ones.
type forgottenCount struct {
	from  int
	run   string
	first **model.Step
	n     int
}

// cardOf is the card drawn below item i: none unless i is the last tool call
// of a reply with a categorized step (category other than "other") or a
// screenshot. The card's current step is the reply's last; it is live while
// the reply is the newest and its run still runs or its last step has not
// finished.
//
// Only with steps is the card's state (the list of its steps) built: the
// key alone is what a cached row is checked against on every frame, and
// building the list for each row in view was most of a frame's garbage.
func (t *Transcript) cardOf(i int, steps bool) card {
	if len(t.replies.of) != len(t.items) {
		t.replies.index(t.items)
	}
	k := t.replies.owner(i)
	if k < 0 {
		return card{}
	}
	end := len(t.items)
	if k+1 < len(t.replies.starts) {
		end = t.replies.starts[k+1]
	}
	var c card
	var last *model.Step
	show := false
	add := func(si int, s *model.Step) {
		if steps {
			c.state.Steps = append(c.state.Steps, s)
		}
		c.key.n++
		c.step, last = si, s
		c.key.seq = max(c.key.seq, s.LastSeq+1)
		if (s.Category != model.CategoryOther && s.Category != "") || len(s.Screenshots) > 0 {
			show = true
		}
	}
	gap := false
	for j := t.replies.starts[k]; j < end; j++ {
		if t.items[j].Kind == model.ItemGap {
			gap = true
		}
		si := t.stepIndex(t.items[j])
		if si < 0 || t.steps[si] == nil {
			continue
		}
		add(si, t.steps[si])
	}
	if gap {
		// Some of the reply's rows were shed, and the steps they showed
		// with them: its steps are those that began between its first row
		// and the next reply's (steps keep their skeleton when shed).
		c, last, show = card{}, nil, false
		lo, hi := t.items[t.replies.starts[k]].FirstSeq, uint64(math.MaxUint64)
		if end < len(t.items) {
			hi = t.items[end].FirstSeq
		}
		from, _ := slices.BinarySearchFunc(t.steps, lo, func(s *model.Step, seq uint64) int {
			if s == nil {
				return -1 // forgotten steps come first
			}
			return cmp.Compare(s.FirstSeq, seq)
		})
		for si := from; si < len(t.steps) && t.steps[si] != nil && t.steps[si].FirstSeq < hi; si++ {
			add(si, t.steps[si])
		}
		// The steps the screen forgot went with the reply's first rows:
		// those of its run, when it starts with the run's row, or with
		// rows not kept and the run of its first step kept.
		run, first := "", t.items[t.replies.starts[k]]
		switch {
		case first.Kind == model.ItemRun:
			run = first.ID
		case first.Kind == model.ItemGap && from < len(t.steps) && t.steps[from] != nil:
			run = t.steps[from].RunID
		}
		if run != "" {
			c.state.Earlier = t.forgottenOfRun(from, run)
			c.key.n += c.state.Earlier
		}
	}
	if !show || last == nil {
		return card{}
	}
	c.state.Current = c.key.n - 1
	if k == len(t.replies.starts)-1 {
		live := !last.Status.Done()
		if ri, ok := t.replies.runs[last.RunID]; ok && ri < len(t.items) && !t.items[ri].Status.Done() {
			live = true
		}
		live = live && !t.quiet
		c.state.Live, c.key.live = live, live
	}
	if c.key.seq != 0 {
		c.state.Compact, c.key.compact = t.compactCards, t.compactCards
	}
	return c
}
