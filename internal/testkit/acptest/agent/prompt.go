package agent

import (
	"context"
	"encoding/json"
	"errors"
	"strings"

	acp "github.com/coder/acp-go-sdk"
)

// script answers one prompt command; arg is the text after the command word.
type script func(t *turn, arg string) (acp.StopReason, error)

// scripts maps the first word of a prompt to what the agent does. Any other
// text runs `all`.
var scripts = map[string]script{
	"all":        (*turn).all,
	"permission": (*turn).permissionOnly,
	"fs":         (*turn).fsRead,
	"burst":      (*turn).burst,
	"calls":      (*turn).calls,
	"slow":       (*turn).slow,
	"crash":      (*turn).crash,
	"refuse":     (*turn).refuse,
	"huge":       (*turn).huge,
}

// Prompt records the prompt in the session's history as
// user_message_chunks, runs the script its text names and answers with the
// script's stop reason, or `cancelled` once session/cancel arrived.
func (f *fixture) Prompt(ctx context.Context, p acp.PromptRequest) (acp.PromptResponse, error) {
	if err := f.checkAuth(); err != nil {
		return acp.PromptResponse{}, err
	}
	s, err := f.session(p.SessionId)
	if err != nil {
		return acp.PromptResponse{}, err
	}
	text := promptText(p.Prompt)
	name, arg := parseCommand(text)
	f.opts.Logger.Info("session/prompt", "sessionId", p.SessionId, "command", name, "arg", arg)

	userID := newUUID()
	for _, block := range p.Prompt {
		b, err := json.Marshal(acp.SessionUpdate{UserMessageChunk: &acp.SessionUpdateUserMessageChunk{Content: block, MessageId: acp.Ptr(userID)}})
		if err != nil {
			return acp.PromptResponse{}, err
		}
		s.record(b, f.opts.Now())
	}
	if title := titleFor(text); title != "" {
		s.setTitle(title)
	}

	t := &turn{f: f, s: s, ctx: ctx, delay: f.opts.Delay}
	reason, err := scripts[name](t, arg)
	if saveErr := f.opts.Store.save(s); saveErr != nil {
		f.opts.Logger.Error("save session", "err", saveErr)
	}
	if errors.Is(err, errCancelled) {
		f.opts.Logger.Info("turn cancelled", "sessionId", p.SessionId)
		return acp.PromptResponse{StopReason: acp.StopReasonCancelled}, nil
	}
	if err != nil {
		f.opts.Logger.Error("turn failed", "sessionId", p.SessionId, "err", err)
		return acp.PromptResponse{}, err
	}
	f.opts.Logger.Info("turn ended", "sessionId", p.SessionId, "stopReason", reason)
	return acp.PromptResponse{StopReason: reason}, nil
}

// promptText joins the prompt's text blocks.
func promptText(blocks []acp.ContentBlock) string {
	var b strings.Builder
	for _, c := range blocks {
		if c.Text != nil {
			b.WriteString(c.Text.Text)
		}
	}
	return b.String()
}

// parseCommand splits a prompt into a script name and its argument. A
// leading "/" is dropped so the advertised slash commands work; unknown
// words run `all`.
func parseCommand(text string) (name, arg string) {
	text = strings.TrimPrefix(strings.TrimSpace(text), "/")
	word, rest, _ := strings.Cut(text, " ")
	word = strings.ToLower(word)
	if _, ok := scripts[word]; ok {
		return word, strings.TrimSpace(rest)
	}
	return "all", ""
}

// titleFor is the session title a prompt gives: "Fixture: " and its first
// 40 characters.
func titleFor(text string) string {
	text = strings.Join(strings.Fields(text), " ")
	if r := []rune(text); len(r) > 40 {
		text = string(r[:40]) + "…"
	}
	if text == "" {
		return ""
	}
	return "Fixture: " + text
}
