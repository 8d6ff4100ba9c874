package main

import (
	"bytes"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"strings"
)

// Screenshots are 160×100 PNGs drawn in sixteen colours: shapes big enough
// to read when a terminal draws them as half-block characters, and text in
// a 3×5 pixel font. They are written without compression (about 8 KB each)
// because stored deflate blocks are the same bytes in every Go release,
// which keeps the recording byte-for-byte reproducible.
const shotW, shotH = 160, 100

// The screenshot palette.
const (
	cWhite  uint8 = iota
	cNight        // app background
	cInk          // dark text
	cGrey         // secondary text
	cRule         // borders, light lines
	cChrome       // browser chrome
	cRed
	cYellow
	cGreen
	cGoBlue
	cNavy
	cPurple
	cOrange
	cPanel // app title bar and panels
	cSky   // light blue highlight
	cPaper // code background
)

var palette = color.Palette{
	color.RGBA{0xff, 0xff, 0xff, 0xff},
	color.RGBA{0x1e, 0x1e, 0x2e, 0xff},
	color.RGBA{0x2b, 0x30, 0x38, 0xff},
	color.RGBA{0x8a, 0x8f, 0x98, 0xff},
	color.RGBA{0xd5, 0xd9, 0xdf, 0xff},
	color.RGBA{0xec, 0xee, 0xf1, 0xff},
	color.RGBA{0xe5, 0x53, 0x4b, 0xff},
	color.RGBA{0xe8, 0xb3, 0x39, 0xff},
	color.RGBA{0x3f, 0xb9, 0x50, 0xff},
	color.RGBA{0x00, 0xad, 0xd8, 0xff},
	color.RGBA{0x17, 0x32, 0x4d, 0xff},
	color.RGBA{0x7f, 0x52, 0xff, 0xff},
	color.RGBA{0xf0, 0x8c, 0x3a, 0xff},
	color.RGBA{0x2e, 0x32, 0x44, 0xff},
	color.RGBA{0xdd, 0xf4, 0xfa, 0xff},
	color.RGBA{0xf6, 0xf8, 0xfa, 0xff},
}

type canvas struct{ *image.Paletted }

func newCanvas(bg uint8) canvas {
	c := canvas{image.NewPaletted(image.Rect(0, 0, shotW, shotH), palette)}
	c.fill(0, 0, shotW, shotH, bg)
	return c
}

// fill paints the rectangle [x0,x1)×[y0,y1).
func (c canvas) fill(x0, y0, x1, y1 int, col uint8) {
	r := image.Rect(x0, y0, x1, y1).Intersect(c.Rect)
	for y := r.Min.Y; y < r.Max.Y; y++ {
		for x := r.Min.X; x < r.Max.X; x++ {
			c.SetColorIndex(x, y, col)
		}
	}
}

// box paints a rectangle with a one-pixel border.
func (c canvas) box(x0, y0, x1, y1 int, col, border uint8) {
	c.fill(x0, y0, x1, y1, border)
	c.fill(x0+1, y0+1, x1-1, y1-1, col)
}

// dot paints a 4×4 dot with its corners cut, its top left quarter ending at (x, y).
func (c canvas) dot(x, y int, col uint8) {
	c.fill(x-2, y-1, x+2, y+1, col)
	c.fill(x-1, y-2, x+1, y+2, col)
}

// trafficLights draws a window's close, minimise and zoom buttons.
func (c canvas) trafficLights(y int) {
	c.dot(6, y, cRed)
	c.dot(12, y, cYellow)
	c.dot(18, y, cGreen)
}

// text writes s in the 3×5 font, each pixel scale×scale, and returns the x after it.
func (c canvas) text(x, y, scale int, col uint8, s string) int {
	for _, r := range strings.ToUpper(s) {
		g, ok := font[r]
		if !ok {
			g = font['?']
		}
		for gy, row := range g {
			for gx, p := range row {
				if p == '#' {
					c.fill(x+gx*scale, y+gy*scale, x+(gx+1)*scale, y+(gy+1)*scale, col)
				}
			}
		}
		x += 4 * scale
	}
	return x
}

// textWidth is the width text takes at scale, without the last gap.
func textWidth(s string, scale int) int { return (4*len([]rune(s)) - 1) * scale }

// prose paints bars standing for a paragraph of text.
func (c canvas) prose(x, y, width int, col uint8, lengths ...int) int {
	for _, l := range lengths {
		c.fill(x, y, x+width*l/100, y+2, col)
		y += 4
	}
	return y
}

func (c canvas) png() []byte {
	var b bytes.Buffer
	enc := png.Encoder{CompressionLevel: png.NoCompression}
	if err := enc.Encode(&b, c.Paletted); err != nil {
		panic(err)
	}
	return b.Bytes()
}

