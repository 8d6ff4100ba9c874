package render

import (
	"bufio"
	"bytes"
	"encoding/base64"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"hash/crc32"
	"image"
	"image/color"
	"image/color/palette"
	"image/gif"
	"image/jpeg"
	"image/png"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/charmbracelet/x/exp/golden"

	"github.com/agentwatch/agentwatch/tui/styles"
)

var sgrRE = regexp.MustCompile(`\x1b\[([0-9;]*)m`)

// checkLine fails unless line is cols cells of ' ' and '▀' once its SGR
// sequences are stripped, ends with a reset, and never sets a colour that is
// already in force.
func checkLine(t testing.TB, line string, cols int) {
	t.Helper()
	visible := sgrRE.ReplaceAllString(line, "")
	if n := utf8.RuneCountInString(visible); n != cols {
		t.Errorf("line is %d cells wide, want %d: %q", n, cols, line)
	}
	if strings.Trim(visible, " ▀") != "" {
		t.Errorf("line has characters other than ' ' and '▀': %q", visible)
	}
	if !strings.HasSuffix(line, styles.Reset) {
		t.Errorf("line does not end with a reset: %q", line)
	}
	fg, bg := "39", "49"
	matches := sgrRE.FindAllStringSubmatchIndex(line, -1)
	for i, m := range matches {
		p := line[m[2]:m[3]]
		switch {
		case p == "0" && i == len(matches)-1 && m[1] == len(line):
		case strings.HasPrefix(p, "38;2;") || p == "39":
			if p == fg {
				t.Errorf("foreground %s set again at byte %d: %q", p, m[0], line)
			}
			fg = p
		case strings.HasPrefix(p, "48;2;") || p == "49":
			if p == bg {
				t.Errorf("background %s set again at byte %d: %q", p, m[0], line)
			}
			bg = p
		default:
			t.Errorf("unexpected SGR %q in %q", p, line)
		}
	}
}

func checkLines(t testing.TB, lines []string, cols, rows int) {
	t.Helper()
	if len(lines) != rows {
		t.Fatalf("got %d lines, want %d", len(lines), rows)
	}
	for _, l := range lines {
		checkLine(t, l, cols)
	}
}

// picture is where the '▀' cells of a rendering are.
type picture struct{ left, top, width, rows int }

func layout(t *testing.T, lines []string) picture {
	t.Helper()
	p := picture{top: -1}
	for y, l := range lines {
		v := sgrRE.ReplaceAllString(l, "")
		n := strings.Count(v, "▀")
		if n == 0 {
			continue
		}
		left := utf8.RuneCountInString(v[:strings.Index(v, "▀")])
		if p.top < 0 {
			p = picture{left, y, n, 0}
		} else if left != p.left || n != p.width || y != p.top+p.rows {
			t.Errorf("line %d: picture at %d×%d, earlier lines at %d×%d or not contiguous", y, left, n, p.left, p.width)
		}
		p.rows++
	}
	return p
}

// pattern returns a w×h RGBA image with a distinct colour in every pixel.
func pattern(w, h int) *image.RGBA {
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	for y := range h {
		for x := range w {
			img.Set(x, y, color.RGBA{uint8(x * 255 / max(w-1, 1)), uint8(y * 255 / max(h-1, 1)), uint8((x ^ y) * 37), 255})
		}
	}
	return img
}

func TestHalfBlockSizes(t *testing.T) {
	for _, tc := range []struct {
		name       string
		w, h       int
		cols, rows int
		want       picture
	}{
		// 160×100 in an 80×48 pixel box: height-bound, 76.8 rounds to 77 wide.
		{"screenshot 80x24", 160, 100, 80, 24, picture{left: 1, top: 0, width: 77, rows: 24}},
		{"screenshot 40x12", 160, 100, 40, 12, picture{left: 1, top: 0, width: 38, rows: 12}},
		{"exact fit", 80, 48, 80, 24, picture{0, 0, 80, 24}},
		{"1x1 scaled up and centred", 1, 1, 20, 5, picture{left: 5, top: 0, width: 10, rows: 5}},
		{"1x1 in one cell", 1, 1, 1, 1, picture{0, 0, 1, 1}},
		{"wide banner", 100, 10, 20, 10, picture{left: 0, top: 4, width: 20, rows: 1}},
		{"tall strip", 10, 100, 20, 10, picture{left: 9, top: 0, width: 2, rows: 10}},
		{"odd height", 4, 3, 4, 4, picture{left: 0, top: 1, width: 4, rows: 2}},
		{"2x2 in one cell", 2, 2, 1, 1, picture{0, 0, 1, 1}},
		{"box wider than tall", 30, 30, 100, 5, picture{left: 45, top: 0, width: 10, rows: 5}},
		{"downscale 1000x700", 1000, 700, 33, 7, picture{left: 6, top: 0, width: 20, rows: 7}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			lines := HalfBlock(pattern(tc.w, tc.h), tc.cols, tc.rows)
			checkLines(t, lines, tc.cols, tc.rows)
			if got := layout(t, lines); got != tc.want {
				t.Errorf("picture %+v, want %+v", got, tc.want)
			}
		})
	}
}

