package codex

import (
	"encoding/json"
	"math"
	"strconv"
	"strings"
)

// output is what a tool's output says: the text to show, and what its
// header said of how the command ended.
type output struct {
	body    string
	exit    int
	hasExit bool
	// wallMS is how long the command ran, in milliseconds (-1 when not said).
	wallMS int64
	failed bool
}

// parseOutput reads a tool's output. Codex writes a command's output after
// a header of one fact a line ("Chunk ID: …", "Wall time: 0.0312 seconds",
// "Process exited with code 1", "Original token count: …", then
// "Output:"), and older builds "Exit code: 1" and "Wall time: 1.2 seconds",
// or a JSON object {"output", "metadata": {"exit_code", "duration_seconds"}}.
// Text without such a header is shown whole.
func parseOutput(s string) output {
	o := output{body: s, wallMS: -1}
	if strings.HasPrefix(s, "{") {
		var j struct {
			Output   *string `json:"output"`
			Metadata *struct {
				ExitCode        *int     `json:"exit_code"`
				DurationSeconds *float64 `json:"duration_seconds"`
			} `json:"metadata"`
		}
		if json.Unmarshal([]byte(s), &j) == nil && j.Output != nil {
			o.body = *j.Output
			if m := j.Metadata; m != nil {
				if m.ExitCode != nil {
					o.exit, o.hasExit = *m.ExitCode, true
				}
				if m.DurationSeconds != nil {
					o.wallMS = millis(*m.DurationSeconds)
				}
			}
			return o
		}
	}
	h := output{wallMS: -1}
	rest := s
	for rest != "" {
		line, after, _ := strings.Cut(rest, "\n")
		line = strings.TrimRight(line, "\r")
		switch {
		case line == "Output:":
			h.body = after
			return h
		case cutInt(line, "Process exited with code ", &h.exit), cutInt(line, "Exit code: ", &h.exit):
			h.hasExit = true
		case strings.HasPrefix(line, "Wall time: "):
			f := strings.Fields(strings.TrimPrefix(line, "Wall time: "))
			if len(f) > 0 {
				if sec, err := strconv.ParseFloat(strings.TrimSuffix(f[0], "s"), 64); err == nil {
					h.wallMS = millis(sec)
				}
			}
		case strings.HasPrefix(line, "Chunk ID: "), strings.HasPrefix(line, "Original token count: "),
			strings.HasPrefix(line, "Process running with session ID "), strings.HasPrefix(line, "Total output lines: "):
		default:
			return o
		}
		rest = after
	}
	return o
}

// cutInt parses the integer after prefix in line into *n.
func cutInt(line, prefix string, n *int) bool {
	v, ok := strings.CutPrefix(line, prefix)
	if !ok {
		return false
	}
	i, err := strconv.Atoi(strings.TrimSpace(v))
	if err != nil {
		return false
	}
	*n = i
	return true
}

// millis is seconds as whole milliseconds (-1 for what is not a duration).
func millis(sec float64) int64 {
	if math.IsNaN(sec) || sec < 0 || sec > 1e9 {
		return -1
	}
	return int64(math.Round(sec * 1000))
}
