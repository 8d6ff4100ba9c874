package otel

import (
	"cmp"
	"slices"
	"strconv"
	"strings"
	"time"
)

// prompt is the user's prompt, as a user message; when its text was not
// recorded (the agents' default), the message says so and how long it was.
func (t *Translator) prompt(th *threadState, o *observation, at time.Time) {
	r := t.run(th, o, at)
	text := o.text
	if text == "" || redacted(text) {
		text = "[prompt not recorded"
		if o.promptLen > 0 {
			text += " · " + strconv.FormatInt(o.promptLen, 10) + " characters"
		}
		text += "]"
	}
	t.userText(th, r, at, r.tag(o.sub), "prompt-"+o.digest(), text)
}

// userText shows a user's text, once per run: a model call's input
// repeats the prompt, and whichever of them comes first shows it.
func (t *Translator) userText(th *threadState, r *runState, at time.Time, sub, id, text string) {
	if r.users[text] {
		return
	}
	if r.users == nil {
		r.users = map[string]bool{}
	}
	r.users[text] = true
	t.message(th, at, sub, id, "user", text)
}

// chat is a model call: the user's message that starts it when it is new,
// the answer when recorded, and the call's usage as an activity of type
// "usage" (also added up into the run's RUN_FINISHED usage).
func (t *Translator) chat(th *threadState, o *observation, at time.Time) {
	r := t.run(th, o, at)
	sub := r.tag(o.sub)
	id := o.digest()
	if o.inputUser != "" {
		t.userText(th, r, at, sub, "user-"+id, o.inputUser)
	}
	if o.text != "" {
		t.message(th, at, sub, "answer-"+id, "assistant", o.text)
	}
	u := o.usage
	if !u.known || !th.fresh("usage-"+id) {
		return
	}
	if u.provider == "" {
		u.provider = o.provider
	}
	r.usage = addUsage(r.usage, u)
	t.emitAs(th, at, sub, map[string]any{"type": "ACTIVITY_SNAPSHOT", "messageId": "usage-" + id,
		"activityType": "usage", "content": usageContent(u)})
}

// apiError is a model call that failed, as an activity of type "error":
// the agent retries, so the run goes on.
func (t *Translator) apiError(th *threadState, o *observation, at time.Time) {
	r := t.run(th, o, at)
	content := map[string]any{"message": o.errText}
	for k, v := range o.extra {
		content[k] = v
	}
	t.emitAs(th, at, r.tag(o.sub), map[string]any{"type": "ACTIVITY_SNAPSHOT", "messageId": "error-" + o.digest(),
		"activityType": "error", "content": content})
}

// message sends a whole text message, of subagent run sub ("" for the
// run's own agent), unless one of its id was sent: telemetry sent twice
// shows once.
func (t *Translator) message(th *threadState, at time.Time, sub, id, role, text string) {
	if !th.fresh(id) {
		return
	}
	t.emitAs(th, at, sub, map[string]any{"type": "TEXT_MESSAGE_START", "messageId": id, "role": role})
	if text != "" {
		t.emitAs(th, at, sub, map[string]any{"type": "TEXT_MESSAGE_CONTENT", "messageId": id, "delta": text})
	}
	t.emitAs(th, at, sub, map[string]any{"type": "TEXT_MESSAGE_END", "messageId": id})
}

// usageContent is a model call's usage as an activity shows it.
func usageContent(u usage) map[string]any {
	c := map[string]any{}
	if u.model != "" {
		c["model"] = u.model
	}
	for k, v := range map[string]int64{"inputTokens": u.input, "outputTokens": u.output, "cacheReadTokens": u.cacheRead,
		"cacheWriteTokens": u.cacheWrite, "reasoningTokens": u.reasoning, "durationMs": u.durationMS} {
		if v >= 0 {
			c[k] = v
		}
	}
	if u.costUSD >= 0 {
		c["costUsd"] = u.costUSD
	}
	return c
}

// addUsage adds u into the run's totals, one per provider and model.
func addUsage(total []usage, u usage) []usage {
	for i := range total {
		if total[i].model == u.model && total[i].provider == u.provider {
			a := &total[i]
			a.input, a.output = plus(a.input, u.input), plus(a.output, u.output)
			a.cacheRead, a.cacheWrite = plus(a.cacheRead, u.cacheRead), plus(a.cacheWrite, u.cacheWrite)
			a.reasoning = plus(a.reasoning, u.reasoning)
			return total
		}
	}
	return append(total, u)
}

// plus adds counts where -1 means unknown.
func plus(a, b int64) int64 {
	switch {
	case a < 0:
		return b
	case b < 0:
		return a
	}
	return a + b
}

// usageList is a run's totals as RUN_FINISHED.usage (AG-UI TokenUsage).
func usageList(total []usage) []map[string]any {
	var out []map[string]any
	// By provider and model, not by which came first: the same usage
	// reads the same however it arrived.
	total = slices.SortedFunc(slices.Values(total), func(a, b usage) int {
		return cmp.Or(strings.Compare(a.provider, b.provider), strings.Compare(a.model, b.model))
	})
	for _, u := range total {
		m := map[string]any{}
		if u.provider != "" {
			m["provider"] = u.provider
		}
		if u.model != "" {
			m["model"] = u.model
		}
		for k, v := range map[string]int64{"inputTokens": u.input, "outputTokens": u.output,
			"cachedInputTokens": u.cacheRead, "cacheWriteInputTokens": u.cacheWrite, "reasoningTokens": u.reasoning} {
			if v >= 0 {
				m[k] = v
			}
		}
		if u.input >= 0 && u.output >= 0 {
			m["totalTokens"] = u.input + u.output
		}
		out = append(out, m)
	}
	return out
}
