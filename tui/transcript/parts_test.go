package transcript

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/charmbracelet/x/ansi"

	"github.com/agentwatch/agentwatch/model"
)

// longText is n bytes of markdown paragraphs, numbered so that a row tells
// where it comes from, with a code fence now and then.
func longText(n int, seed uint64) string {
	rng := rand.New(rand.NewPCG(seed, 1))
	var b strings.Builder
	for p := 0; b.Len() < n; p++ {
		fmt.Fprintf(&b, "para%d", p)
		for range 10 + rng.IntN(120) {
			b.WriteString(" word")
		}
		b.WriteString("\n\n")
		if rng.IntN(20) == 0 {
			b.WriteString("```\ncode line\n\ncode after a blank\n```\n\n")
		}
	}
	return b.String()
}

// byteCountingTranscript is a transcript whose markdown renderer counts the
// bytes it is given.
func byteCountingTranscript(w, h int) (*Transcript, *int) {
	tr := New()
	tr.SetSize(w, h)
	n := new(int)
	md := tr.markdown
	tr.markdown = func(src string, width int) string {
		*n += len(src)
		return md(src, width)
	}
	return tr, n
}

func TestLongMessageRendersWhatIsVisible(t *testing.T) {
	text := longText(8<<20, 1)
	items := []*model.Item{
		{Seq: 1, Kind: model.ItemMessage, Role: "user", Text: "hi", Status: model.StatusCompleted},
		{Seq: 2, Kind: model.ItemMessage, Role: "assistant", Text: text, Status: model.StatusCompleted, Version: 1},
	}
	tr, rendered := byteCountingTranscript(80, 24)
	tr.SetItems(items, nil)
	// At most a few parts of 16-24 KiB are rendered for a screen.
	bound := 8 * partSize
	view := ansi.Strip(strings.Join(tr.View(), "\n"))
	if *rendered > bound {
		t.Fatalf("following the bottom rendered %d bytes of an 8 MiB message, want at most %d", *rendered, bound)
	}
	last := strings.TrimSpace(text[strings.LastIndex(strings.TrimSpace(text), "para"):])
	if !strings.Contains(view, strings.Fields(last)[0]) {
		t.Errorf("the bottom of the view does not show the message's last paragraph %q:\n%s", strings.Fields(last)[0], view)
	}

	*rendered = 0
	tr.ScrollBy(-1 << 30)
	view = ansi.Strip(strings.Join(tr.View(), "\n"))
	if *rendered > bound {
		t.Errorf("a jump to the top rendered %d bytes, want at most %d", *rendered, bound)
	}
	if !strings.Contains(view, "para0 ") || !strings.Contains(view, "assistant") && !strings.Contains(view, "agent") {
		t.Errorf("the top of the view does not show the message's head:\n%s", view)
	}

	*rendered = 0
	tr.SetSize(61, 30)
	tr.View()
	if *rendered > bound {
		t.Errorf("a resize rendered %d bytes, want at most %d", *rendered, bound)
	}

	// Scrolling down a screen at a time goes through the parts in order.
	prev := -1
	for range 40 {
		tr.ScrollBy(30)
		view = ansi.Strip(strings.Join(tr.View(), "\n"))
		i := strings.Index(view, "para")
		if i < 0 {
			continue
		}
		var p int
		fmt.Sscanf(view[i:], "para%d", &p)
		if p < prev {
			t.Fatalf("scrolling down went back from para%d to para%d", prev, p)
		}
		prev = p
	}
	if prev <= 0 {
		t.Errorf("scrolling down never left the first paragraph")
	}
}

func TestPartsCoverTheText(t *testing.T) {
	for seed := range uint64(20) {
		text := longText(partMin+int(seed)*37_000, seed)
		if seed%3 == 0 {
			// No paragraph breaks at all, and characters of several bytes.
			text = strings.Repeat("ü€x", len(text)/6)
		}
		p := cutParts(text, nil)
		var b strings.Builder
		for k := range p.count() {
			from, to := p.span(k)
			if from >= to {
				t.Fatalf("seed %d: part %d is empty (%d..%d)", seed, k, from, to)
			}
			if !utf8.ValidString(text[from:to]) {
				t.Fatalf("seed %d: part %d cuts a character", seed, k)
			}
			if to-from > 4*partSize+partSize {
				t.Fatalf("seed %d: part %d is %d bytes", seed, k, to-from)
			}
			if strings.Count(text[from:to], "```")%2 != 0 {
				t.Fatalf("seed %d: part %d cuts a code fence", seed, k)
			}
			b.WriteString(text[from:to])
		}
		if b.String() != text {
			t.Fatalf("seed %d: the parts do not make the text", seed)
		}
		// A text that grows keeps its cuts but the last, and cuts the same.
		more := text + longText(3*partSize, seed+100)
		grown, fresh := cutParts(more, p), cutParts(more, nil)
		if fmt.Sprint(grown.cuts) != fmt.Sprint(fresh.cuts) {
			t.Fatalf("seed %d: cutting a grown text again made other cuts:\n%v\n%v", seed, grown.cuts, fresh.cuts)
		}
	}
}

func TestShortItemsAreNotSplit(t *testing.T) {
	tr := New()
	tr.SetSize(80, 24)
	tr.SetItems([]*model.Item{{Seq: 1, Kind: model.ItemMessage, Role: "assistant", Text: strings.Repeat("x ", partMin/2)}}, nil)
	if tr.entries != nil || tr.count() != 1 {
		t.Errorf("a text of %d bytes was split into %d entries", partMin, tr.count())
	}
	// Reasoning splits only while it is expanded.
	r := &model.Item{Seq: 2, Kind: model.ItemReasoning, Text: longText(partMin*3, 2)}
	tr.SetItems([]*model.Item{r}, nil)
	if tr.count() != 1 {
		t.Fatalf("collapsed reasoning is %d entries", tr.count())
	}
	tr.ToggleExpanded(2)
	if tr.count() < 3 {
		t.Errorf("expanded reasoning of %d bytes is %d entries", len(r.Text), tr.count())
	}
}
