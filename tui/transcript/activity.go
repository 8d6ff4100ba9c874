package transcript

import (
	"encoding/json"
	"strconv"
	"strings"

	"github.com/agentwatch/agentwatch/model"
)

// activityLine is an activity row in words, for the activities agentwatch
// knows (the rows that OpenTelemetry becomes, docs/OTEL.md); ok is false
// for any other, which shows as its JSON. Every word an agent sent goes
// through oneLine, which makes it safe.
func activityLine(it *model.Item) (line string, ok bool) {
	var c map[string]any
	if json.Unmarshal(it.Data, &c) != nil {
		return "", false
	}
	switch it.Name {
	case "permission":
		return permissionLine(c), true
	case "usage":
		return usageLine(c), true
	case "error":
		return apiErrorLine(c), true
	case "notification":
		return notificationLine(c), true
	}
	return "", false
}

// notificationLine is a notice the agent got while it worked (a
// background task that ended): "notification · task b1 completed: …".
func notificationLine(c map[string]any) string {
	s := joinWords(" ", word(c, "kind"), word(c, "task_id"), word(c, "status"))
	if sum := word(c, "summary"); sum != "" {
		s = joinWords(": ", s, sum)
	}
	return "notification · " + s
}

// permissionLine is a tool decision, in the words of an ACP permission
// row: "permission · Bash allowed (config)".
func permissionLine(c map[string]any) string {
	verdict := "decided"
	switch word(c, "decision") {
	case "accept":
		verdict = "allowed"
	case "reject":
		verdict = "rejected"
	}
	s := joinWords(" ", word(c, "tool"), verdict)
	if src := word(c, "source"); src != "" {
		s += " (" + src + ")"
	}
	return "permission · " + s
}

// usageLine is a model call's usage: "usage · claude-sonnet-4 · 1,234 in
// · 567 out · $0.02".
func usageLine(c map[string]any) string {
	parts := []string{"usage"}
	if m := word(c, "model"); m != "" {
		parts = append(parts, m)
	}
	for _, f := range []struct{ key, unit string }{{"inputTokens", "in"}, {"outputTokens", "out"},
		{"cacheReadTokens", "cached"}, {"reasoningTokens", "reasoning"}} {
		if n, ok := number(c, f.key); ok {
			parts = append(parts, thousands(int64(n))+" "+f.unit)
		}
	}
	if usd, ok := number(c, "costUsd"); ok {
		parts = append(parts, dollars(usd))
	}
	return strings.Join(parts, " · ")
}

// apiErrorLine is a model call that failed: "API error · 529 overloaded ·
// attempt 2".
func apiErrorLine(c map[string]any) string {
	parts := []string{"API error"}
	if what := joinWords(" ", word(c, "statusCode"), word(c, "message")); what != "" {
		parts = append(parts, what)
	}
	if n, ok := number(c, "attempt"); ok {
		parts = append(parts, "attempt "+thousands(int64(n)))
	}
	return strings.Join(parts, " · ")
}

// word is a member as one safe line of text: a string, or a number as
// written ("" when absent).
func word(c map[string]any, key string) string {
	switch v := c[key].(type) {
	case string:
		return oneLine(v)
	case float64:
		return strconv.FormatFloat(v, 'f', -1, 64)
	}
	return ""
}

// number is a member that is a number (or text that reads as one).
func number(c map[string]any, key string) (float64, bool) {
	switch v := c[key].(type) {
	case float64:
		return v, true
	case string:
		f, err := strconv.ParseFloat(strings.TrimSpace(v), 64)
		return f, err == nil
	}
	return 0, false
}

// joinWords joins the words that are not empty.
func joinWords(sep string, words ...string) string {
	var out []string
	for _, w := range words {
		if w != "" {
			out = append(out, w)
		}
	}
	return strings.Join(out, sep)
}

// thousands writes n with commas between thousands: 1,234.
func thousands(n int64) string {
	s := strconv.FormatInt(n, 10)
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	if neg {
		s = "-" + s
	}
	return s
}

// dollars is a cost: cents for a cent or more ($0.02), else the first
// two digits that are not zero ($0.0074), so a cheap call does not read
// as free.
func dollars(usd float64) string {
	if usd >= 0.01 || usd <= 0 {
		return "$" + strconv.FormatFloat(usd, 'f', 2, 64)
	}
	prec := 2
	for v := usd * 100; v < 10 && prec < 8; v *= 10 {
		prec++
	}
	return "$" + strings.TrimRight(strconv.FormatFloat(usd, 'f', prec, 64), "0")
}
