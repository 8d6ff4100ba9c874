package loggen

import (
	"encoding/base64"
	"math/rand/v2"
	"strconv"
	"strings"
	"unicode/utf8"
)

// categories are the ACP ToolKind words, weighted by how often a coding
// agent uses each (reads and commands dominate).
var categories = []string{"read", "edit", "delete", "move", "search", "execute", "think", "fetch", "switch_mode", "other"}

var categoryWeights = []int{30, 15, 2, 2, 15, 20, 5, 5, 2, 4}

// toolNames is the tool a category's calls use.
var toolNames = map[string]string{
	"read": "read_file", "edit": "edit_file", "delete": "delete_file", "move": "move_file",
	"search": "grep", "execute": "bash", "think": "think", "fetch": "web_fetch",
	"switch_mode": "switch_mode", "other": "todo_write",
}

// toolDeclarations is the `tools` a client offers in RUN_STARTED.input.
var toolDeclarations = func() string {
	var b strings.Builder
	b.WriteByte('[')
	for i, c := range categories {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(`{"name":"` + toolNames[c] + `","description":"` + c + ` tool of the coding agent","parameters":{"type":"object","properties":{"path":{"type":"string"},"command":{"type":"string"}},"additionalProperties":true}}`)
	}
	b.WriteByte(']')
	return b.String()
}()

var (
	words = strings.Fields(`the a fold event events run runs message tool call calls state delta snapshot
		file files test tests function returns error errors value values reader decoder buffer line lines
		I will now check read look at update fix change add remove rename the this that it is was be should
		can cannot because so then first next finally also which where when how why config module package
		import interface struct method field pointer slice map string bytes JSON patch diff build passes fails
		benchmark memory allocation goroutine channel context timeout retry handler server client request
		response status code path directory output input stream streaming parse parsed valid invalid`)
	codeWords = []string{"fold.Apply", "agui.Decode", "model.Record", "Next()", "io.EOF", "json.Unmarshal",
		"ctx.Done()", "t.Fatalf", "go test ./...", "err != nil", "bytes.Buffer", "sync.Once"}
	accents  = []string{"—", "é", "→", "✓", "…", "naïve", "über", "日本語"}
	dirs     = []string{"fold", "fold/agui", "sources", "replay", "tui", "model", "internal/loggen", "cmd/agentwatch", "web/src/components", "docs"}
	stems    = []string{"fold", "reduce", "verify", "display", "reader", "jsonl", "tail", "pacer", "view", "layout", "App", "index", "README", "config", "server"}
	exts     = []string{".go", ".go", ".go", "_test.go", ".ts", ".tsx", ".md", ".json"}
	commands = []string{"go test ./...", "go build ./...", "go vet ./...", "ls -la", "git status", "git diff --stat",
		"npm run build", "npm test -- --watch=false", "make lint", "cat go.mod", "go test -race ./fold/...", "rg -n TODO"}
	hosts = []string{"pkg.go.dev", "docs.ag-ui.com", "github.com", "developer.mozilla.org", "go.dev"}
	modes = []string{"plan", "code", "ask", "architect"}
)

func pick[T any](rng *rand.Rand, s []T) T { return s[rng.IntN(len(s))] }

func (g *gen) category() string {
	r := g.rng.IntN(100)
	for i, w := range categoryWeights {
		if r < w {
			return categories[i]
		}
		r -= w
	}
	return "other"
}

// uuid returns a random RFC 4122 version 4 UUID, as CopilotKit and most
// AG-UI servers use for ids.
func (g *gen) uuid() string {
	const hex = "0123456789abcdef"
	var b [36]byte
	hi, lo := g.rng.Uint64(), g.rng.Uint64()
	j := 0
	for i := range 32 {
		switch i {
		case 8, 12, 16, 20:
			b[j] = '-'
			j++
		}
		var nib uint64
		if i < 16 {
			nib = hi >> (60 - 4*i) & 0xf
		} else {
			nib = lo >> (60 - 4*(i-16)) & 0xf
		}
		switch i {
		case 12:
			nib = 4
		case 16:
			nib = 8 | nib&3
		}
		b[j] = hex[nib]
		j++
	}
	return string(b[:])
}