func TestHalfBlockNothingToDraw(t *testing.T) {
	img := pattern(4, 4)
	for _, tc := range []struct {
		img        image.Image
		cols, rows int
	}{{img, 0, 5}, {img, 5, 0}, {img, -1, -3}, {nil, 5, 5}} {
		if got := HalfBlock(tc.img, tc.cols, tc.rows); got != nil {
			t.Errorf("HalfBlock(%v, %d, %d) = %q, want nil", tc.img != nil, tc.cols, tc.rows, got)
		}
	}
	lines := HalfBlock(image.NewRGBA(image.Rect(3, 3, 3, 9)), 6, 2)
	checkLines(t, lines, 6, 2)
	for _, l := range lines {
		if l != "      "+styles.Reset {
			t.Errorf("empty image drew %q, want blank", l)
		}
	}
}

func TestHalfBlockExactSequences(t *testing.T) {
	red, green := color.RGBA{255, 0, 0, 255}, color.RGBA{0, 255, 0, 255}
	blue, white := color.RGBA{0, 0, 255, 255}, color.RGBA{255, 255, 255, 255}
	square := image.NewRGBA(image.Rect(0, 0, 2, 2))
	square.Set(0, 0, red)
	square.Set(1, 0, green)
	square.Set(0, 1, blue)
	square.Set(1, 1, white)

	row := image.NewRGBA(image.Rect(0, 0, 2, 1))
	row.Set(0, 0, red)
	row.Set(1, 0, green)

	checker := image.NewGray(image.Rect(0, 0, 2, 2))
	checker.SetGray(0, 0, color.Gray{255})
	checker.SetGray(1, 1, color.Gray{255})

	glass := image.NewNRGBA(image.Rect(0, 0, 1, 2))
	glass.SetNRGBA(0, 0, color.NRGBA{255, 255, 255, 0})
	glass.SetNRGBA(0, 1, color.NRGBA{255, 255, 255, 128})

	for _, tc := range []struct {
		name       string
		img        image.Image
		cols, rows int
		want       []string
	}{
		{"2x2 fills the box", square, 2, 1, []string{
			"\x1b[38;2;255;0;0m\x1b[48;2;0;0;255m▀\x1b[38;2;0;255;0m\x1b[48;2;255;255;255m▀\x1b[0m",
		}},
		{"2x2 padded", square, 4, 1, []string{
			" \x1b[38;2;255;0;0m\x1b[48;2;0;0;255m▀\x1b[38;2;0;255;0m\x1b[48;2;255;255;255m▀\x1b[49m \x1b[0m",
		}},
		{"2x2 centred vertically", square, 2, 3, []string{
			"  \x1b[0m",
			"\x1b[38;2;255;0;0m\x1b[48;2;0;0;255m▀\x1b[38;2;0;255;0m\x1b[48;2;255;255;255m▀\x1b[0m",
			"  \x1b[0m",
		}},
		// One pixel row: the lower halves keep the terminal's background.
		{"odd height", row, 2, 1, []string{
			"\x1b[38;2;255;0;0m▀\x1b[38;2;0;255;0m▀\x1b[0m",
		}},
		// Two black and two white pixels average to grey; nearest neighbour would pick one.
		{"box filter", checker, 1, 1, []string{
			"\x1b[38;2;127;127;127m▀\x1b[0m",
		}},
		// Transparent shows the #101014 matte; half-transparent white is half way to it.
		{"alpha on the matte", glass, 1, 1, []string{
			"\x1b[38;2;16;16;20m\x1b[48;2;136;136;138m▀\x1b[0m",
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := HalfBlock(tc.img, tc.cols, tc.rows)
			checkLines(t, got, tc.cols, tc.rows)
			if strings.Join(got, "\n") != strings.Join(tc.want, "\n") {
				t.Errorf("got\n%q\nwant\n%q", got, tc.want)
			}
		})
	}
}

