package images

import (
	"bytes"
	"encoding/base64"
	"errors"
	"hash/crc32"
	"image"
	"image/color"
	"image/png"
	"math/rand/v2"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi/kitty"

	"github.com/agentwatch/agentwatch/tui/render"
)

// code is one graphics escape code: its keys and its payload.
type code struct {
	keys    map[string]string
	payload string
}

// codeRE matches one graphics escape code whose keys are plain key=value
// pairs and whose payload, if any, is base64: nothing else may reach the
// terminal from a picture.
var codeRE = regexp.MustCompile(`\x1b_G([A-Za-z]=[A-Za-z0-9]+(?:,[A-Za-z]=[A-Za-z0-9]+)*)(?:;([A-Za-z0-9+/=]*))?\x1b\\`)

// readCodes splits what a Terminal queued into graphics escape codes and
// fails if anything else is there.
func readCodes(t testing.TB, s string) []code {
	t.Helper()
	var out []code
	for len(s) > 0 {
		m := codeRE.FindStringSubmatchIndex(s)
		if m == nil || m[0] != 0 {
			t.Fatalf("not a graphics code with a base64 payload: %q", s[:min(len(s), 80)])
		}
		c := code{keys: map[string]string{}}
		for _, kv := range strings.Split(s[m[2]:m[3]], ",") {
			k, v, _ := strings.Cut(kv, "=")
			c.keys[k] = v
		}
		if m[4] >= 0 {
			c.payload = s[m[4]:m[5]]
		}
		out = append(out, c)
		s = s[m[1]:]
	}
	return out
}

// uploads gathers the pictures sent in codes: by image id, the picture
// their chunks add up to, decoded as the terminal would (a PNG, or RGB
// bytes deflated); places lists the placements made, deletes the ids
// deleted.
func uploads(t testing.TB, codes []code) (sent map[string]image.Image, places []map[string]string, deletes []string) {
	t.Helper()
	sent = map[string]image.Image{}
	var cur string
	var first map[string]string
	var b64 strings.Builder
	for _, c := range codes {
		switch {
		case c.keys["a"] == "p":
			places = append(places, c.keys)
			continue
		case c.keys["a"] == "d":
			deletes = append(deletes, c.keys["i"])
			continue
		case c.keys["f"] == "100" || c.keys["f"] == "24":
			if cur != "" {
				t.Fatalf("upload of %s starts inside the upload of %s", c.keys["i"], cur)
			}
			if c.keys["q"] != "2" {
				t.Errorf("upload of %s is not quiet: %v", c.keys["i"], c.keys)
			}
			cur, first = c.keys["i"], c.keys
			b64.Reset()
		case cur == "":
			t.Fatalf("a chunk outside any upload: %v", c.keys)
		}
		b64.WriteString(c.payload)
		if c.keys["m"] != "1" {
			data, err := base64.StdEncoding.DecodeString(b64.String())
			if err != nil {
				t.Fatalf("upload of %s: %v", cur, err)
			}
			if _, ok := sent[cur]; ok {
				t.Errorf("image %s sent twice", cur)
			}
			sent[cur] = decodeUpload(t, first, data)
			cur = ""
		}
	}
	if cur != "" {
		t.Fatalf("upload of %s never finished", cur)
	}
	return sent, places, deletes
}

// decodeUpload decodes a picture's data as its first code's keys say.
func decodeUpload(t testing.TB, keys map[string]string, data []byte) image.Image {
	t.Helper()
	d := kitty.Decoder{Decompress: keys["o"] == "z"}
	d.Format, _ = strconv.Atoi(keys["f"])
	d.Width, _ = strconv.Atoi(keys["s"])
	d.Height, _ = strconv.Atoi(keys["v"])
	if d.Format == kitty.RGB && (d.Width < 1 || d.Height < 1) {
		t.Fatalf("RGB upload without its size: %v", keys)
	}
	img, err := d.Decode(bytes.NewReader(data))
	if err != nil {
		t.Fatalf("upload %v does not decode: %v", keys, err)
	}
	return img
}

// send encodes the uploads term queued, as the screen does off its own
// goroutine, hands them back, and returns the codes term would send.
func send(term *Terminal) string {
	for _, u := range term.Uploads() {
		term.Finish(u.Encode())
	}
	return term.Commands()
}