// browser draws a browser window showing url, with tab title tab, and
// returns the y where the page starts.
func (c canvas) browser(tab, url string) int {
	c.fill(0, 0, shotW, 18, cChrome)
	c.trafficLights(4)
	c.fill(24, 1, 24+textWidth(tab, 1)+10, 9, cWhite)
	c.text(29, 2, 1, cInk, tab)
	c.fill(0, 9, shotW, 18, cWhite)
	c.text(4, 11, 1, cGrey, "<>")
	c.box(20, 10, shotW-4, 17, cChrome, cRule)
	c.text(24, 11, 1, cInk, url)
	c.fill(0, 18, shotW, 19, cRule)
	return 19
}

// docsShot is pkg.go.dev's entry for time.ParseDuration.
func docsShot() []byte {
	c := newCanvas(cWhite)
	y := c.browser("TIME PACKAGE", "PKG.GO.DEV/TIME#PARSEDURATION")
	// Site header: the Go logo and the search box.
	c.fill(0, y, shotW, y+12, cGoBlue)
	c.text(5, y+1, 2, cWhite, "GO")
	c.box(100, y+3, 154, y+9, cWhite, cWhite)
	c.text(103, y+3, 1, cGrey, "SEARCH")
	y += 14
	// Index on the left, ParseDuration highlighted.
	c.fill(0, y, 36, shotH, cChrome)
	for i, l := range []int{70, 55, 80, 60, 75, 50, 65, 58, 72} {
		yy := y + 4 + i*7
		if i == 3 {
			c.fill(2, yy-2, 34, yy+4, cSky)
			c.fill(5, yy, 5+26*l/100, yy+2, cGoBlue)
			continue
		}
		c.fill(5, yy, 5+26*l/100, yy+2, cGrey)
	}
	// The entry: heading, signature, prose, example.
	x := 42
	c.text(x, y+2, 1, cInk, "FUNC PARSEDURATION")
	c.box(x, y+10, 155, y+19, cPaper, cRule)
	xx := c.text(x+3, y+12, 1, cGoBlue, "FUNC")
	c.text(xx+4, y+12, 1, cInk, "PARSEDURATION(S)")
	yy := c.prose(x, y+23, 113, cGrey, 100, 96, 100, 88, 42)
	c.box(x, yy+2, 155, shotH-2, cPaper, cRule)
	for i, parts := range [][]int{{20, 34, 30}, {22, 40, 36}, {18, 30, 26}, {24, 44, 0}} {
		px := x + 4
		py := yy + 5 + i*5
		cols := []uint8{cInk, cGoBlue, cGreen}
		for j, w := range parts {
			c.fill(px, py, px+w*2/3, py+2, cols[j])
			px += w*2/3 + 3
		}
	}
	return c.png()
}

// session is one planned session as the app shows it.
type session struct {
	name string
	secs int
	col  uint8
}

func clock(secs int) string { return fmt.Sprintf("%02d:%02d", secs/60, secs%60) }

// appShot is the Tempo desktop app (Compose, dark theme): the timer of the
// selected session on the left, today's sessions with their lengths as bars
// on the right.
func appShot(sessions []session) []byte {
	c := newCanvas(cNight)
	c.fill(0, 0, shotW, 10, cPanel)
	c.trafficLights(5)
	c.text((shotW-textWidth("TEMPO", 1))/2, 3, 1, cRule, "TEMPO")
	// Timer pane.
	sel := sessions[0]
	c.text(8, 16, 1, cGrey, sel.name)
	c.text(8, 26, 3, cWhite, clock(sel.secs))
	c.fill(8, 47, 66, 49, cPanel)
	c.fill(8, 47, 12, 49, cRed)
	c.fill(8, 55, 36, 65, cRed)
	c.text(12, 58, 1, cWhite, "START")
	c.box(40, 55, 66, 65, cNight, cGrey)
	c.text(45, 58, 1, cGrey, "SKIP")
	c.fill(74, 12, 75, 88, cPanel)
	// Today's sessions.
	c.text(82, 16, 1, cGrey, "TODAY")
	most := 0
	for _, s := range sessions {
		most = max(most, s.secs)
	}
	for i, s := range sessions {
		y := 27 + i*20
		if i == 0 {
			c.fill(78, y-3, 158, y+15, cPanel)
		}
		c.text(82, y, 1, cWhite, s.name)
		t := clock(s.secs)
		c.text(154-textWidth(t, 1), y, 1, cGrey, t)
		track := cPanel
		if i == 0 {
			track = cNight
		}
		c.fill(82, y+8, 154, y+11, track)
		c.fill(82, y+8, 82+max(1, 72*s.secs/most), y+11, s.col)
	}
	// Status bar.
	c.fill(0, 90, shotW, shotH, cPanel)
	c.dot(6, 95, cGreen)
	c.text(11, 93, 1, cGrey, "CONNECTED LOCALHOST:8080")
	return c.png()
}