func TestHalfBlockRunsOfOneColour(t *testing.T) {
	// Three vertical bands of four pixels, drawn one pixel per cell.
	bands := image.NewRGBA(image.Rect(0, 0, 12, 4))
	colours := []color.RGBA{{200, 30, 30, 255}, {30, 200, 30, 255}, {30, 30, 200, 255}}
	for y := range 4 {
		for x := range 12 {
			bands.Set(x, y, colours[x/4])
		}
	}
	lines := HalfBlock(bands, 12, 2)
	checkLines(t, lines, 12, 2)
	for _, l := range lines {
		if n := strings.Count(l, "\x1b[38;2;"); n != 3 {
			t.Errorf("%d foreground sequences, want 3 (one per band): %q", n, l)
		}
		if n := strings.Count(l, "\x1b[48;2;"); n != 3 {
			t.Errorf("%d background sequences, want 3 (one per band): %q", n, l)
		}
	}

	flat := image.NewUniform(color.RGBA{90, 90, 90, 255})
	for _, l := range HalfBlock(flat, 30, 4) {
		if strings.Count(l, "\x1b[38;2;") > 1 || strings.Count(l, "\x1b[48;2;") > 1 {
			t.Errorf("one colour drawn with repeated sequences: %q", l)
		}
	}
}

// opaque hides an image's concrete type, forcing the generic At path.
type opaque struct{ image.Image }

func TestHalfBlockImageTypes(t *testing.T) {
	src := pattern(37, 23)
	r := src.Bounds()
	nrgba := image.NewNRGBA(r)
	gray := image.NewGray(r)
	gray16 := image.NewGray16(r)
	paletted := image.NewPaletted(r, palette.Plan9)
	ycc := image.NewYCbCr(r, image.YCbCrSubsampleRatio420)
	for y := r.Min.Y; y < r.Max.Y; y++ {
		for x := r.Min.X; x < r.Max.X; x++ {
			c := src.RGBAAt(x, y)
			nrgba.Set(x, y, color.NRGBA{c.R, c.G, c.B, uint8(x * 7)})
			gray.Set(x, y, c)
			gray16.Set(x, y, c)
			paletted.Set(x, y, c)
			yy, cb, cr := color.RGBToYCbCr(c.R, c.G, c.B)
			ycc.Y[ycc.YOffset(x, y)] = yy
			ycc.Cb[ycc.COffset(x, y)] = cb
			ycc.Cr[ycc.COffset(x, y)] = cr
		}
	}
	for _, tc := range []struct {
		name string
		img  image.Image
	}{
		{"RGBA", src}, {"NRGBA", nrgba}, {"Gray", gray}, {"Gray16", gray16},
		{"Paletted", paletted}, {"YCbCr", ycc},
		{"sub-image", src.SubImage(image.Rect(5, 3, 30, 20))},
	} {
		t.Run(tc.name, func(t *testing.T) {
			for _, size := range [][2]int{{13, 5}, {40, 12}, {80, 24}} {
				got := HalfBlock(tc.img, size[0], size[1])
				checkLines(t, got, size[0], size[1])
				if want := HalfBlock(opaque{tc.img}, size[0], size[1]); strings.Join(got, "\n") != strings.Join(want, "\n") {
					t.Errorf("%dx%d: direct read differs from At():\n%q\n%q", size[0], size[1], got, want)
				}
			}
		})
	}
}

func TestHalfBlockSubImageOrigin(t *testing.T) {
	src := pattern(40, 30)
	sub := src.SubImage(image.Rect(7, 5, 27, 21))
	moved := image.NewRGBA(image.Rect(0, 0, 20, 16))
	for y := range 16 {
		for x := range 20 {
			moved.Set(x, y, src.At(x+7, y+5))
		}
	}
	if a, b := HalfBlock(sub, 15, 6), HalfBlock(moved, 15, 6); strings.Join(a, "\n") != strings.Join(b, "\n") {
		t.Errorf("a sub-image draws differently from the same pixels at the origin:\n%q\n%q", a, b)
	}
}

