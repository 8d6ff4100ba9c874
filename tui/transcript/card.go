package transcript

// This file draws a reply's steps as the transcript shows them:
// one row per tool call, and the computer card that sums up what the
// agent did on its computer — the latest screenshot or the current step's
// icon, the current operation, the step count and a live mark. Both are pure:
// the transcript caches what they return per (item, width, version).

import (
	"strconv"
	"strings"

	"github.com/agentwatch/agentwatch/model"
	"github.com/agentwatch/agentwatch/tui/images"
	"github.com/agentwatch/agentwatch/tui/render"
	"github.com/agentwatch/agentwatch/tui/styles"
	"github.com/charmbracelet/x/ansi"
)

// Thumbnail size of the computer card, in cells.
const (
	cardThumbCols = 12
	cardThumbRows = 4
)

// CardCompactWidth is the narrowest width at which ComputerCard draws the
// full six-line card; below it the card is three lines without a thumbnail.
const CardCompactWidth = 24

// CardState is what a computer card shows for one reply: its steps, the one
// the card is about (usually the newest), and whether the reply still streams.
type CardState struct {
	Steps   []*model.Step
	Current int
	// Earlier counts the reply's steps before Steps that the screen no
	// longer keeps; "N steps" counts them too.
	Earlier int
	Live    bool
	// Compact draws the three-line card whatever the width: a short
	// transcript keeps its rows for the conversation.
	Compact bool
	// Pictures draws the thumbnail (nil: half blocks); the lines need
	// its Commands sent before they show.
	Pictures *images.Terminal
}

// ComputerCard draws the card: a rounded box (╭─ computer ─╮ …) width cells wide;
// left a thumbnail of the latest screenshot among Steps[:Current+1] (drawn by
// Pictures in 12×4 cells) or, without one, the current step's category icon in a 12×4 area;
// right the current operation (the current step's Label, Plain, cut), below it
// "N steps" and "● LIVE" (green) while Live; 6 lines high. width < 24 gives a
// compact 3-line card without thumbnail.
//
// The full card's third content line is the current step's status with its
// exit code and duration ("✗ failed · exit 2 · 1.2s"). The compact card puts
// the operation on its middle line and the count and live mark in its bottom
// border, shortened ("7 ●") as the width requires. Every line is exactly
// width cells; a width below 2 has no room for a box and gives blank lines,
// and a width below 1 gives nil. Current is clamped to the steps.
//
// The screenshot is decoded on every call, so the caller caches the lines
// per reply, version and width, as every transcript row is cached.
func ComputerCard(c CardState, width int) []string {
	if width <= 0 {
		return nil
	}
	n := len(c.Steps)
	cur := max(0, min(c.Current, n-1))
	var step *model.Step
	if n > 0 {
		step = c.Steps[cur]
	}
	if width < 2 {
		return []string{" ", " ", " "}
	}
	if width < CardCompactWidth || c.Compact {
		return compactCard(step, c.Earlier+n, c.Live, width)
	}

	// │ thumb(12) ␣␣ text ␣│
	textW := width - 4 - cardThumbCols - 2
	thumb := cardThumbnail(c.Pictures, c.Steps, cur)

	rows := make([]string, 0, cardThumbRows)
	for row := range cardThumbRows {
		sub := render.NewLine(textW)
		switch {
		case row == 0 && step != nil:
			sub.Cut(render.StepLabel(step), textW, styles.ParamBold)
		case row == 1:
			sub.Put(stepCount(c.Earlier+n), "")
			if c.Live {
				sub.Put(" · ", styles.ParamDim)
				sub.Put("● LIVE", styles.ParamGreen)
			}
		case row == 2 && step != nil:
			glyph, sgr := render.StepGlyph(step.Status)
			sub.Put(glyph+" "+render.StepStatusWord(step.Status), sgr)
			exit, dur := render.StepResult(step)
			if exit != "" || dur != "" {
				sub.Put(" · ", styles.ParamDim)
				sub.WriteResult(exit, dur)
			}
		}
		rows = append(rows, thumb[row]+"  "+sub.String())
	}
	return styles.Frame(cardTitle, "", rows, width, styles.CardBorder)
}

// cardTitle is the card's name in its top edge.
const cardTitle = "computer"

func stepCount(n int) string {
	if n == 1 {
		return "1 step"
	}
	return strconv.Itoa(n) + " steps"
}

// compactCard is the three-line card for narrow widths: the box, the icon
// and operation inside it, and the step count and live mark in the bottom
// border, as much of them as fits.
func compactCard(step *model.Step, n int, live bool, width int) []string {
	pad := 0 // a space inside each side of the box, when there is room
	if width >= 7 {
		pad = 1
	}
	body := render.NewLine(width - 2 - 2*pad)
	if step != nil {
		body.Put(render.CategoryIcon(step.Category)+" ", "")
		body.Cut(render.StepLabel(step), body.Room(), styles.ParamBold)
	}
	// The longest of these that fits in the bottom border.
	count := strconv.Itoa(n)
	candidates := [][2]string{{stepCount(n), "● LIVE"}, {count, "● LIVE"}, {count, "●"}, {count, ""}}
	if !live {
		candidates = [][2]string{{stepCount(n), ""}, {count, ""}}
	}
	footer := ""
	for _, m := range candidates {
		cells := len(m[0])
		if m[1] != "" {
			cells += 1 + ansi.StringWidth(m[1])
		}
		if width-2 >= cells+4 { // "─ " before, " ─" after
			footer = m[0]
			if m[1] != "" {
				footer += " " + styles.Green(m[1])
			}
			break
		}
	}
	return styles.Frame(cardTitle, footer, []string{body.String()}, width, styles.CardBorder)
}

// cardThumbnail returns the card's 12×4 left area: the latest screenshot of
// steps[:cur+1] that decodes, drawn by pics, or else the current step's
// category icon and short name centred in blank cells.
func cardThumbnail(pics *images.Terminal, steps []*model.Step, cur int) []string {
	for i := min(cur, len(steps)-1); i >= 0; i-- {
		s := steps[i]
		if s == nil {
			continue
		}
		for j := len(s.Screenshots) - 1; j >= 0; j-- {
			shot := s.Screenshots[j]
			if len(shot.Data) == 0 || shot.Truncated {
				continue
			}
			img, err := pics.Open(shot.Data)
			if err != nil {
				continue // a broken picture should not hide an older good one
			}
			if lines := img.Lines(cardThumbCols, cardThumbRows); len(lines) == cardThumbRows {
				return lines
			}
		}
	}
	blank := strings.Repeat(" ", cardThumbCols)
	lines := []string{blank, blank, blank, blank}
	c, status := model.CategoryOther, model.StatusPending
	if cur >= 0 && cur < len(steps) && steps[cur] != nil {
		c, status = steps[cur].Category, steps[cur].Status
	}
	_, sgr := render.StepGlyph(status)
	if status == model.StatusPending {
		sgr = ""
	}
	lines[1] = centred(render.CategoryIcon(c), sgr)
	lines[2] = centred(render.CategoryShort(c), styles.ParamDim)
	return lines
}

// centred is text (one line, ASCII or one-cell glyphs) in colour sgr,
// centred in the thumbnail's width.
func centred(text, sgr string) string {
	cells := ansi.StringWidth(text)
	left := (cardThumbCols - cells) / 2
	w := render.NewLine(cardThumbCols)
	w.Spaces(left)
	w.Put(text, sgr)
	return w.String()
}