// dashboardShot is the server's web dashboard: today's sessions as cards
// and the week as a bar chart.
func dashboardShot(sessions []session) []byte {
	c := newCanvas(cPaper)
	y := c.browser("TEMPO", "LOCALHOST:8080")
	c.fill(0, y, shotW, y+12, cNavy)
	c.text(5, y+1, 2, cWhite, "TEMPO")
	c.text(110, y+4, 1, cRule, "TODAY")
	c.text(134, y+4, 1, cGrey, "WEEK")
	y += 15
	for i, s := range sessions {
		x := 5 + i*52
		c.box(x, y, x+48, y+26, cWhite, cRule)
		c.fill(x+1, y+1, x+47, y+3, s.col)
		mins := fmt.Sprint(s.secs / 60)
		xx := c.text(x+4, y+6, 2, cInk, mins)
		c.text(xx+1, y+11, 1, cGrey, "MIN")
		c.text(x+4, y+19, 1, cGrey, s.name)
	}
	y += 30
	c.text(5, y, 1, cInk, "THIS WEEK")
	base := shotH - 9
	for i, h := range []int{12, 16, 10, 18, 14, 5, 3} {
		x := 12 + i*21
		c.fill(x, base-h, x+12, base, cGoBlue)
		c.text(x+4, base+2, 1, cGrey, string("MTWTFSS"[i]))
	}
	c.fill(5, base, shotW-5, base+1, cRule)
	return c.png()
}

// font is a 3×5 pixel font for the screenshots' upper-case text.
var font = map[rune][5]string{
	'A': {".#.", "#.#", "###", "#.#", "#.#"},
	'B': {"##.", "#.#", "##.", "#.#", "##."},
	'C': {".##", "#..", "#..", "#..", ".##"},
	'D': {"##.", "#.#", "#.#", "#.#", "##."},
	'E': {"###", "#..", "##.", "#..", "###"},
	'F': {"###", "#..", "##.", "#..", "#.."},
	'G': {".##", "#..", "#.#", "#.#", ".##"},
	'H': {"#.#", "#.#", "###", "#.#", "#.#"},
	'I': {"###", ".#.", ".#.", ".#.", "###"},
	'J': {"..#", "..#", "..#", "#.#", ".#."},
	'K': {"#.#", "#.#", "##.", "#.#", "#.#"},
	'L': {"#..", "#..", "#..", "#..", "###"},
	'M': {"#.#", "###", "###", "#.#", "#.#"},
	'N': {"##.", "#.#", "#.#", "#.#", "#.#"},
	'O': {".#.", "#.#", "#.#", "#.#", ".#."},
	'P': {"##.", "#.#", "##.", "#..", "#.."},
	'Q': {".#.", "#.#", "#.#", "##.", ".##"},
	'R': {"##.", "#.#", "##.", "#.#", "#.#"},
	'S': {".##", "#..", ".#.", "..#", "##."},
	'T': {"###", ".#.", ".#.", ".#.", ".#."},
	'U': {"#.#", "#.#", "#.#", "#.#", "###"},
	'V': {"#.#", "#.#", "#.#", "#.#", ".#."},
	'W': {"#.#", "#.#", "#.#", "###", "#.#"},
	'X': {"#.#", "#.#", ".#.", "#.#", "#.#"},
	'Y': {"#.#", "#.#", ".#.", ".#.", ".#."},
	'Z': {"###", "..#", ".#.", "#..", "###"},
	'0': {"###", "#.#", "#.#", "#.#", "###"},
	'1': {".#.", "##.", ".#.", ".#.", "###"},
	'2': {"##.", "..#", ".#.", "#..", "###"},
	'3': {"##.", "..#", ".#.", "..#", "##."},
	'4': {"#.#", "#.#", "###", "..#", "..#"},
	'5': {"###", "#..", "##.", "..#", "##."},
	'6': {".##", "#..", "###", "#.#", "###"},
	'7': {"###", "..#", ".#.", ".#.", ".#."},
	'8': {"###", "#.#", "###", "#.#", "###"},
	'9': {"###", "#.#", "###", "..#", "##."},
	':': {"...", ".#.", "...", ".#.", "..."},
	'.': {"...", "...", "...", "...", ".#."},
	'/': {"..#", "..#", ".#.", "#..", "#.."},
	'#': {"#.#", "###", "#.#", "###", "#.#"},
	'-': {"...", "...", "###", "...", "..."},
	'(': {".#.", "#..", "#..", "#..", ".#."},
	')': {".#.", "..#", "..#", "..#", ".#."},
	'<': {"..#", ".#.", "#..", ".#.", "..#"},
	'>': {"#..", ".#.", "..#", ".#.", "#.."},
	'?': {"##.", "..#", ".#.", "...", ".#."},
	' ': {"...", "...", "...", "...", "..."},
}