// countingImage is a huge image that computes its pixels and counts reads.
type countingImage struct {
	rect  image.Rectangle
	reads int
}

func (c *countingImage) ColorModel() color.Model { return color.RGBAModel }
func (c *countingImage) Bounds() image.Rectangle { return c.rect }
func (c *countingImage) At(x, y int) color.Color {
	c.reads++
	return color.Gray{uint8(x>>8 ^ y>>8)}
}

func TestHalfBlockHugeImageCapsWork(t *testing.T) {
	img := &countingImage{rect: image.Rect(0, 0, 200_000, 120_000)}
	const cols, rows = 10, 5
	lines := HalfBlock(img, cols, rows)
	checkLines(t, lines, cols, rows)
	if limit := cols * 2 * rows * maxSamples * maxSamples; img.reads > limit || img.reads == 0 {
		t.Errorf("%d pixel reads, want 1…%d", img.reads, limit)
	}
	if p := layout(t, lines); p.width != 10 || p.rows != 3 {
		t.Errorf("picture %+v, want 10 wide and 3 rows (6 pixels)", p)
	}
}

func encodePNG(t testing.TB, img image.Image) []byte {
	t.Helper()
	var b bytes.Buffer
	if err := png.Encode(&b, img); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// pngHeader returns a PNG signature and an IHDR chunk claiming w×h RGBA
// pixels, with a correct CRC, and no image data.
func pngHeader(w, h uint32) []byte {
	ihdr := []byte("IHDR")
	ihdr = binary.BigEndian.AppendUint32(ihdr, w)
	ihdr = binary.BigEndian.AppendUint32(ihdr, h)
	ihdr = append(ihdr, 8, 6, 0, 0, 0) // 8-bit RGBA, deflate, no filter method, not interlaced
	b := []byte("\x89PNG\r\n\x1a\n")
	b = binary.BigEndian.AppendUint32(b, uint32(len(ihdr)-4))
	b = append(b, ihdr...)
	return binary.BigEndian.AppendUint32(b, crc32.ChecksumIEEE(ihdr))
}

func TestDecodeImage(t *testing.T) {
	src := pattern(5, 3)
	valid := encodePNG(t, src)
	var gifData, jpegData bytes.Buffer
	if err := gif.Encode(&gifData, src, nil); err != nil {
		t.Fatal(err)
	}
	if err := jpeg.Encode(&jpegData, src, nil); err != nil {
		t.Fatal(err)
	}

	for _, tc := range []struct {
		name string
		data []byte
	}{{"png", valid}, {"gif", gifData.Bytes()}, {"jpeg", jpegData.Bytes()}} {
		img, err := DecodeImage(tc.data)
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if img.Bounds() != src.Bounds() {
			t.Errorf("%s: bounds %v, want %v", tc.name, img.Bounds(), src.Bounds())
		}
	}
	img, _ := DecodeImage(valid)
	if got, want := color.RGBAModel.Convert(img.At(4, 2)), src.At(4, 2); got != want {
		t.Errorf("png pixel (4,2) = %v, want %v", got, want)
	}

	for _, tc := range []struct {
		name string
		data []byte
	}{
		{"nil", nil},
		{"garbage", []byte("this is not an image, just text pretending")},
		{"truncated png", valid[:len(valid)/2]},
		{"header only", pngHeader(4, 4)},
		{"zero width", pngHeader(0, 4)},
	} {
		if img, err := DecodeImage(tc.data); err == nil {
			t.Errorf("%s: decoded %v, want an error", tc.name, img.Bounds())
		}
	}
}

func TestDecodeImageRefusesHugeHeader(t *testing.T) {
	data := pngHeader(60000, 60000)
	// Followed by a little real image data, so only the size check can stop it.
	data = append(data, encodePNG(t, pattern(2, 2))[33:]...)

	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	img, err := DecodeImage(data)
	runtime.ReadMemStats(&after)
	if !errors.Is(err, ErrImageTooLarge) {
		t.Fatalf("DecodeImage(60000×60000 header) = %v, %v; want ErrImageTooLarge", img, err)
	}
	if grew := after.TotalAlloc - before.TotalAlloc; grew > 1<<20 {
		t.Errorf("refusing the header allocated %d bytes", grew)
	}
	if !strings.Contains(err.Error(), "60000×60000") {
		t.Errorf("error %q does not say the size", err)
	}
	if _, err := DecodeImage(pngHeader(4096, 4097)); !errors.Is(err, ErrImageTooLarge) {
		t.Errorf("4096×4097: %v, want ErrImageTooLarge", err)
	}
}

func FuzzDecodeImage(f *testing.F) {
	src := pattern(6, 5)
	f.Add(encodePNG(f, src))
	var g bytes.Buffer
	if err := gif.Encode(&g, src, nil); err != nil {
		f.Fatal(err)
	}
	f.Add(g.Bytes())
	f.Add(pngHeader(60000, 60000))
	f.Add([]byte("GIF89a"))
	f.Add([]byte{0xff, 0xd8, 0xff})
	f.Fuzz(func(t *testing.T, data []byte) {
		img, err := DecodeImage(data)
		if err != nil {
			return
		}
		checkLines(t, HalfBlock(img, 7, 3), 7, 3)
	})
}

// demoScreenshots returns the inline images of the demo's tool results, in order.
func demoScreenshots(t testing.TB) [][]byte {
	t.Helper()
	f, err := os.Open(filepath.Join("..", "..", "assets", "demo.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var shots [][]byte
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 64<<20)
	for n := 1; sc.Scan(); n++ {
		var ev struct {
			Type    string          `json:"type"`
			Content json.RawMessage `json:"content"`
		}
		if err := json.Unmarshal(sc.Bytes(), &ev); err != nil {
			t.Fatalf("demo.jsonl line %d: %v", n, err)
		}
		if ev.Type != "TOOL_CALL_RESULT" || !bytes.HasPrefix(ev.Content, []byte("[")) {
			continue
		}
		var parts []struct {
			Type   string `json:"type"`
			Source struct {
				Type  string `json:"type"`
				Value string `json:"value"`
			} `json:"source"`
		}
		if err := json.Unmarshal(ev.Content, &parts); err != nil {
			t.Fatalf("demo.jsonl line %d: content: %v", n, err)
		}
		for _, p := range parts {
			if p.Type != "image" || p.Source.Type != "data" {
				continue
			}
			data, err := base64.StdEncoding.DecodeString(p.Source.Value)
			if err != nil {
				t.Fatalf("demo.jsonl line %d: image: %v", n, err)
			}
			shots = append(shots, data)
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return shots
}

func TestHalfBlockGolden(t *testing.T) {
	shots := demoScreenshots(t)
	if len(shots) < 3 {
		t.Fatalf("demo has %d screenshots, want at least 3", len(shots))
	}
	for i, data := range shots {
		img, err := DecodeImage(data)
		if err != nil {
			t.Fatalf("screenshot %d: %v", i+1, err)
		}
		for _, size := range [][2]int{{40, 12}, {80, 24}} {
			name := fmt.Sprintf("demo-%d-%dx%d", i+1, size[0], size[1])
			t.Run(name, func(t *testing.T) {
				lines := HalfBlock(img, size[0], size[1])
				checkLines(t, lines, size[0], size[1])
				got := strings.Join(lines, "\n") + "\n"
				golden.RequireEqual(t, got)
			})
		}
	}
}

// BenchmarkHalfBlock draws a 160×100 demo screenshot in an 80×24 box.
func BenchmarkHalfBlock(b *testing.B) {
	img, err := DecodeImage(demoScreenshots(b)[0])
	if err != nil {
		b.Fatal(err)
	}
	if got := img.Bounds().Size(); got != image.Pt(160, 100) {
		b.Fatalf("demo screenshot is %v, want 160×100", got)
	}
	for b.Loop() {
		HalfBlock(img, 80, 24)
	}
}

// BenchmarkHalfBlockLarge draws a 4096×4096 photo-like YCbCr image (the
// largest DecodeImage accepts) in an 80×24 box, where sampling is capped.
func BenchmarkHalfBlockLarge(b *testing.B) {
	img := image.NewYCbCr(image.Rect(0, 0, 4096, 4096), image.YCbCrSubsampleRatio420)
	for i := range img.Y {
		img.Y[i] = uint8(i * 31)
	}
	for b.Loop() {
		HalfBlock(img, 80, 24)
	}
}
