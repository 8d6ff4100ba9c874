package main

import (
	"bytes"
	"io"
	"path/filepath"
	"testing"

	"github.com/charmbracelet/x/exp/golden"

	"github.com/agentwatch/agentwatch/cli"
)

// `agentwatch steps` on a Codex rollout: one row per tool call, of the
// category, status and subject the rollout's lines say
// (testdata/TestCodexSteps.golden, regenerated with -update).
func TestCodexSteps(t *testing.T) {
	path := filepath.Join("testdata", "codex", "sessions", "2026", "02", "23",
		"rollout-2026-02-23T12-54-34-019c8a59-e9dd-71f0-9ae3-4079fe9726a9.jsonl")
	var out, errs bytes.Buffer
	if code := cli.Run([]string{"steps", path}, nil, &out, &errs); code != 0 {
		t.Fatalf("exit %d: %s", code, errs.String())
	}
	golden.RequireEqual(t, out.Bytes())
	if code := cli.Run([]string{"validate", path}, nil, io.Discard, &errs); code != 0 {
		t.Fatalf("validate: exit %d: %s", code, errs.String())
	}
}
