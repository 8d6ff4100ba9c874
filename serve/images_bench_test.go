package serve

// What a screenshot costs a viewer: the bytes of its upload, sent once
// to a terminal that shows kitty graphics, and the bytes per frame of
// showing it again, against the same frames drawn in half blocks.
//
//	go test ./serve/ -run '^$' -bench ImageBytes -benchtime 40x

import (
	"bytes"
	"encoding/base64"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"io"
	"math/rand/v2"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
)

// BenchmarkImageBytes serves, at 160×48, a log of shotLogSteps steps each
// with its own 1280×800 screenshot (desktopShot), and the demo (160×100
// screenshots in 16 colours).
//
// upload-*: the bytes of one picture's upload (escape codes and base64
// included) and of one placement, once per viewer.
// step-*: ←/→ between the log's steps once every picture was sent: the
// bytes per frame, each frame showing another picture in the panel (and
// in the computer card), with kitty graphics and with half blocks.
func BenchmarkImageBytes(b *testing.B) {
	shots := filepath.Join(b.TempDir(), "shots.jsonl")
	appendFile(b, shots, shotLog(shotLogSteps))
	all := make([]int, shotLogSteps)
	for i := range all {
		all[i] = i + 1
	}
	b.Run("upload-1280x800", func(b *testing.B) { benchUpload(b, shots, shotLogSteps, all) })
	b.Run("upload-demo-160x100", func(b *testing.B) { benchUpload(b, demoLog(b), 30, shotSteps) })
	b.Run("step-kitty", func(b *testing.B) { benchStep(b, shots, true) })
	b.Run("step-blocks", func(b *testing.B) { benchStep(b, shots, false) })
}

// shotLogSteps is how many steps (and screenshots) shotLog has.
const shotLogSteps = 6

// imageViewer opens a 160×48 viewer of path on a server that counts and
// keeps what it sends; kitty makes its terminal answer the graphics query.
func imageViewer(b *testing.B, path string, kitty bool) (*testViewer, *frameCounter, *sessionOutput) {
	outs := make(chan *sessionOutput, 1)
	counters := make(chan *frameCounter, 1)
	ts := startServerWith(b, []string{path}, ShowOptions{}, Config{}, func(s *Server) {
		s.output = func(w io.Writer) io.Writer {
			o := &sessionOutput{w: w}
			c := &frameCounter{w: o, wrote: make(chan struct{}, 1)}
			outs <- o
			counters <- c
			return c
		}
	})
	term := "xterm-256color"
	if kitty {
		term = "xterm-kitty"
	}
	v := ts.viewWith(b, ts.allowed, term, 160, 48)
	if kitty {
		v.speakKitty()
	}
	return v, <-counters, <-outs
}

// stepTo selects step k of n, from step at.
func stepTo(v *testViewer, at, k, n int) {
	for ; at > k; at-- {
		v.send(keyLeft)
	}
	for ; at < k; at++ {
		v.send(keyRight)
	}
	v.waitFor(stepOf(k, n))
}

// benchUpload opens one viewer of path, a log of n steps, and selects
// each of the steps in visit: every picture is sent once. It measures
// once whatever b.N is.
func benchUpload(b *testing.B, path string, n int, visit []int) {
	v, _, out := imageViewer(b, path, true)
	v.waitFor(stepOf(n, n))
	at := n
	for _, k := range visit {
		stepTo(v, at, k, n)
		at = k
	}
	v.waitForOutput(out, func(s string) bool { return len(uploadIDs(s)) >= len(visit) })
	upload, place, sent := graphicsBytes(b, out.String())
	b.ReportMetric(float64(upload)/float64(sent), "B/upload")
	b.ReportMetric(float64(place)/float64(sent), "B/placement")
	b.ReportMetric(0, "ns/op")
}

