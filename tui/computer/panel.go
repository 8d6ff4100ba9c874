package computer

// This file draws the body of the computer panel: one view per step
// category, built from the pure renderers of package render
// (TerminalLines, DiffLines, SourceLines, HalfBlock), and the status line
// under it. The views themselves are in views.go.

import (
	"encoding/json"
	"strconv"
	"strings"

	"github.com/agentwatch/agentwatch/internal/sanitize"
	"github.com/agentwatch/agentwatch/model"
	"github.com/agentwatch/agentwatch/tui/images"
	"github.com/agentwatch/agentwatch/tui/render"
	"github.com/agentwatch/agentwatch/tui/styles"
)

const (
	// panelShotMinHeight is the lowest panel that shows the screenshot of
	// a step whose category is not fetch; below it the view keeps every line.
	panelShotMinHeight = 8
	// panelShotMinRows is the fewest rows a screenshot is drawn in: fewer
	// show a smear, not a picture.
	panelShotMinRows = 3
)

// PanelLines draws the body of the computer panel for one step in width×height
// cells: a view chosen by the step's category. execute: "$ <command>" then the
// output (render.TerminalLines). edit: the step's Diffs (an ACP diff, one unified diff
// per file), else the diff (render.DiffLines) from the args' "diff" member (or the
// result when it is a diff), else args/result as JSON. read: the file
// text with colours (render.SourceLines, path = Location). search: the query line then
// result lines, matches of the query highlighted. fetch: the URL line, then the
// screenshot (render.HalfBlock, up to half the height) when there is one, then the text.
// think: the thought text wrapped to the width. delete/move/switch_mode/other: a
// one-line summary (e.g. "Deleted internal/x.go", "Moved a → b", "Mode → code",
// "Used <tool>") then the arguments and the result as indented JSON with colours
// (keys blue, strings green, numbers yellow, literals magenta). Any view falls back
// to that JSON view when its data is missing. Screenshots of a non-fetch step are
// shown under its view when there is room. Every line exactly width cells
// (ansi.StringWidth; pad), at most height lines, only SGR escapes, Plain/SafeSGR on
// all agent text; width/height < 1 gives nil.
//
// A failed read shows the JSON view too: its result is an error message,
// not the file. A nil step gives nil. The latest screenshot that decodes is
// the one drawn, in half blocks, and it is decoded on every call, so the
// caller caches the lines per (step, version, width, height) like every
// other rendered row.
func PanelLines(s *model.Step, width, height int) []string {
	if s == nil || width < 1 || height < 1 {
		return nil
	}
	a := parseArgs(s.ArgsJSON)
	img := stepScreenshot(s, nil)

	var lines []string
	room := height
	if s.Category == model.CategoryFetch {
		lines = fetchView(s, a, img, width, height, height)
		img = nil // drawn inside the view (which falls back only without it)
	} else {
		if img != nil && height >= panelShotMinHeight {
			room = height - height/2
		}
		lines = categoryView(s, a, width, room, false)
	}
	if lines == nil {
		lines = jsonView(s, a, width, room)
	}
	if img != nil && height >= panelShotMinHeight {
		gap := 1
		if len(lines) == 0 {
			gap = 0
		}
		if rows := height - len(lines) - gap; rows >= panelShotMinRows {
			if gap > 0 {
				lines = append(lines, "")
			}
			lines = append(lines, screenshotLines(img, width, rows)...)
		}
	}
	if len(lines) > height {
		lines = lines[:height]
	}
	for i, l := range lines {
		lines[i] = render.Pad(l, width)
	}
	return lines
}

// PanelDoc is the whole of the panel's view of a step, for a panel that
// scrolls: what PanelLines draws, but with every line of the output, diff,
// file or text rather than as many as fit, and a screenshot sized for a
// view height rows high after them. It stops at limit lines, the last one
// then saying how many more there are, so that a caller can render what
// it shows first and ask for more as the view scrolls down. The screenshot
// is drawn the way pics draws pictures (half blocks when pics is nil); the
// lines need pics.Commands sent before they show.
func PanelDoc(s *model.Step, width, height, limit int, pics *images.Terminal) []string {
	if s == nil || width < 1 || height < 1 || limit < 1 {
		return nil
	}
	a := parseArgs(s.ArgsJSON)
	img := stepScreenshot(s, pics)
	shot := 0
	if img != nil && s.Category != model.CategoryFetch && height >= panelShotMinHeight {
		shot = height / 2
	}
	room := limit
	if shot > 0 {
		room = max(1, limit-shot-1)
	}
	var lines []string
	if s.Category == model.CategoryFetch {
		lines = fetchView(s, a, img, width, height, limit)
	} else {
		lines = categoryView(s, a, width, room, true)
	}
	if lines == nil {
		lines = jsonView(s, a, width, room)
	}
	if shot >= panelShotMinRows {
		if len(lines) > 0 {
			lines = append(lines, "")
		}
		lines = append(lines, screenshotLines(img, width, shot)...)
	}
	if len(lines) > limit {
		lines = lines[:limit]
	}
	for i, l := range lines {
		lines[i] = render.Pad(l, width)
	}
	return lines
}

// categoryView returns the step's own view in width×height cells, or nil
// when the step lacks what that view shows. A view for scrolling (whole)
// shows a long output from its head, not its head and tail.
func categoryView(s *model.Step, a stepArgs, width, height int, whole bool) []string {
	switch s.Category {
	case model.CategoryExecute:
		return executeView(s, a, width, height, whole)
	case model.CategoryEdit:
		return editView(s, a, width, height)
	case model.CategoryRead:
		return readView(s, a, width, height)
	case model.CategorySearch:
		return searchView(s, a, width, height)
	case model.CategoryThink:
		return thinkView(s, a, width, height)
	}
	return nil // delete, move, switch_mode, other: the JSON view is theirs
}