// callID returns an OpenAI-style tool call id.
func (g *gen) callID() string {
	const alnum = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"
	b := []byte("call_------------------------")
	for i := 5; i < len(b); i++ {
		b[i] = alnum[g.rng.IntN(len(alnum))]
	}
	return string(b)
}

func (g *gen) path() string {
	return "src/" + pick(g.rng, dirs) + "/" + pick(g.rng, stems) + pick(g.rng, exts)
}

func (g *gen) prompt() string {
	return g.prose(20 + g.rng.IntN(180))
}

// prose returns about n bytes of assistant-like text: sentences of common
// words with inline code, the odd non-ASCII character, paragraph breaks
// and list items.
func (g *gen) prose(n int) string {
	var b strings.Builder
	b.Grow(n + 64)
	for b.Len() < n {
		if b.Len() > 0 && g.rng.IntN(6) == 0 {
			b.WriteString("\n\n")
			if g.rng.IntN(3) == 0 {
				b.WriteString("- ")
			}
		}
		k := 5 + g.rng.IntN(11)
		for i := range k {
			w := pick(g.rng, words)
			switch r := g.rng.IntN(40); {
			case r == 0:
				w = "`" + pick(g.rng, codeWords) + "`"
			case r == 1:
				w = pick(g.rng, accents)
			case r == 2:
				w = `"` + w + `"`
			}
			if i == 0 && w[0] >= 'a' && w[0] <= 'z' {
				w = string(w[0]-'a'+'A') + w[1:]
			}
			b.WriteString(w)
			if i < k-1 {
				b.WriteByte(' ')
			}
		}
		b.WriteString(". ")
	}
	return b.String()
}

// split cuts s into pieces of lo–hi bytes, never inside a UTF-8 sequence,
// as a model streams tokens.
func (g *gen) split(s string, lo, hi int) []string {
	var out []string
	for len(s) > 0 {
		if len(s) <= hi {
			out = append(out, s)
			break
		}
		n := lo + g.rng.IntN(hi-lo+1)
		for n < len(s) && !utf8.RuneStart(s[n]) {
			n++
		}
		if len(s)-n < lo { // leave no piece shorter than lo at the end
			n = len(s) - lo
			for !utf8.RuneStart(s[n]) {
				n--
			}
		}
		out = append(out, s[:n])
		s = s[n:]
	}
	return out
}

// arguments returns a call's JSON arguments and its location.
func (g *gen) arguments(cat string) (args, location string) {
	var b []byte
	obj := func(kv ...string) string {
		b = append(b[:0], '{')
		for i := 0; i < len(kv); i += 2 {
			if i > 0 {
				b = append(b, ',')
			}
			b = appendString(b, kv[i])
			b = append(b, ':')
			if strings.HasPrefix(kv[i+1], "#") { // a number
				b = append(b, kv[i+1][1:]...)
			} else {
				b = appendString(b, kv[i+1])
			}
		}
		return string(append(b, '}'))
	}
	num := func(n int) string { return "#" + strconv.Itoa(n) }
	switch cat {
	case "read":
		p := g.path()
		return obj("file_path", p, "offset", num(g.rng.IntN(400)), "limit", num(200)), p
	case "edit":
		p := g.path()
		return obj("file_path", p, "old_string", g.code(40+g.rng.IntN(300)), "new_string", g.code(40+g.rng.IntN(400))), p
	case "delete":
		p := g.path()
		return obj("file_path", p), p
	case "move":
		from, to := g.path(), g.path()
		return obj("source", from, "destination", to), to
	case "search":
		dir := "src/" + pick(g.rng, dirs) + "/"
		return obj("pattern", pick(g.rng, words)+`\(`, "path", dir, "output_mode", "content"), dir
	case "execute":
		c := pick(g.rng, commands)
		return obj("command", c, "timeout", num(120000), "description", g.prose(20)), c
	case "think":
		return obj("thought", g.prose(60+g.rng.IntN(300))), ""
	case "fetch":
		u := "https://" + pick(g.rng, hosts) + "/" + pick(g.rng, stems) + "/" + pick(g.rng, words)
		return obj("url", u, "prompt", g.prose(40)), u
	case "switch_mode":
		m := pick(g.rng, modes)
		return obj("mode", m), m
	}
	return obj("todos", g.prose(80+g.rng.IntN(200))), ""
}

