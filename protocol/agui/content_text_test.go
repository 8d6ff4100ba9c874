package agui

import (
	"bytes"
	"strings"
	"testing"

	"github.com/go-json-experiment/json/jsontext"

	"github.com/agentwatch/agentwatch/internal/piecewise"
)

// TestContentTextLikeTheDecoder decodes string contents, small and bigger
// than a piece, plain and with every kind of escape (and invalid UTF-8,
// which only the lenient decoder takes), and checks the text is what
// jsontext's own unquoting makes of them.
func TestContentTextLikeTheDecoder(t *testing.T) {
	bodies := []string{
		`plain text`,
		`line\nnext\ttab \"quoted\" back\\slash \/ \b\f\r`,
		`\u00e9t\u00e9 \ud83d\ude00 \u0000`,
		`lone \ud800 surrogate`,
		"bad \xff utf-8",
		``,
	}
	for _, body := range bodies {
		for _, n := range []int{1, piecewise.Piece/len(body+"x") + 2} {
			q := []byte(`"` + strings.Repeat(body+"x", n) + `"`)
			tok, err := jsontext.NewDecoder(bytes.NewReader(q), decodeOptions).ReadToken()
			if err != nil {
				t.Fatalf("%.40q: %v", body, err)
			}
			want := tok.String()
			var c Content
			if err := unmarshal(q, &c); err != nil {
				t.Fatalf("%.40q ×%d: %v", body, n, err)
			}
			if !c.Present || c.IsParts || c.Text != want {
				t.Errorf("%.40q ×%d: got %.60q (present %v), want %.60q", body, n, c.Text, c.Present, want)
			}
		}
	}
}
