package styles

import (
	glamouransi "charm.land/glamour/v2/ansi"
	glamourstyles "charm.land/glamour/v2/styles"
)

// Markdown is the style messages are drawn in: glamour's layout (lists,
// quotes, rules, headings' prefixes) in the 16 ANSI colours and without
// backgrounds, so the terminal's theme picks the shades and text reads on
// a light background as on a dark one. glamour's own dark and light styles
// fix 256-colour shades (code in 251 and 187, light greys), which vanish
// on a background they were not chosen for. Code blocks are not
// highlighted for the same reason: one colour, the terminal's cyan.
func Markdown() glamouransi.StyleConfig {
	st := glamourstyles.DarkStyleConfig
	ansiColour := func(c string) *string { return &c }
	yes, no := true, false
	var zero uint

	st.Document.Color = nil
	st.Document.Margin = &zero
	st.Document.BlockPrefix, st.Document.BlockSuffix = "", ""
	st.Heading.Color = ansiColour("4")
	st.H1.Color, st.H1.BackgroundColor = ansiColour("4"), nil
	st.H1.Prefix, st.H1.Suffix = "# ", ""
	st.H6.Color = ansiColour("5")
	st.H6.Bold = &no
	st.HorizontalRule.Color = nil
	st.HorizontalRule.Faint = &yes
	st.Link.Color = ansiColour("4")
	st.LinkText.Color = ansiColour("6")
	st.Image.Color = ansiColour("5")
	st.ImageText.Color = nil
	st.ImageText.Faint = &yes
	st.Code.Color, st.Code.BackgroundColor = ansiColour("5"), nil
	st.Code.Prefix, st.Code.Suffix = "", ""
	st.CodeBlock.Color = ansiColour("6")
	st.CodeBlock.Chroma = nil
	st.CodeBlock.Theme = ""
	return st
}
