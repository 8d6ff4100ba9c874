// Package replysteps is the reply the views of steps are tested on: five
// steps of every kind a row and a computer card draw, one with a
// screenshot when asked.
package replysteps

import (
	"bytes"
	"image"
	"image/color"
	"image/png"
	"testing"

	"github.com/agentwatch/agentwatch/model"
)

// PNG is a 24×16 PNG of four coloured quadrants.
func PNG(t testing.TB) []byte {
	t.Helper()
	img := image.NewNRGBA(image.Rect(0, 0, 24, 16))
	quad := []color.NRGBA{{0xe0, 0x40, 0x40, 0xff}, {0x40, 0xe0, 0x40, 0xff}, {0x40, 0x40, 0xe0, 0xff}, {0xe0, 0xe0, 0x40, 0xff}}
	for y := range 16 {
		for x := range 24 {
			img.SetNRGBA(x, y, quad[(y/8)*2+x/12])
		}
	}
	var b bytes.Buffer
	if err := png.Encode(&b, img); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// Steps is a reply of five steps: read, search, a failed command, an edit
// and a running command; step 1 (search) has a screenshot (PNG) when shot
// is set.
func Steps(t testing.TB, shot bool) []*model.Step {
	steps := []*model.Step{
		{Category: model.CategoryRead, Location: "fold/fold.go", Status: model.StatusCompleted, DurationMS: 12},
		{Category: model.CategorySearch, Location: `"TODO" in src/`, Status: model.StatusCompleted, DurationMS: 340},
		{Category: model.CategoryExecute, Location: "go test ./...", Status: model.StatusFailed, ExitCode: new(1), DurationMS: 2100},
		{Category: model.CategoryEdit, Location: "fold/fold.go", Status: model.StatusCompleted, DurationMS: 45},
		{Category: model.CategoryExecute, Location: "go test ./...", Status: model.StatusRunning},
	}
	for i, s := range steps {
		s.Index = i
		s.ToolName = "tool"
	}
	if shot {
		steps[1].Screenshots = []model.Image{{MimeType: "image/png", Data: PNG(t)}}
	}
	return steps
}