// code returns about n bytes of Go-like source lines.
func (g *gen) code(n int) string {
	var b strings.Builder
	for b.Len() < n {
		switch g.rng.IntN(5) {
		case 0:
			b.WriteString("func " + pick(g.rng, stems) + strings.ToUpper(pick(g.rng, words)[:1]) + "(ctx context.Context) error {\n")
		case 1:
			b.WriteString("\tif err != nil {\n\t\treturn fmt.Errorf(\"" + pick(g.rng, words) + ": %w\", err)\n\t}\n")
		case 2:
			b.WriteString("\t// " + g.prose(30) + "\n")
		case 3:
			b.WriteString("\t" + pick(g.rng, words) + " := " + pick(g.rng, codeWords) + "\n")
		default:
			b.WriteString("}\n\n")
		}
	}
	return b.String()
}

// result returns a plausible text result for a call.
func (g *gen) result(tc toolCall) string {
	switch tc.category {
	case "read":
		return g.numbered(g.code(300 + g.rng.IntN(3_700)))
	case "edit":
		return "The file " + tc.location + " has been updated. Here's the result of running `cat -n` on a snippet of the edited file:\n" + g.numbered(g.code(100+g.rng.IntN(600)))
	case "delete":
		return "Deleted " + tc.location
	case "move":
		return "Moved to " + tc.location
	case "search":
		var b strings.Builder
		for range 3 + g.rng.IntN(25) {
			b.WriteString(tc.location + pick(g.rng, stems) + ".go:" + strconv.Itoa(1+g.rng.IntN(500)) + ":\t" + pick(g.rng, codeWords) + " " + pick(g.rng, words) + "\n")
		}
		return b.String()
	case "execute":
		var b strings.Builder
		for range 1 + g.rng.IntN(30) {
			switch g.rng.IntN(3) {
			case 0:
				b.WriteString("ok  \tgithub.com/agentwatch/agentwatch/" + pick(g.rng, dirs) + "\t0." + strconv.Itoa(100+g.rng.IntN(900)) + "s\n")
			case 1:
				b.WriteString("-rw-r--r--  1 agent agent  " + strconv.Itoa(g.rng.IntN(90_000)) + " Oct  9 12:00 " + pick(g.rng, stems) + pick(g.rng, exts) + "\n")
			default:
				b.WriteString(g.prose(40) + "\n")
			}
		}
		return b.String()
	case "think":
		return "Your thought has been logged."
	case "fetch":
		return g.prose(500 + g.rng.IntN(2_500))
	case "switch_mode":
		return "Switched to " + tc.location + " mode."
	}
	return "Todos have been modified successfully."
}

// numbered prefixes lines with line numbers, as file-reading tools do.
func (g *gen) numbered(s string) string {
	var b strings.Builder
	b.Grow(len(s) + len(s)/4)
	start := 1 + g.rng.IntN(300)
	for i, ln := range strings.Split(strings.TrimSuffix(s, "\n"), "\n") {
		b.WriteString(strconv.Itoa(start + i))
		b.WriteString("→")
		b.WriteString(ln)
		b.WriteByte('\n')
	}
	return b.String()
}

// screenshot appends the base64 of a 2–6 KB PNG-like blob: the PNG
// signature and IHDR chunk header, then noise (incompressible, like pixels).
func (g *gen) screenshot(dst []byte) []byte {
	size := 2_048 + g.rng.IntN(4_097)
	blob := make([]byte, size)
	copy(blob, "\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR")
	for i := 16; i < size; i += 8 {
		v := g.rng.Uint64()
		for j := 0; j < 8 && i+j < size; j++ {
			blob[i+j] = byte(v >> (8 * j))
		}
	}
	return base64.StdEncoding.AppendEncode(dst, blob)
}
