package otel_test

import (
	"os"
	"strings"
	"testing"

	"github.com/agentwatch/agentwatch/protocol/otel"
)

// docs/OTEL.md lists every builtin tool, in the row of its category.
func TestDocsListBuiltinTools(t *testing.T) {
	b, err := os.ReadFile("../../docs/OTEL.md")
	if err != nil {
		t.Fatal(err)
	}
	rows := map[string]string{}
	for line := range strings.SplitSeq(string(b), "\n") {
		if cells := strings.Split(line, "|"); len(cells) > 3 {
			rows[strings.TrimSpace(cells[1])] += cells[2]
		}
	}
	for tool, cat := range otel.Builtin {
		if !strings.Contains(rows[string(cat)], tool) {
			t.Errorf("docs/OTEL.md: %s is not in the %s row", tool, cat)
		}
	}
}
