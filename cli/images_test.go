package cli

import (
	"bytes"
	"io"
	"strings"
	"testing"
)

func TestImagesFlag(t *testing.T) {
	// Every command that draws the screen takes --images; a value it does
	// not know is refused as the command line is read, naming the four.
	for _, cmd := range [][]string{{}, {"replay"}, {"tail"}, {"connect"}, {"serve"}, {"acp"}, {"otlp"}} {
		var stderr bytes.Buffer
		args := append(append([]string{}, cmd...), "--images", "sixel", "x")
		if code := Run(args, strings.NewReader(""), io.Discard, &stderr); code != 2 {
			t.Errorf("%v: exit %d, want 2; stderr %q", args, code, stderr.String())
		}
		if !strings.Contains(stderr.String(), "want auto, kitty, blocks or off") {
			t.Errorf("%v: stderr %q does not name the values", args, stderr.String())
		}
	}
	// A value it knows is taken: the command goes on to its own work (here,
	// steps of a file piped rather than drawn).
	for _, v := range []string{"auto", "kitty", "blocks", "off"} {
		var out bytes.Buffer
		if code := Run([]string{"--images", v, "../assets/demo.jsonl"}, nil, &out, io.Discard); code != 0 || !strings.Contains(out.String(), "30 steps") {
			t.Errorf("--images %s: exit %d, output %q", v, code, out.String()[:min(out.Len(), 80)])
		}
	}
}
