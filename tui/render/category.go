package render

// This file holds how each step category looks: its one-cell icon and its
// short word, on chips, cards and rows.

import (
	"github.com/agentwatch/agentwatch/model"
	"github.com/charmbracelet/x/ansi"
)

// chipFace is how one category looks on a chip.
type chipFace struct {
	icon, short string
	text        string // icon, space, short
	width       int    // cells of text
}

var chipFaces = map[model.Category]chipFace{}

func init() {
	for _, f := range []struct {
		c           model.Category
		icon, short string
	}{
		// One cell each in common terminals (none has an emoji presentation),
		// and none reuses a glyph of the slider (✗ ● ○ ◉) or the buttons (◀ ▶).
		{model.CategoryRead, "▤", "read"},
		{model.CategoryEdit, "✎", "edit"},
		{model.CategoryDelete, "⌫", "del"},
		{model.CategoryMove, "⇄", "move"},
		{model.CategorySearch, "⌕", "find"},
		{model.CategoryExecute, "❯", "exec"},
		{model.CategoryThink, "◌", "think"},
		{model.CategoryFetch, "⇣", "fetch"},
		{model.CategorySwitchMode, "⇆", "mode"},
		{model.CategoryOther, "•", "tool"},
	} {
		text := f.icon + " " + f.short
		chipFaces[f.c] = chipFace{icon: f.icon, short: f.short, text: text, width: ansi.StringWidth(text)}
	}
}

func chipFaceOf(c model.Category) chipFace {
	if f, ok := chipFaces[c]; ok {
		return f
	}
	return chipFaces[model.CategoryOther]
}

// CategoryIcon returns the one-cell glyph that stands for a category on chips
// and cards; a category agentwatch does not know gets the one for other.
func CategoryIcon(c model.Category) string { return chipFaceOf(c).icon }

// CategoryShort returns a category as a word of at most five letters, for
// chips: read, edit, del, move, find, exec, think, fetch, mode, tool.
func CategoryShort(c model.Category) string { return chipFaceOf(c).short }

// Chip returns a category's chip text, "icon word", and its width in cells.
func Chip(c model.Category) (text string, cells int) {
	f := chipFaceOf(c)
	return f.text, f.width
}
