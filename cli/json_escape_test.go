package cli

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
)

// hostileText holds what a terminal acts on or a reader is fooled by: 8-bit
// CSI, OSC, DCS and ST, a bidi override and an isolate, an ESC (which JSON
// escapes anyway), and harmless neighbours that must stay as they are.
const hostileText = "clear\u009b2J osc\u009d0;owned\u009c dcs\u0090q\u009c evil\u202egnp.exe \u2066iso\u2069 esc\x1b[31m — é ’"

// rawUnsafeIn returns the first character of s that JSON output must
// escape, or "".
func rawUnsafeIn(s string) string {
	for _, r := range s {
		if (r >= 0x80 && r <= 0x9f) || (r >= 0x202a && r <= 0x202e) || (r >= 0x2066 && r <= 0x2069) || r == 0x200e || r == 0x200f {
			return fmt.Sprintf("%U", r)
		}
	}
	return ""
}

// fold, fold --compact, compact and threads --json print agent text with
// its C1 controls and bidi overrides as \u escapes: valid JSON that
// decodes to exactly what the agent sent, and nothing raw on a terminal.
func TestJSONOutputEscapesControls(t *testing.T) {
	q, _ := json.Marshal(hostileText)
	log := strings.Join([]string{
		`{"type":"RUN_STARTED","threadId":"t` + "\u202e" + `1","runId":"r"}`,
		`{"type":"TEXT_MESSAGE_START","messageId":"u","role":"user"}`,
		`{"type":"TEXT_MESSAGE_CONTENT","messageId":"u","delta":` + string(q) + `}`,
		`{"type":"TEXT_MESSAGE_END","messageId":"u"}`,
		`{"type":"TOOL_CALL_START","toolCallId":"c","toolCallName":"sh\u009b"}`,
		`{"type":"TOOL_CALL_ARGS","toolCallId":"c","delta":"{\"cmd\":` + strings.ReplaceAll(string(q), `"`, `\"`) + `}"}`,
		`{"type":"TOOL_CALL_END","toolCallId":"c"}`,
		`{"type":"STATE_SNAPSHOT","snapshot":{"note":` + string(q) + `}}`,
		`{"type":"RUN_FINISHED","threadId":"t` + "\u202e" + `1","runId":"r"}`,
	}, "\n") + "\n"
	path := writeFile(t, t.TempDir(), "hostile.jsonl", []byte(log))
	if rawUnsafeIn(log) == "" {
		t.Fatal("the test log holds nothing to escape")
	}
	for _, args := range [][]string{{"fold", path}, {"fold", "--compact", path}, {"compact", path}, {"threads", "--json", path}} {
		code, out, errOut := runCLI(t, nil, args...)
		if code != 0 {
			t.Fatalf("%v: exit %d, %s", args, code, errOut)
		}
		if r := rawUnsafeIn(out); r != "" {
			t.Errorf("%v prints %s raw", args, r)
		}
		var v any
		if err := json.Unmarshal([]byte(out), &v); err != nil {
			t.Fatalf("%v: not JSON: %v\n%s", args, err, out)
		}
		decoded, _ := json.Marshal(v)
		var strs []string
		collectStrings(v, &strs)
		found := false
		for _, s := range strs {
			found = found || strings.Contains(s, hostileText)
		}
		if !found && args[0] != "threads" {
			t.Errorf("%v: no string decodes to the agent's text; output %s", args, decoded)
		}
		if args[0] == "threads" && !strings.Contains(strings.Join(strs, "\n"), "evil\u202egnp") {
			t.Errorf("threads --json: the title does not decode to the agent's text: %s", out)
		}
	}
}

// collectStrings appends every string in a decoded JSON value, keys too.
func collectStrings(v any, out *[]string) {
	switch v := v.(type) {
	case string:
		*out = append(*out, v)
	case []any:
		for _, e := range v {
			collectStrings(e, out)
		}
	case map[string]any:
		for k, e := range v {
			*out = append(*out, k)
			collectStrings(e, out)
		}
	}
}
