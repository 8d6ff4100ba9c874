package main

import "strconv"

// planState is the agent's shared state: its mode, its plan with a status
// per step, the test results and the files it changed. The generator keeps
// it beside the events so every STATE_DELTA is a patch that applies, and
// the second run's input can carry the state as the client last saw it.
type planState struct {
	Status       string     `json:"status"`
	Mode         string     `json:"mode"`
	Task         string     `json:"task"`
	Plan         []planStep `json:"plan"`
	Tests        testState  `json:"tests"`
	FilesChanged []string   `json:"filesChanged"`
	Commit       string     `json:"commit,omitempty"`
}

type planStep struct {
	Step   string `json:"step"`
	Status string `json:"status"`
}

type testState struct {
	Go     string `json:"go"`
	Kotlin string `json:"kotlin"`
}

// op is one RFC 6902 operation.
type op = obj

// snapshot sends the whole state.
func (g *gen) snapshot() {
	g.emit("STATE_SNAPSHOT", "snapshot", g.state)
}

// delta sends ops as one STATE_DELTA. Each op was made by a method below,
// which applied it to g.state as well.
func (g *gen) delta(ops ...op) {
	g.wait(3, 25)
	g.emit("STATE_DELTA", "delta", ops)
}

func (g *gen) stepStatus(i int, status string) op {
	g.state.Plan[i].Status = status
	return op{{"op", "replace"}, {"path", "/plan/" + strconv.Itoa(i) + "/status"}, {"value", status}}
}

func (g *gen) addStep(step, status string) op {
	s := planStep{Step: step, Status: status}
	g.state.Plan = append(g.state.Plan, s)
	return op{{"op", "add"}, {"path", "/plan/-"}, {"value", s}}
}

func (g *gen) testsNow(lang, result string) op {
	switch lang {
	case "go":
		g.state.Tests.Go = result
	case "kotlin":
		g.state.Tests.Kotlin = result
	}
	return op{{"op", "replace"}, {"path", "/tests/" + lang}, {"value", result}}
}

func (g *gen) fileChanged(path string) op {
	g.state.FilesChanged = append(g.state.FilesChanged, path)
	return op{{"op", "add"}, {"path", "/filesChanged/-"}, {"value", path}}
}

// modeIs is a `test` op: the patch applies only in that mode.
func (g *gen) modeIs(mode string) op {
	return op{{"op", "test"}, {"path", "/mode"}, {"value", mode}}
}

func (g *gen) setMode(mode string) op {
	g.state.Mode = mode
	return op{{"op", "replace"}, {"path", "/mode"}, {"value", mode}}
}

func (g *gen) setStatus(status string) op {
	g.state.Status = status
	return op{{"op", "replace"}, {"path", "/status"}, {"value", status}}
}

func (g *gen) setCommit(hash string) op {
	g.state.Commit = hash
	return op{{"op", "add"}, {"path", "/commit"}, {"value", hash}}
}
