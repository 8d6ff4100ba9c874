package fold

import (
	"bytes"
	"slices"
	"strings"

	"github.com/go-json-experiment/json/jsontext"

	"github.com/agentwatch/agentwatch/model"
)

// The names agents give, in their tools' input (ACP rawInput), to what a
// label says and the locations may not, most telling first.
var (
	patternKeys     = []string{"pattern", "query", "regex", "glob", "search", "q"}
	destinationKeys = []string{"destination", "to", "dest", "new_path", "newPath", "target", "target_path", "targetPath"}
	sourceKeys      = []string{"source", "from", "src", "old_path", "oldPath", "path", "file_path", "filePath"}
)

// maxInputWord bounds what a label keeps of a value it reads from the
// input: a row shows a few hundred cells at most.
const maxInputWord = 1024

// acpInputWords reads from a step's input what its label says: a search's
// pattern (its locations, once it finished, are its matches), a move's
// destination, and a move's source when the agent named no location. The
// step keeps them when its input is shed; an input without them leaves
// what an earlier one said.
func acpInputWords(s *model.Step) {
	switch s.Category {
	case model.CategorySearch:
		if p := inputString(s.ArgsJSON, patternKeys); p != "" {
			s.Pattern = p
		}
	case model.CategoryMove:
		if to := inputString(s.ArgsJSON, destinationKeys); to != "" {
			s.Destination = to
		}
		if s.Location == "" {
			s.Location = inputString(s.ArgsJSON, sourceKeys)
		}
	}
}

// inputString is the string value of the first of keys that a JSON
// object's top level holds ("" for none, or when raw is not an object),
// cut to maxInputWord bytes. Other values are skipped, not decoded: an
// input may be huge.
func inputString(raw []byte, keys []string) string {
	if len(raw) == 0 || raw[0] != '{' {
		return ""
	}
	found := make([]string, len(keys))
	dec := jsontext.NewDecoder(bytes.NewReader(raw))
	if _, err := dec.ReadToken(); err != nil {
		return ""
	}
	for dec.PeekKind() == '"' {
		name, err := dec.ReadToken()
		if err != nil {
			return ""
		}
		i := slices.Index(keys, name.String())
		if i < 0 || found[i] != "" || dec.PeekKind() != '"' {
			if dec.SkipValue() != nil {
				return ""
			}
			continue
		}
		v, err := dec.ReadToken()
		if err != nil {
			return ""
		}
		// A copy: the cut must not hold the whole value.
		found[i] = strings.Clone(cutUTF8(v.String(), maxInputWord))
	}
	for _, v := range found {
		if v != "" {
			return v
		}
	}
	return ""
}
