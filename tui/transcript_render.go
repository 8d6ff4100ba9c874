package tui

// This file turns one transcript item into rows, exactly width cells each,
// and caches them per (item, width, version): a finished
// item keeps its version, so it is rendered once per width.

import (
	"bytes"
	"encoding/json"
	"strings"
	"unicode/utf8"

	"charm.land/glamour/v2"
	"charm.land/glamour/v2/styles"
	"github.com/agentwatch/agentwatch/model"
	"github.com/charmbracelet/x/ansi"
)

// transcriptGutter is the width of the author column ("agent  "); message
// text and the rows of a reply start after it.
const transcriptGutter = 7

// transcriptGutterMin is the narrowest view that has a gutter; below it the
// author gets a line of its own and everything starts at column 0.
const transcriptGutterMin = 32

// trKey names what a rendering is of: an item, and the part of its text
// (0 for an item drawn whole).
type trKey struct {
	seq  uint64
	part int
}

// keyOf is the cache key of entry e.
func (t *Transcript) keyOf(e int) trKey {
	en := t.entry(e)
	return trKey{seq: t.items[en.item].Seq, part: en.part}
}

// renderedItem is an item's rows for one width, and what they depend on.
type renderedItem struct {
	version  uint64
	stepSeq  uint64 // the step's LastSeq, for tool calls: steps change without the item
	width    int
	expanded bool
	lines    []string
	// card is what the computer card drawn below a reply's last tool call
	// depends on (zero for none); cardRows is its height at the end of
	// lines, and cardStep the step it shows.
	card     trCardKey
	cardRows int
	cardStep int
}

