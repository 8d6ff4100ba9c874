// Command otlpsend sends one Claude Code run to an OTLP/HTTP receiver
// with the OpenTelemetry Go SDK, in stages a person can watch arrive:
// the prompt and an accepted Bash command, then its result, then a
// refused Edit. scripts/smoke-otlp.sh drives agentwatch otlp with it.
//
//	go run ./internal/testkit/otlpsend -addr 127.0.0.1:4318 [-token T] [-pause 1s]
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"time"

	"github.com/agentwatch/agentwatch/internal/testkit/otlptest"
)

func main() {
	addr := flag.String("addr", "127.0.0.1:4318", "the receiver's OTLP/HTTP address")
	token := flag.String("token", "", "bearer token")
	pause := flag.Duration("pause", time.Second, "pause between the stages")
	flag.Parse()
	if err := send(*addr, *token, *pause); err != nil {
		fmt.Fprintln(os.Stderr, "otlpsend:", err)
		os.Exit(1)
	}
}

func send(addr, token string, pause time.Duration) error {
	ctx := context.Background()
	c, err := otlptest.New(ctx, otlptest.HTTP, addr, token, "claude-code", "smoke-host")
	if err != nil {
		return err
	}
	t0 := time.Now()
	stages := []func(){
		func() {
			c.ClaudeEvent(ctx, t0, "user_prompt", "smoke", "prompt", "run the smoke tests")
			c.ClaudeEvent(ctx, t0.Add(100*time.Millisecond), "tool_decision", "smoke", "tool_name", "Bash",
				"decision", "accept", "source", "config", "tool_use_id", "toolu_s1")
		},
		func() {
			c.ClaudeEvent(ctx, t0.Add(pause), "tool_result", "smoke", "tool_name", "Bash", "success", "true",
				"duration_ms", "800", "tool_use_id", "toolu_s1", "tool_parameters", `{"full_command":"make smoke"}`)
		},
		func() {
			c.ClaudeEvent(ctx, t0.Add(2*pause), "tool_decision", "smoke", "tool_name", "Edit",
				"decision", "reject", "source", "user_reject", "tool_use_id", "toolu_s2")
		},
	}
	for i, stage := range stages {
		if i > 0 {
			time.Sleep(pause)
		}
		stage()
		if err := c.Flush(ctx); err != nil {
			return err
		}
	}
	return c.Shutdown(ctx)
}