// testPNG is a w×h PNG of a gradient with a coloured square in it.
func testPNG(t testing.TB, w, h int, seed uint8) []byte {
	t.Helper()
	img := image.NewNRGBA(image.Rect(0, 0, w, h))
	for y := range h {
		for x := range w {
			c := color.NRGBA{uint8(x * 255 / w), uint8(y * 255 / h), seed, 255}
			if x > w/4 && x < w/2 && y > h/4 && y < h/2 {
				c = color.NRGBA{200, 30, 30, 255}
			}
			img.SetNRGBA(x, y, c)
		}
	}
	var b bytes.Buffer
	if err := png.Encode(&b, img); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

func TestPixelsSentOnceAndPlacedPerSize(t *testing.T) {
	term := NewTerminal(Pixels)
	a, b := testPNG(t, 320, 200, 1), testPNG(t, 160, 100, 2)
	draw := func(data []byte, cols, rows int) []string {
		t.Helper()
		p, err := term.Open(data)
		if err != nil {
			t.Fatal(err)
		}
		lines := p.Lines(cols, rows)
		if len(lines) != rows {
			t.Fatalf("%d lines, want %d", len(lines), rows)
		}
		return lines
	}
	// A in the panel and in a thumbnail, B in a thumbnail, then every one
	// again, as frames that redraw them would.
	first := draw(a, 60, 15)
	draw(a, 12, 4)
	draw(b, 12, 4)
	codes := readCodes(t, send(term))
	again := draw(a, 60, 15)
	draw(a, 12, 4)
	draw(b, 12, 4)
	if more := send(term); more != "" {
		t.Errorf("drawing the same pictures at the same sizes again queued %q", more)
	}
	if strings.Join(first, "\n") != strings.Join(again, "\n") {
		t.Error("the same picture at the same size drew different cells")
	}

	sent, places, deletes := uploads(t, codes)
	if len(sent) != 2 {
		t.Fatalf("%d pictures sent, want 2", len(sent))
	}
	if len(places) != 3 || len(deletes) != 0 {
		t.Fatalf("%d placements and %d deletes, want 3 and 0: %v", len(places), len(deletes), places)
	}
	for _, p := range places {
		if p["U"] != "1" || p["q"] != "2" || p["c"] == "" || p["r"] == "" {
			t.Errorf("placement %v is not a quiet virtual placement with a size", p)
		}
	}
	// What was sent is the picture drawn again from its pixels: of its
	// size, with the same pixels (opaque: render.Scale).
	for id, img := range sent {
		src, _ := render.DecodeImage(a)
		if img.Bounds().Dx() == 160 {
			src, _ = render.DecodeImage(b)
		}
		want := render.Scale(src, src.Bounds().Dx(), src.Bounds().Dy())
		if !sameRGB(img, want) {
			t.Errorf("image %s differs from the picture's pixels", id)
		}
	}
	// The panel's cells name image A's id and its first placement: a
	// 320×200 picture covers 48 of the 60 columns (cells twice as tall as
	// wide), centred.
	cells := readCells(t, first[0])
	if len(cells) != 48 || cells[0].row != 0 || cells[47].col != 47 {
		t.Fatalf("panel row 0 reads %d cells, first %+v", len(cells), cells[0])
	}
	if !strings.HasPrefix(first[0], "      \x1b[") {
		t.Errorf("the picture is not centred: %q", first[0][:12])
	}
	if id := strconv.Itoa(int(cells[0].id)); sent[id] == nil {
		t.Errorf("the panel's cells name image %s, which was not sent", id)
	}
}

// sameRGB reports whether a and b have the same size and colours.
func sameRGB(a, b image.Image) bool {
	if a.Bounds().Size() != b.Bounds().Size() {
		return false
	}
	ab, bb := a.Bounds(), b.Bounds()
	for y := range ab.Dy() {
		for x := range ab.Dx() {
			r1, g1, b1, _ := a.At(ab.Min.X+x, ab.Min.Y+y).RGBA()
			r2, g2, b2, _ := b.At(bb.Min.X+x, bb.Min.Y+y).RGBA()
			if r1>>8 != r2>>8 || g1>>8 != g2>>8 || b1>>8 != b2>>8 {
				return false
			}
		}
	}
	return true
}

func TestPixelsSizeLimits(t *testing.T) {
	term := NewTerminal(Pixels)
	// Wider than MaxKittySide: sent at 1280 wide.
	p, err := term.Open(testPNG(t, 2000, 1000, 3))
	if err != nil {
		t.Fatal(err)
	}
	p.Lines(40, 10)
	sent, _, _ := uploads(t, readCodes(t, send(term)))
	for _, img := range sent {
		if size := img.Bounds().Size(); size != image.Pt(MaxKittySide, MaxKittySide/2) {
			t.Errorf("a 2000×1000 picture was sent as %v, want %d×%d", size, MaxKittySide, MaxKittySide/2)
		}
	}

	// Noise does not compress: 1280×1280 of it is over MaxKittyUpload as a
	// PNG, and is sent halved.
	rng := rand.New(rand.NewPCG(1, 2))
	noise := image.NewRGBA(image.Rect(0, 0, 1280, 1280))
	for i := range noise.Pix {
		noise.Pix[i] = uint8(rng.Uint32())
	}
	var buf bytes.Buffer
	png.Encode(&buf, noise)
	p, err = term.Open(buf.Bytes())
	if err != nil {
		t.Fatal(err)
	}
	p.Lines(40, 10)
	cmds := send(term)
	if len(cmds) > MaxKittyUpload {
		t.Errorf("an upload of %d bytes, over MaxKittyUpload", len(cmds))
	}
	sent, _, _ = uploads(t, readCodes(t, cmds))
	for _, img := range sent {
		if w := img.Bounds().Dx(); w != 640 {
			t.Errorf("1280×1280 of noise was sent %d wide, want 640", w)
		}
	}
}

func TestUploadIsTheSmallerEncoding(t *testing.T) {
	gradient, _ := render.DecodeImage(testPNG(t, 400, 300, 9))
	flat := image.NewRGBA(image.Rect(0, 0, 400, 300))
	for i := range flat.Pix {
		flat.Pix[i] = 0xf0
	}
	for _, img := range []image.Image{gradient, flat} {
		code, _, _, err := uploadCommand(7, img, nil)
		if err != nil {
			t.Fatal(err)
		}
		scaled := render.Scale(img, 400, 300)
		for _, o := range []kitty.Options{
			{Format: kitty.PNG},
			{Format: kitty.RGB, Compression: kitty.Zlib, ImageWidth: 400, ImageHeight: 300},
		} {
			o.Transmission, o.ID, o.Quiet, o.Chunk = kitty.Direct, 7, 2, true
			var b strings.Builder
			kitty.EncodeGraphics(&b, scaled, &o)
			if len(code) > b.Len() {
				t.Errorf("upload of %d bytes, but format %d takes %d", len(code), o.Format, b.Len())
			}
		}
	}
}

func TestPixelsTrimDeletesAndSendsAgain(t *testing.T) {
	term := NewTerminal(Pixels)
	data := testPNG(t, 64, 64, 4)
	p, _ := term.Open(data)
	p.Lines(10, 5)
	send(term)
	v := term.Version()
	term.Trim()
	if term.Version() != v || send(term) != "" {
		t.Fatal("Trim under the budget changed something")
	}
	term.kitty.stored = MaxKittyStored + 1 // as if many pictures had been sent
	term.Trim()
	if term.Version() == v {
		t.Error("Trim over the budget left Version alone: cached lines would show deleted pictures")
	}
	_, _, deletes := uploads(t, readCodes(t, send(term)))
	if len(deletes) != 1 {
		t.Fatalf("%d deletes, want 1", len(deletes))
	}
	p, _ = term.Open(data)
	p.Lines(10, 5)
	sent, places, _ := uploads(t, readCodes(t, send(term)))
	if len(sent) != 1 || len(places) != 1 {
		t.Errorf("after the purge the picture in view was sent %d times and placed %d times, want 1 and 1", len(sent), len(places))
	}
	for id := range sent {
		if id == deletes[0] {
			t.Errorf("the picture was sent again under the deleted id %s", id)
		}
	}
}

func TestImageIDs(t *testing.T) {
	s := newKittyStore()
	seen := map[uint32]bool{}
	for n := range kittyIDs {
		id := s.nextID()
		if id&0xff == 0 || id&0xffff00 != 0 {
			t.Fatalf("id %d (#%d) is not a 256-colour index 1–255 plus a high byte", id, n)
		}
		if seen[id] {
			t.Fatalf("id %d handed out twice among the first %d", id, kittyIDs)
		}
		seen[id] = true
		if n < 255 && id>>24 != 0 {
			t.Fatalf("id #%d has a high byte: its cells would carry a third diacritic", n)
		}
	}
}

func TestTextAndHalfBlocks(t *testing.T) {
	data := testPNG(t, 1280, 800, 5)
	p, err := NewTerminal(Text).Open(data)
	if err != nil {
		t.Fatal(err)
	}
	if got := p.Rows(80, 20); got != 1 {
		t.Errorf("the text takes %d rows, want 1", got)
	}
	lines := p.Lines(40, 1)
	if strings.TrimSpace(lines[0]) != "[screenshot 1280×800]" {
		t.Errorf("text is %q", lines[0])
	}
	thumb := p.Lines(12, 4)
	if strings.TrimSpace(thumb[1]) != "[screenshot" || strings.TrimSpace(thumb[2]) != "1280×800]" {
		t.Errorf("the 12×4 thumbnail reads %q", thumb)
	}
	if got := p.Lines(6, 1)[0]; got != "[scre…" {
		t.Errorf("in 6 cells: %q", got)
	}

	// A nil Terminal, and one drawing half blocks, draw render.HalfBlock.
	img, _ := render.DecodeImage(data)
	want := strings.Join(render.HalfBlock(img, 30, 8), "\n")
	for _, term := range []*Terminal{nil, NewTerminal(HalfBlocks)} {
		p, err := term.Open(data)
		if err != nil {
			t.Fatal(err)
		}
		if got := strings.Join(p.Lines(30, 8), "\n"); got != want {
			t.Errorf("%v: not render.HalfBlock", term.Mode())
		}
		if send(term) != "" {
			t.Error("half blocks queued codes")
		}
	}
}

// FuzzPixels holds every picture's escape codes to the protocol: whatever
// bytes an agent sends as a screenshot, what reaches the terminal is
// graphics codes of plain keys with base64 payloads (a PNG agentwatch drew),
// and the cells are placeholders.
func FuzzPixels(f *testing.F) {
	f.Add(testPNG(f, 16, 9, 1))
	f.Add(testPNG(f, 1, 1, 2))
	f.Add([]byte("\x1b_Ga=T,f=100;AAAA\x1b\\"))
	// A PNG with an escape code in a text chunk.
	withText := testPNG(f, 8, 8, 3)
	chunk := []byte("tEXtComment\x00\x1b]52;c;cHduZWQ=\x07")
	var ch bytes.Buffer
	ch.Write([]byte{0, 0, 0, byte(len(chunk) - 4)})
	ch.Write(chunk)
	crc := crc32.ChecksumIEEE(chunk)
	ch.Write([]byte{byte(crc >> 24), byte(crc >> 16), byte(crc >> 8), byte(crc)})
	f.Add(append(append(append([]byte{}, withText[:33]...), ch.Bytes()...), withText[33:]...))
	f.Fuzz(func(t *testing.T, data []byte) {
		term := NewTerminal(Pixels)
		p, err := term.Open(data)
		if err != nil {
			return
		}
		lines := p.Lines(12, 4)
		cmds := send(term)
		if cmds == "" {
			return // could not be sent: half blocks
		}
		uploads(t, readCodes(t, cmds)) // each decodes as a picture
		for _, l := range lines {
			readCells(t, l)
		}
	})
}

func TestTmuxPassthrough(t *testing.T) {
	term := NewTerminal(Pixels)
	term.SetTmux(true)
	p, err := term.Open(testPNG(t, 640, 400, 6))
	if err != nil {
		t.Fatal(err)
	}
	p.Lines(40, 12)
	out := send(term)
	term.kitty.stored = MaxKittyStored + 1
	term.Trim() // a delete too
	out += send(term)
	// Every code is alone in a passthrough of its own: tmux keeps none for
	// a pane title, and none grows past one chunk.
	wrapped := regexp.MustCompile(`\x1bPtmux;((?:\x1b\x1b|[^\x1b])*)\x1b\\`)
	var inner strings.Builder
	for _, m := range wrapped.FindAllStringSubmatchIndex(out, -1) {
		code := strings.ReplaceAll(out[m[2]:m[3]], "\x1b\x1b", "\x1b")
		if len(readCodes(t, code)) != 1 {
			t.Fatalf("a passthrough holds %d codes: %q", len(readCodes(t, code)), code[:min(len(code), 60)])
		}
		inner.WriteString(code)
	}
	if rest := wrapped.ReplaceAllString(out, ""); rest != "" {
		t.Fatalf("codes outside tmux's passthrough: %q", rest[:min(len(rest), 60)])
	}
	sent, places, deletes := uploads(t, readCodes(t, inner.String()))
	if len(sent) != 1 || len(places) != 1 || len(deletes) != 1 {
		t.Errorf("through tmux: %d uploads, %d placements, %d deletes; want 1 each", len(sent), len(places), len(deletes))
	}
	term.SetTmux(false)
	p, _ = term.Open(testPNG(t, 64, 40, 7))
	p.Lines(10, 3)
	if out := send(term); strings.Contains(out, "\x1bPtmux;") {
		t.Error("codes wrapped for tmux after SetTmux(false)")
	}
}

func TestUploadsAreEncodedApart(t *testing.T) {
	term := NewTerminal(Pixels)
	data := testPNG(t, 320, 200, 11)
	p, _ := term.Open(data)
	lines := p.Lines(40, 10)
	// The cells are there at once; nothing goes out before the upload is
	// encoded, not even the placement, which must follow it.
	if len(readCells(t, lines[0])) == 0 {
		t.Fatal("no placeholder cells before the upload is encoded")
	}
	if out := term.Commands(); out != "" {
		t.Fatalf("codes before the upload was encoded: %q", out)
	}
	ups := term.Uploads()
	if len(ups) != 1 || len(term.Uploads()) != 0 {
		t.Fatalf("%d uploads, then more: want one, once", len(ups))
	}
	p, _ = term.Open(data)
	p.Lines(12, 4) // placed at another size while its upload is encoded
	if len(term.Uploads()) != 0 {
		t.Error("a picture being encoded was queued again")
	}
	term.Finish(ups[0].Encode())
	codes := readCodes(t, term.Commands())
	if len(codes) < 3 || codes[0].keys["a"] != "" || codes[len(codes)-1].keys["a"] != "p" || codes[len(codes)-2].keys["a"] != "p" {
		t.Fatalf("want the upload, then both placements; got %d codes ending %v", len(codes), codes[len(codes)-1].keys)
	}

	// An upload that comes back after its picture was deleted is dropped.
	other := testPNG(t, 64, 64, 12)
	p, _ = term.Open(other)
	p.Lines(8, 4)
	late := term.Uploads()
	term.kitty.stored = MaxKittyStored + 1
	term.Trim()
	term.Commands()
	term.Finish(late[0].Encode())
	if out := term.Commands(); out != "" {
		t.Errorf("an upload of a deleted picture was sent: %q", out[:min(len(out), 40)])
	}

	// One that cannot be encoded turns the picture to half blocks, and
	// Version changes so that its cells are drawn again.
	bad := testPNG(t, 16, 16, 13)
	p, _ = term.Open(bad)
	p.Lines(8, 4)
	failed := term.Uploads()[0]
	failed.pixels = func() (image.Image, error) { return nil, errors.New("broken") }
	v := term.Version()
	term.Finish(failed.Encode())
	term.Trim()
	if term.Version() == v {
		t.Error("a failed upload left Version alone")
	}
	p, _ = term.Open(bad)
	if l := p.Lines(8, 4); !strings.Contains(strings.Join(l, ""), "▀") {
		t.Errorf("a picture that could not be sent is not drawn in half blocks: %q", l)
	}
}