// stepOf returns the step a tool-call item shows, or nil.
func (t *Transcript) stepOf(it *model.Item) *model.Step {
	if i := t.stepIndex(it); i >= 0 {
		return t.steps[i]
	}
	return nil
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
	if s := t.stepOf(it); s != nil {
		stepSeq = s.LastSeq + 1 // 0 stays "no step"
	}
	exp := it.Kind == model.ItemReasoning && t.expanded[it.Seq]
	card := t.cardOf(i)
	key := trKey{seq: it.Seq, part: en.part}
	if r, ok := t.cache[key]; ok && r.version == it.Version && r.stepSeq == stepSeq && r.width == t.width && r.expanded == exp && r.card == card.key {
		return r.lines
	}
	t.renders++
	ls := t.render(it, exp, en.part)
	if len(ls) == 0 {
		ls = []string{strings.Repeat(" ", t.width)}
	}
	r := &renderedItem{version: it.Version, stepSeq: stepSeq, width: t.width, expanded: exp, lines: ls, card: card.key}
	if card.key.seq != 0 {
		g, _ := t.gutter()
		pad := strings.Repeat(" ", g)
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
	if r, ok := t.cache[trKey{seq: it.Seq, part: en.part}]; ok && r.width == t.width && r.version == it.Version {
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
		return head + trEstimate(text, w-g)
	case model.ItemReasoning:
		if t.expanded[it.Seq] {
			g, _ := t.gutter()
			return head + trEstimate(text, w-g-2)
		}
	case model.ItemError, model.ItemDiagnostic:
		return trEstimate(text, w-2)
	case model.ItemToolCall:
		if t.replies.owner(i) >= 0 {
			// Most replies with tool calls have a card: guess the full one.
			return 1 + 2 + cardThumbRows
		}
	}
	return 1
}

// trEstimate guesses how many lines text takes wrapped at width cells
// (bytes for cells, one line per paragraph at least): close enough to step
// over items during a long scroll.
func trEstimate(text string, width int) int {
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
	if t.width < transcriptGutterMin {
		return 0, true
	}
	return transcriptGutter, false
}

// transcriptPlanRows bounds a plan drawn in the transcript.
const transcriptPlanRows = 12

// render draws one item; every line is exactly t.width cells.
func (t *Transcript) render(it *model.Item, expanded bool, part int) []string {
	w := t.width
	g, _ := t.gutter()
	pad := strings.Repeat(" ", g)
	text, first, _ := t.partText(it, part)
	switch it.Kind {
	case model.ItemMessage:
		return t.renderMessage(it, text, first)
	case model.ItemReasoning:
		return trReasoning(text, first, w, pad, expanded)
	case model.ItemToolCall:
		if s := t.stepOf(it); s != nil {
			return []string{pad + StepRow(s, w-g)}
		}
		return []string{trDimLine(pad, "○ "+trOneLine(it.Name), w)}
	case model.ItemRun:
		return []string{trRunSeparator(it, runNoteOf(t.runs, it), w)}
	case model.ItemError:
		if !first {
			return trWrapRows(Plain(text), w, tlRed)
		}
		head := "✗ error"
		if it.Name != "" {
			head += " " + trOneLine(it.Name)
		}
		return trWrapRows(head+": "+Plain(text), w, tlRed)
	case model.ItemDiagnostic:
		if !first {
			return trWrapRows(Plain(text), w, tlRed)
		}
		return trWrapRows("⚠ "+Plain(text), w, tlRed)
	case model.ItemPlan:
		// The plan as a checklist: it is replaced as the agent works.
		if lines := PlanLines(it.Data, w-g, transcriptPlanRows); lines != nil {
			out := []string{trFitLine(trStyled("plan", tlDim), w)}
			for _, l := range lines {
				out = append(out, trFitLine(pad+l, w))
			}
			return out
		}
	}
	return []string{trDimLine(pad, trOtherLine(it), w)}
}

// renderMessage draws a message: a blank line, then the author in the gutter
// beside the markdown of its text.
func (t *Transcript) renderMessage(it *model.Item, text string, first bool) []string {
	w := t.width
	g, ownLine := t.gutter()
	label, sgr := trAuthor(it)
	var out []string
	if first {
		out = append(out, strings.Repeat(" ", w))
		if ownLine {
			out = append(out, trFitLine(trStyled(label, sgr), w))
		}
	}
	var body []string
	if text := strings.TrimSpace(Plain(text)); text != "" {
		body = trSplitMarkdown(t.markdown(text, w-g))
	}
	if len(body) == 0 && first {
		body = []string{trStyled("…", tlDim)}
	}
	pad := strings.Repeat(" ", g)
	for i, l := range body {
		prefix := pad
		if i == 0 && first && !ownLine {
			prefix = trStyled(label, sgr) + strings.Repeat(" ", g-ansi.StringWidth(label))
		}
		out = append(out, trFitLine(prefix+l, w))
	}
	return out
}

// trAuthor is the gutter word for a message and its colour.
func trAuthor(it *model.Item) (string, string) {
	switch it.Role {
	case "user":
		return "you", "1;36"
	case "assistant":
		return "agent", "1;35"
	case "developer":
		return "dev", tlDim
	case "":
		return "msg", tlDim
	}
	return ansi.Truncate(trOneLine(it.Role), transcriptGutter-2, "…"), tlDim
}

// trReasoning draws reasoning collapsed to one dim line, or expanded:
// a header line and the text wrapped below it.
func trReasoning(text string, first bool, w int, pad string, expanded bool) []string {
	if !expanded {
		return []string{trDimLine(pad, "▸ thinking: "+trOneLine(text), w)}
	}
	text = strings.TrimSpace(Plain(text))
	var out []string
	if first {
		out = append(out, trFitLine(pad+trStyled("▾ thinking", tlDim), w))
	}
	inner := max(w-len(pad)-2, 1)
	for l := range strings.SplitSeq(ansi.Wrap(text, inner, ""), "\n") {
		out = append(out, trFitLine(pad+"  "+trStyled(l, "2;3"), w))
	}
	return out
}

// trRunSeparator is a dim rule naming the run and how it joins the run
// tree (note, from RunNote).
func trRunSeparator(it *model.Item, note string, w int) string {
	label := "── run " + trOneLine(it.ID)
	if note != "" {
		label += " (" + note + ")"
	}
	label += " "
	if n := ansi.StringWidth(label); n > w {
		label = ansi.Truncate(label, w, "…")
	} else if n := w - n; n > 0 {
		label += strings.Repeat("─", n)
	}
	return trFitLine(trStyled(label, tlDim), w)
}

// trOtherLine is the one-line summary of an item of another kind.
func trOtherLine(it *model.Item) string {
	s := "· " + string(it.Kind)
	if it.Name != "" {
		s += " " + trOneLine(it.Name)
	}
	if it.Text != "" {
		s += ": " + trOneLine(it.Text)
	}
	if it.Kind == model.ItemPhase && it.Status.Done() {
		s += " ✓"
	}
	if len(it.Data) > 0 {
		if d := trCompactJSON(it.Data); d != "" {
			s += " " + d
		}
	}
	return s
}

// trCompactJSON is raw JSON on one line, made safe; at most 512 bytes are
// looked at, as the line is cut to the width anyway.
func trCompactJSON(raw json.RawMessage) string {
	var b bytes.Buffer
	if err := json.Compact(&b, raw); err != nil {
		return trOneLine(string(raw[:min(len(raw), 512)]))
	}
	s := b.String()
	if len(s) > 512 {
		s = s[:512]
		for !utf8.ValidString(s) {
			s = s[:len(s)-1]
		}
	}
	return trOneLine(s)
}

// trWrapRows wraps plain text to the width in colour sgr, continuation lines
// indented by two cells.
func trWrapRows(text string, w int, sgr string) []string {
	var out []string
	for i, l := range strings.Split(ansi.Wrap(strings.TrimRight(text, "\n"), max(w-2, 1), ""), "\n") {
		if i > 0 {
			l = "  " + l
		}
		out = append(out, trFitLine(trStyled(l, sgr), w))
	}
	return out
}

// trOneLine is s made safe and flat: no escapes or controls, breaks as
// spaces. A line shows at most a few hundred cells, so only the head of a
// long text is looked at.
func trOneLine(s string) string {
	s = strings.Map(func(r rune) rune {
		if r == '\n' || r == '\t' || r == '\r' {
			return ' '
		}
		return r
	}, Plain(trHead(s, trOneLineMax)))
	return strings.TrimSpace(s)
}

// trOneLineMax is how many bytes of a text a one-line summary looks at.
const trOneLineMax = 4 << 10

// trDimLine is one dim line of plain text after pad, cut with "…" when it
// is longer than the width.
func trDimLine(pad, text string, w int) string {
	if room := w - len(pad); room > 0 && ansi.StringWidth(text) > room {
		text = ansi.Truncate(text, room, "…")
	}
	return trFitLine(pad+trStyled(text, tlDim), w)
}

// trStyled wraps s in the SGR sgr and a reset ("" leaves it plain).
func trStyled(s, sgr string) string {
	if sgr == "" || s == "" {
		return s
	}
	return "\x1b[" + sgr + "m" + s + reset
}

// trFitLine cuts or pads a trStyled line to exactly w cells, closing any colour
// at the end of its text so nothing bleeds into the padding.
func trFitLine(s string, w int) string {
	n := ansi.StringWidth(s)
	if n > w {
		s = ansi.Truncate(s, w, "")
		n = ansi.StringWidth(s)
	}
	if strings.IndexByte(s, 0x1b) >= 0 && !strings.HasSuffix(s, reset) {
		s += reset
	}
	return s + strings.Repeat(" ", max(w-n, 0))
}

// trMarkdown keeps one glamour renderer per wrap width: building one
// parses the style, so it is done once per width, not per message.
type trMarkdown struct {
	byWidth map[int]*glamour.TermRenderer
	light   bool // glamour's light style, for light terminal backgrounds
}

// render draws markdown in glamour's dark (or light) style wrapped to width cells,
// without the document's margins (the transcript has its own gutter).
// The text is sanitized before and after: glamour turns links into OSC 8
// hyperlinks, which agent text must not emit.
func (m *trMarkdown) render(src string, width int) string {
	width = max(width, 1)
	r := m.byWidth[width]
	if r == nil {
		st := styles.DarkStyleConfig
		if m.light {
			st = styles.LightStyleConfig
		}
		var zero uint
		st.Document.Margin = &zero
		st.Document.BlockPrefix, st.Document.BlockSuffix = "", ""
		var err error
		r, err = glamour.NewTermRenderer(glamour.WithStyles(st), glamour.WithWordWrap(width))
		if err != nil {
			return ansi.Wrap(src, width, "")
		}
		if len(m.byWidth) >= 8 {
			m.byWidth = nil // widths change rarely; a resize drag leaves a few
		}
		if m.byWidth == nil {
			m.byWidth = map[int]*glamour.TermRenderer{}
		}
		m.byWidth[width] = r
	}
	out, err := r.Render(src)
	if err != nil {
		return ansi.Wrap(src, width, "")
	}
	return out
}

// trSplitMarkdown splits rendered markdown into lines made safe (SGR only),
// without the padding glamour adds, and without blank lines at the ends.
func trSplitMarkdown(s string) []string {
	s = SafeSGR(s)
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		lines[i] = trTrimPadding(l)
	}
	for len(lines) > 0 && trIsBlank(lines[0]) {
		lines = lines[1:]
	}
	for len(lines) > 0 && trIsBlank(lines[len(lines)-1]) {
		lines = lines[:len(lines)-1]
	}
	return lines
}