// PanelStatus is the line under the view: "step N of M · status · duration" (+ " · exit 2").
//
// index is the step's 0-based position among total steps, shown 1-based.
// The status word is coloured as the step's glyph is (running yellow, done
// green, failed red); the duration is left out when unknown and the exit
// code when it is zero or unknown. The line is exactly width cells, cut with
// "…"; a nil step gives a blank line and a width below 1 "".
func PanelStatus(s *model.Step, index, total, width int) string {
	return StatusLine(StatusInfo{Step: s, Index: index, Total: total}, width)
}

// ScrollPos is where a scrolled view is: the first and the last line
// shown (from 1) of Of lines; More says the view goes on past Of.
type ScrollPos struct {
	From, To, Of int
	More         bool
}

// StatusInfo is what the status line under the panel's view says.
type StatusInfo struct {
	Step *model.Step
	// Index is the step's position among Total steps, from 0: among the
	// steps a filter shows when there is one.
	Index, Total int
	// At is where the view is scrolled to.
	At ScrollPos
	// Filter is the filter in force, "" for none.
	Filter string
}

// StatusLine is PanelStatus for a view that scrolls and steps that may be
// filtered: when the view has more lines than it shows, the line says
// where it is ("lines 41–60 of 214", "of 240+" while the rest is not
// rendered yet), and a filter in force is named ("filter failed"), so
// "step 3 of 12" is read as the filter's.
func StatusLine(in StatusInfo, width int) string {
	if width < 1 {
		return ""
	}
	w := render.NewLine(width)
	s := in.Step
	if s == nil {
		return w.String()
	}
	text := "step " + strconv.Itoa(in.Index+1) + " of " + strconv.Itoa(in.Total)
	_, sgr := render.StepGlyph(s.Status)
	parts := []struct{ text, sgr string }{{text, ""}, {render.StepStatusWord(s.Status), sgr}}
	exit, dur := render.StepResult(s)
	if dur != "" {
		parts = append(parts, struct{ text, sgr string }{dur, styles.ParamDim})
	}
	if exit != "" {
		parts = append(parts, struct{ text, sgr string }{exit, styles.ParamRed})
	}
	if at := in.At; at.Of > 0 && (at.From > 1 || at.To < at.Of || at.More) {
		of := strconv.Itoa(at.Of)
		if at.More {
			of += "+"
		}
		parts = append(parts, struct{ text, sgr string }{"lines " + strconv.Itoa(at.From) + "–" + strconv.Itoa(at.To) + " of " + of, styles.ParamDim})
	}
	if in.Filter != "" {
		parts = append(parts, struct{ text, sgr string }{"filter " + sanitize.OneLine(in.Filter), styles.ParamYellow})
	}
	for i, p := range parts {
		if i > 0 {
			w.Put(" · ", styles.ParamDim)
		}
		// Cut each part with "…" when it meets the edge, so a cut line
		// still says it was cut.
		w.Cut(p.text, w.Room(), p.sgr)
	}
	return w.String()
}

// stepArgs is a step's arguments as JSON object members, nil when they are
// not a JSON object.
type stepArgs map[string]json.RawMessage

func parseArgs(raw json.RawMessage) stepArgs {
	if len(raw) == 0 {
		return nil
	}
	var a stepArgs
	if json.Unmarshal(raw, &a) != nil {
		return nil
	}
	return a
}

// str returns the first of keys that holds a non-empty string, or an array
// of strings joined by spaces (a command such as ["bash", "-lc", "ls"]).
func (a stepArgs) str(keys ...string) string {
	for _, k := range keys {
		v, ok := a[k]
		if !ok {
			continue
		}
		var s string
		if json.Unmarshal(v, &s) == nil && s != "" {
			return s
		}
		var list []string
		if json.Unmarshal(v, &list) == nil && len(list) > 0 {
			return strings.Join(list, " ")
		}
	}
	return ""
}

// flag reports whether any of keys holds true.
func (a stepArgs) flag(keys ...string) bool {
	for _, k := range keys {
		var b bool
		if v, ok := a[k]; ok && json.Unmarshal(v, &b) == nil && b {
			return true
		}
	}
	return false
}

// stepScreenshot returns the step's latest screenshot that decodes, opened
// to be drawn on pics, or nil.
func stepScreenshot(s *model.Step, pics *images.Terminal) *images.Picture {
	for i := len(s.Screenshots) - 1; i >= 0; i-- {
		shot := s.Screenshots[i]
		if len(shot.Data) == 0 || shot.Truncated {
			continue
		}
		if img, err := pics.Open(shot.Data); err == nil {
			return img
		}
	}
	return nil
}

// screenshotLines draws img at most rows high across width cells, in as
// many rows as the picture needs: a picture is centred in its box, and
// blank rows above and below it would only push the view apart.
func screenshotLines(img *images.Picture, width, rows int) []string {
	return img.Lines(width, img.Rows(width, rows))
}

// oneLine makes agent text safe and flat for a single line: escapes and
// controls removed, line breaks shown as "↵", tabs as spaces.
func oneLine(s string) string {
	s = sanitize.Plain(strings.TrimSpace(s))
	if strings.IndexByte(s, '\n') >= 0 {
		s = strings.ReplaceAll(s, "\n", " ↵ ")
	}
	return strings.ReplaceAll(s, "\t", " ")
}