func benchStep(b *testing.B, path string, kitty bool) {
	v, c, out := imageViewer(b, path, kitty)
	n := shotLogSteps
	v.waitFor(stepOf(n, n))
	// Every picture is sent, and placed at both sizes, before counting.
	at := n
	for k := 1; k <= n; k++ {
		stepTo(v, at, k, n)
		at = k
	}
	if kitty {
		v.waitForOutput(out, func(s string) bool { return len(uploadIDs(s)) >= n })
	}
	settle(c)
	frames0, bytes0 := c.read()
	sent0 := len(uploadIDs(out.String()))
	b.ResetTimer()
	dir := -1
	for range b.N {
		if at+dir < 1 || at+dir > n {
			dir = -dir
		}
		stepTo(v, at, at+dir, n)
		at += dir
	}
	b.StopTimer()
	settle(c)
	frames, bytes := c.read()
	if frames > frames0 {
		b.ReportMetric(float64(bytes-bytes0)/float64(frames-frames0), "B/frame")
	}
	b.ReportMetric(float64(frames-frames0)/float64(b.N), "frames/op")
	b.ReportMetric(float64(len(uploadIDs(out.String()))-sent0)/float64(b.N), "uploads/op")
	b.ReportMetric(0, "ns/op")
}

// waitForOutput waits until what the server sent the viewer satisfies ok.
func (v *testViewer) waitForOutput(out *sessionOutput, ok func(string) bool) {
	v.t.Helper()
	deadline := time.Now().Add(waitLimit)
	for !ok(out.String()) {
		if time.Now().After(deadline) {
			v.t.Fatalf("the server never sent what was waited for; it sent %d bytes", len(out.String()))
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// graphicsCode matches one graphics code: its keys and its payload.
var graphicsCode = regexp.MustCompile(`\x1b_G([^;\x1b]*)(?:;([^\x1b]*))?\x1b\\`)

// graphicsBytes sums the bytes of the graphics codes in out: those of the
// uploads, those of the placements, and how many pictures were sent.
func graphicsBytes(tb testing.TB, out string) (upload, place, pictures int) {
	tb.Helper()
	inUpload := false
	for _, m := range graphicsCode.FindAllStringSubmatch(out, -1) {
		keys := map[string]string{}
		for _, kv := range strings.Split(m[1], ",") {
			k, v, _ := strings.Cut(kv, "=")
			keys[k] = v
		}
		switch {
		case keys["a"] == "p":
			place += len(m[0])
		case keys["a"] == "" && keys["i"] != "" || inUpload:
			if !inUpload {
				pictures++

			}
			upload += len(m[0])
			inUpload = keys["m"] == "1"
		}
	}
	return upload, place, pictures
}

// shotLog is an AG-UI log of one run with steps steps, each an assistant
// message and a tool call whose result carries its own desktopShot.
func shotLog(steps int) []byte {
	var b bytes.Buffer
	ts := int64(1764321245000)
	line := func(format string, args ...any) {
		ts += 500
		fmt.Fprintf(&b, format, args...)
		fmt.Fprintf(&b, `,"timestamp":%d}`+"\n", ts)
	}
	line(`{"type":"RUN_STARTED","threadId":"shots","runId":"r1"`)
	for i := 1; i <= steps; i++ {
		line(`{"type":"TEXT_MESSAGE_START","messageId":"m%d","role":"assistant"`, i)
		line(`{"type":"TEXT_MESSAGE_CONTENT","messageId":"m%d","delta":"Looking at the window again (%d)."`, i, i)
		line(`{"type":"TEXT_MESSAGE_END","messageId":"m%d"`, i)
		line(`{"type":"TOOL_CALL_START","toolCallId":"c%d","toolCallName":"screenshot","parentMessageId":"m%d","metadata":{"category":"other","location":"window App"}`, i, i)
		line(`{"type":"TOOL_CALL_ARGS","toolCallId":"c%d","delta":"{\"window\":\"App\"}"`, i)
		line(`{"type":"TOOL_CALL_END","toolCallId":"c%d"`, i)
		line(`{"type":"TOOL_CALL_RESULT","messageId":"r%d","toolCallId":"c%d","role":"tool","content":[{"type":"text","text":"Captured window App (1280×800)."},{"type":"image","source":{"type":"data","mimeType":"image/png","value":"%s"}}]`,
			i, i, base64.StdEncoding.EncodeToString(desktopShot(uint64(i), 1280, 800)))
	}
	line(`{"type":"RUN_FINISHED","threadId":"shots","runId":"r1"`)
	return b.Bytes()
}

// desktopShot is a w×h PNG that looks, to a PNG encoder, like a
// screenshot of a desktop app: flat panes and bars, a sidebar list and
// paragraphs of antialiased text (glyphs of random strokes with grey
// edges), and a chart with a gradient. seed varies the text.
func desktopShot(seed uint64, w, h int) []byte {
	rng := rand.New(rand.NewPCG(seed, 7))
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	fill := func(r image.Rectangle, c color.RGBA) {
		r = r.Intersect(img.Rect)
		for y := r.Min.Y; y < r.Max.Y; y++ {
			for x := r.Min.X; x < r.Max.X; x++ {
				img.SetRGBA(x, y, c)
			}
		}
	}
	// text draws lines of words from (x, y), width wide, in ink on bg.
	text := func(x0, y0, width, lines, size int, ink, bg color.RGBA) {
		mix := func(a float64) color.RGBA {
			m := func(f, b uint8) uint8 { return uint8(float64(f)*a + float64(b)*(1-a)) }
			return color.RGBA{m(ink.R, bg.R), m(ink.G, bg.G), m(ink.B, bg.B), 255}
		}
		gw, gh := size*3/5, size
		for l := range lines {
			y := y0 + l*(gh+gh/2)
			x := x0
			end := x0 + width - rng.IntN(width/3+1)
			for x+gw < end {
				word := 2 + rng.IntN(8)
				for range word {
					for py := gh / 5; py < gh; py++ {
						for px := 0; px < gw-1; px++ {
							if rng.IntN(100) < 30 {
								img.SetRGBA(x+px, y+py, mix([]float64{0.35, 0.7, 1}[rng.IntN(3)]))
							}
						}
					}
					x += gw
				}
				x += gw
			}
		}
	}
	bg := color.RGBA{246, 246, 248, 255}
	fill(img.Rect, bg)
	fill(image.Rect(0, 0, w, 32), color.RGBA{48, 50, 56, 255})
	text(12, 8, 300, 1, 16, color.RGBA{230, 230, 230, 255}, color.RGBA{48, 50, 56, 255})
	side := color.RGBA{232, 234, 240, 255}
	fill(image.Rect(0, 32, 240, h), side)
	text(16, 48, 200, 28, 14, color.RGBA{40, 40, 48, 255}, side)
	text(264, 56, 600, 1, 24, color.RGBA{20, 20, 28, 255}, bg)
	text(264, 100, w-520, 18, 14, color.RGBA{50, 50, 60, 255}, bg)
	// A chart: a gradient area under a curve.
	cx, cy, cw, ch := 264, 500, w-300, 260
	fill(image.Rect(cx, cy, cx+cw, cy+ch), color.RGBA{255, 255, 255, 255})
	for x := range cw {
		top := cy + ch/2 + int(float64(ch/3)*sinApprox(float64(x)/float64(cw)*6.28*2))
		for y := top; y < cy+ch; y++ {
			t := float64(y-top) / float64(cy+ch-top+1)
			img.SetRGBA(cx+x, y, color.RGBA{uint8(60 + 100*t), uint8(120 + 80*t), 230, 255})
		}
	}
	fill(image.Rect(w-220, 56, w-40, 88), color.RGBA{36, 110, 220, 255})
	text(w-200, 64, 150, 1, 14, color.RGBA{255, 255, 255, 255}, color.RGBA{36, 110, 220, 255})
	var out bytes.Buffer
	if err := png.Encode(&out, img); err != nil {
		panic(err)
	}
	return out.Bytes()
}

// sinApprox is a sine good enough for a chart's curve.
func sinApprox(x float64) float64 {
	for x > 3.14159 {
		x -= 6.28318
	}
	return x * (1.27323954 - 0.405284735*abs(x))
}

func abs(x float64) float64 {
	if x < 0 {
		return -x
	}
	return x
}