func trIsBlank(l string) bool { return strings.TrimSpace(ansi.Strip(l)) == "" }

// trTrimPadding drops the invisible tail glamour pads each line with: spaces
// in a foreground-only colour, and colour changes with nothing after them.
// It keeps a heading's coloured background. Each padding space comes with
// its own SGR pair, so without this a line is several times longer.
func trTrimPadding(l string) string {
	for {
		switch {
		case strings.HasSuffix(l, " "):
			if i := strings.LastIndex(l, "\x1b["); i >= 0 {
				if j := strings.IndexByte(l[i:], 'm'); j < 0 || !trInvisibleSpaces(l[i:i+j+1]) {
					return l
				}
			}
			l = l[:len(l)-1]
		case strings.HasSuffix(l, "m"):
			i := strings.LastIndex(l, "\x1b[")
			if i < 0 || strings.ContainsAny(l[i+2:len(l)-1], "m\x1b") {
				return l
			}
			l = l[:i]
		default:
			return l
		}
	}
}

// trInvisibleSpaces reports whether spaces drawn after the SGR sequence seq
// show nothing: no background, underline, reverse or strike-through.
func trInvisibleSpaces(seq string) bool {
	params := strings.TrimSuffix(strings.TrimPrefix(seq, "\x1b["), "m")
	ps := strings.Split(params, ";")
	for i := 0; i < len(ps); i++ {
		switch p := ps[i]; {
		case p == "38":
			// 38;5;n or 38;2;r;g;b: skip the colour's arguments.
			if i+1 < len(ps) && ps[i+1] == "5" {
				i += 2
			} else if i+1 < len(ps) && ps[i+1] == "2" {
				i += 4
			}
		case p == "4", p == "7", p == "9", p == "48", p == "53",
			len(p) == 2 && p[0] == '4' && p[1] != '9',
			len(p) == 3 && p[0] == '1' && p[1] == '0':
			return false
		}
	}
	return true
}

