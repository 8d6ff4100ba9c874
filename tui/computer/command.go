package computer

import (
	"encoding/json"
	"strings"

	"github.com/agentwatch/agentwatch/model"
)

// Command is the command line an execute step ran, as its view shows it
// after "$ " ("" when neither its arguments nor its location say): the
// command with its arguments, each quoted as a shell would need it
// ("sh -c 'go test ./...'"), whether they came as one list or as a
// command and an args list (as ACP's terminal/create has them).
func Command(s *model.Step) string {
	if s == nil {
		return ""
	}
	return commandOf(s, parseArgs(s.ArgsJSON))
}

// commandOf is the command of s whose arguments are a.
func commandOf(s *model.Step, a stepArgs) string {
	for _, k := range []string{"command", "cmd", "script"} {
		words, list := a.words(k)
		if len(words) == 0 {
			continue
		}
		if list {
			return shellJoin(words)
		}
		cmd := words[0]
		for _, ak := range []string{"args", "argv", "arguments"} {
			if args, _ := a.words(ak); len(args) > 0 {
				return cmd + " " + shellJoin(args)
			}
		}
		return cmd
	}
	return s.Location
}

// words is member k as words: a string is one (list false), a list of
// strings is its items (list true); nil for anything else.
func (a stepArgs) words(k string) (words []string, list bool) {
	v, ok := a[k]
	if !ok {
		return nil, false
	}
	var s string
	if json.Unmarshal(v, &s) == nil && s != "" {
		return []string{s}, false
	}
	var l []string
	if json.Unmarshal(v, &l) == nil && len(l) > 0 {
		return l, true
	}
	return nil, false
}

// shellJoin writes words as a shell command line: a word with a space or
// a character the shell reads is single-quoted.
func shellJoin(words []string) string {
	quoted := make([]string, len(words))
	for i, w := range words {
		quoted[i] = shellQuote(w)
	}
	return strings.Join(quoted, " ")
}

// shellQuote is w as one shell word.
func shellQuote(w string) string {
	if w == "" {
		return "''"
	}
	plain := true
	for _, r := range w {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("_@%+=:,./-", r) || r > 0x7f) {
			plain = false
			break
		}
	}
	if plain {
		return w
	}
	return "'" + strings.ReplaceAll(w, "'", `'\''`) + "'"
}

// unfenced is text without the fence of the one Markdown code block it is
// wholly made of ("```go" … "```": agents wrap a file they read, or a
// command's output, in one); any other text is returned as it is.
func unfenced(text string) string {
	t := strings.Trim(text, "\n")
	open, body, ok := strings.Cut(t, "\n")
	fence := strings.TrimRight(open, " ")
	n := len(fence) - len(strings.TrimLeft(fence, "`"))
	if !ok || n < 3 {
		return text
	}
	fence = fence[:n]
	i := strings.LastIndexByte(body, '\n')
	if strings.TrimSpace(body[i+1:]) != fence {
		return text
	}
	if i < 0 {
		return ""
	}
	body = body[:i]
	for l := range strings.SplitSeq(body, "\n") {
		if strings.HasPrefix(strings.TrimLeft(l, " "), fence) {
			return text // more than one block
		}
	}
	return body + "\n"
}
