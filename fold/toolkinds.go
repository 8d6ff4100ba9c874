package fold

import (
	"fmt"
	"strings"

	"github.com/go-json-experiment/json/jsontext"

	"github.com/agentwatch/agentwatch/model"
	"github.com/agentwatch/agentwatch/protocol/agui"
)

// ToolKind is the user's configuration for one tool: its category, and a
// JSON pointer (RFC 6901) into the arguments where its location is.
type ToolKind struct {
	Category model.Category `json:"category"`
	Location string         `json:"location,omitempty"`
}

// ToolKinds maps tool names to their configured kind (`--tool-kinds FILE`).
type ToolKinds map[string]ToolKind

// ParseToolKinds reads a mapping file: a JSON object from tool name to
// either a category string or {"category": …, "location": "/json/pointer"}.
func ParseToolKinds(data []byte) (ToolKinds, error) {
	var raw map[string]jsontext.Value
	if err := agui.UnmarshalValue(data, &raw); err != nil {
		return nil, fmt.Errorf("tool kinds: not a JSON object of tool names: %v", err)
	}
	out := make(ToolKinds, len(raw))
	for name, v := range raw {
		var k ToolKind
		switch v.Kind() {
		case '"':
			var s string
			_ = agui.UnmarshalValue(v, &s)
			k.Category = model.Category(s)
		case '{':
			if err := agui.UnmarshalValue(v, &k); err != nil {
				return nil, fmt.Errorf("tool kinds: %q: %v", name, err)
			}
		default:
			return nil, fmt.Errorf("tool kinds: %q: want a category or {\"category\", \"location\"}", name)
		}
		if _, ok := model.ParseCategory(string(k.Category)); !ok {
			return nil, fmt.Errorf("tool kinds: %q: unknown category %q (want one of %s)", name, k.Category, categoryList())
		}
		if k.Location != "" && !strings.HasPrefix(k.Location, "/") {
			return nil, fmt.Errorf("tool kinds: %q: location %q is not a JSON pointer (it starts with /)", name, k.Location)
		}
		out[name] = k
	}
	return out, nil
}

func categoryList() string {
	s := make([]string, len(model.Categories))
	for i, c := range model.Categories {
		s[i] = string(c)
	}
	return strings.Join(s, ", ")
}

// pointer resolves an RFC 6901 JSON pointer in doc and returns the value as
// display text (strings unquoted, anything else as compact JSON).
func pointer(doc jsontext.Value, ptr string) (string, bool) {
	if ptr == "" || len(doc) == 0 {
		return "", false
	}
	cur := doc
	for _, tok := range strings.Split(ptr[1:], "/") {
		tok = strings.ReplaceAll(strings.ReplaceAll(tok, "~1", "/"), "~0", "~")
		switch cur.Kind() {
		case '{':
			var m map[string]jsontext.Value
			if agui.UnmarshalValue(cur, &m) != nil {
				return "", false
			}
			v, ok := m[tok]
			if !ok {
				return "", false
			}
			cur = v
		case '[':
			var a []jsontext.Value
			if agui.UnmarshalValue(cur, &a) != nil {
				return "", false
			}
			var i int
			if _, err := fmt.Sscanf(tok, "%d", &i); err != nil || i < 0 || i >= len(a) {
				return "", false
			}
			cur = a[i]
		default:
			return "", false
		}
	}
	if cur.Kind() == '"' {
		var s string
		if agui.UnmarshalValue(cur, &s) == nil {
			return s, true
		}
	}
	c := cur.Clone()
	if c.Compact() != nil {
		return "", false
	}
	return string(c), true
}