// trReplies groups the items into replies for the computer card: a reply
// starts at each user message and at each run separator, and runs up to
// the next one, so a reply is one run's answer to one user message. The
// card is drawn below the reply's last tool-call row.
//
// index is incremental: items are only ever appended by the fold (kinds and
// roles never change), so a longer list with the same first and last known
// items resumes where the last scan stopped.
type trReplies struct {
	starts   []int   // first item of each reply
	lastTool []int   // last tool-call item of each reply, -1 for none
	of       []int32 // reply of each item
	first    *model.Item
	last     *model.Item
	// runs finds the run separator item of a run id; its status is the
	// run's (open while it runs).
	runs map[string]int
}

func (r *trReplies) index(items []*model.Item) {
	n := len(r.of)
	if n == 0 || len(items) < n || items[0] != r.first || items[n-1] != r.last {
		*r = trReplies{runs: map[string]int{}}
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
		case model.ItemRun:
			r.runs[it.ID] = i
		}
	}
	if len(items) > 0 {
		r.first, r.last = items[0], items[len(items)-1]
	}
}

// owner is the reply whose last tool call item i is, or -1.
func (r *trReplies) owner(i int) int {
	if i < 0 || i >= len(r.of) {
		return -1
	}
	if k := int(r.of[i]); r.lastTool[k] == i {
		return k
	}
	return -1
}

// trCardKey is what a card's rendering depends on: the newest change among
// its steps (LastSeq+1, 0 for no card), how many steps, and the live mark.
type trCardKey struct {
	seq  uint64
	n    int
	live bool
}

type trCard struct {
	key   trCardKey
	state CardState
	step  int // index of the current step in Transcript.steps
}

// cardOf is the card drawn below item i: none unless i is the last tool call
// of a reply with a categorized step (category other than "other") or a
// screenshot. The card's current step is the reply's last; it is live while
// the reply is the newest and its run still runs or its last step has not
// finished.
func (t *Transcript) cardOf(i int) trCard {
	if len(t.replies.of) != len(t.items) {
		t.replies.index(t.items)
	}
	k := t.replies.owner(i)
	if k < 0 {
		return trCard{}
	}
	end := len(t.items)
	if k+1 < len(t.replies.starts) {
		end = t.replies.starts[k+1]
	}
	var c trCard
	show := false
	for j := t.replies.starts[k]; j < end; j++ {
		si := t.stepIndex(t.items[j])
		if si < 0 {
			continue
		}
		s := t.steps[si]
		if s == nil {
			continue
		}
		c.state.Steps = append(c.state.Steps, s)
		c.step = si
		c.key.seq = max(c.key.seq, s.LastSeq+1)
		if (s.Category != model.CategoryOther && s.Category != "") || len(s.Screenshots) > 0 {
			show = true
		}
	}
	if !show {
		return trCard{}
	}
	c.key.n = len(c.state.Steps)
	c.state.Current = c.key.n - 1
	if k == len(t.replies.starts)-1 {
		last := c.state.Steps[c.key.n-1]
		live := !last.Status.Done()
		if ri, ok := t.replies.runs[last.RunID]; ok && ri < len(t.items) && !t.items[ri].Status.Done() {
			live = true
		}
		c.state.Live, c.key.live = live, live
	}
	return c
}
