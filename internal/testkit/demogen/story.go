package main

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"time"
)

// start is when the developer sent the first message.
var start = time.Date(2025, 11, 28, 9, 14, 3, 512_000_000, time.UTC)

// Generate returns the demo recording: AG-UI 1.0 events as JSON Lines.
// It returns the same bytes every time.
func Generate() []byte { return story().out.Bytes() }

// story plays the whole demo into a generator and returns it.
func story() *gen {
	g := &gen{rng: rand.New(rand.NewPCG(2025, 1128)), now: start.UnixMilli()}
	g.thread = g.uuid()
	first, ask := g.firstRun()
	g.wait(18_000, 24_000) // the developer reads the answer and types a follow-up
	g.secondRun(first, ask)
	return g
}

const (
	firstAsk = "CI has been red since yesterday: `go test ./...` fails in internal/schedule. " +
		"Can you find out why and fix it? Please also check that the desktop app still shows the right session lengths."
	secondAsk = "Great, thanks! Could you add test cases for `2h`, for a plain number like `45`, " +
		"and for input that must be rejected? Then commit everything."
)

// The files the story touches.
const (
	lengthGo   = "internal/schedule/length.go"
	lengthTest = "internal/schedule/length_test.go"
	lengthOldG = "internal/schedule/length_old.go"
	ktTestFrom = "app/src/main/kotlin/LengthFormatTest.kt"
	ktTestTo   = "app/src/test/kotlin/LengthFormatTest.kt"
)

// toolList is the `tools` the client offers in RUN_STARTED.input.
var toolList = func() []any {
	str := obj{{"type", "string"}}
	schema := func(required []string, props ...any) obj {
		return obj{{"type", "object"}, {"properties", pairs(props...)}, {"required", required}}
	}
	tool := func(name, desc string, params obj) obj {
		return obj{{"name", name}, {"description", desc}, {"parameters", params}}
	}
	return []any{
		tool("bash", "Run a shell command in the project folder (in a terminal, so output keeps its colours).",
			schema([]string{"command"}, "command", str, "run_in_background", obj{{"type", "boolean"}})),
		tool("read_file", "Read a text file.", schema([]string{"path"}, "path", str)),
		tool("edit_file", "Apply a unified diff to a file.", schema([]string{"path", "diff"}, "path", str, "diff", str)),
		tool("delete_file", "Delete a file.", schema([]string{"path"}, "path", str)),
		tool("move_file", "Move or rename a file.", schema([]string{"from", "to"}, "from", str, "to", str)),
		tool("grep", "Search file contents with a regular expression (ripgrep).", schema([]string{"pattern"}, "pattern", str, "path", str)),
		tool("think", "Write down a thought or a plan; changes nothing.", schema([]string{"thought"}, "thought", str)),
		tool("web_fetch", "Open a URL in a headless browser; returns the page text and a screenshot.",
			schema([]string{"url"}, "url", str, "screenshot", obj{{"type", "boolean"}})),
		tool("switch_mode", "Switch between plan mode (read only) and code mode.",
			schema([]string{"mode"}, "mode", obj{{"type", "string"}, {"enum", []string{"plan", "code"}}}, "reason", str)),
		tool("screenshot", "Capture a window on the developer's desktop.", schema([]string{"window"}, "window", str)),
	}
}()

func (g *gen) runStarted(runID, parent string, messages []any, state any) {
	kv := []any{"threadId", g.thread, "runId", runID}
	input := obj{{"threadId", g.thread}, {"runId", runID}}
	if parent != "" {
		kv = append(kv, "parentRunId", parent)
		input = append(input, member{"parentRunId", parent})
	}
	input = append(input, obj{
		{"state", state},
		{"messages", messages},
		{"tools", toolList},
		{"context", []any{
			obj{{"description", "Working directory"}, {"value", "/home/dev/tempo"}},
			obj{{"description", "Git branch"}, {"value", "main"}},
		}},
		{"forwardedProps", obj{}},
	}...)
	g.emit("RUN_STARTED", append(kv, "input", input)...)
}

func (g *gen) runFinished(runID string) {
	g.wait(20, 60)
	g.emit("RUN_FINISHED", "threadId", g.thread, "runId", runID)
}

// clockAt is the wall clock now, as Go's log package prints it.
func (g *gen) clockAt() string { return time.UnixMilli(g.now).UTC().Format("2006/01/02 15:04:05") }

func bash(command string, ms int, output string, exit int) *call {
	return &call{name: "bash", category: "execute", location: command, args: obj{{"command", command}}, ms: ms, text: output, exit: exit}
}

func background(command string, ms int, output string) *call {
	c := bash(command, ms, output, 0)
	c.args = append(c.args, member{"run_in_background", true})
	return c
}

func readFile(path, text string, ms int) *call {
	return &call{name: "read_file", category: "read", location: path, args: obj{{"path", path}}, ms: ms, text: text}
}

func grep(pattern, path, result string, ms int) *call {
	return &call{name: "grep", category: "search", location: fmt.Sprintf("%q in %s", pattern, path),
		args: obj{{"pattern", pattern}, {"path", path}}, ms: ms, text: result}
}

// editFile applies the diff from before to after.
func editFile(path, before, after string, ms int) *call {
	diff, added, removed := unifiedDiff(path, before, after)
	hunks := strings.Count(diff, "\n@@ ")
	return &call{name: "edit_file", category: "edit", location: path, args: obj{{"path", path}, {"diff", diff}}, ms: ms,
		text: fmt.Sprintf("Applied %d hunk%s to %s (+%d −%d).", hunks, plural(hunks), path, added, removed)}
}

func fetchPage(url, text string, shot []byte, ms int) *call {
	return &call{name: "web_fetch", category: "fetch", location: url, args: obj{{"url", url}, {"screenshot", true}},
		ms: ms, text: text, shot: shot}
}

func screenshot(window string, shot []byte, ms int) *call {
	return &call{name: "screenshot", category: "other", location: "window " + window, args: obj{{"window", window}},
		ms: ms, text: fmt.Sprintf("Captured window %q (1280×800, scaled to %d×%d).", window, shotW, shotH), shot: shot}
}

// The sessions the app and dashboard show, with the bug and after the fix.
var (
	sessionsBuggy = []session{{"FOCUS", 25, cPurple}, {"DEEP WORK", 3630, cGreen}, {"REVIEW", 45, cOrange}}
	sessionsFixed = []session{{"FOCUS", 1500, cPurple}, {"DEEP WORK", 5400, cGreen}, {"REVIEW", 2700, cOrange}}
)

// firstRun is the developer's request: the agent reproduces the failure,
// finds the cause, fixes it, checks the tests and the app, and answers.
func (g *gen) firstRun() (runID string, ask obj) {
	runID = g.uuid()
	ask = obj{{"id", g.uuid()}, {"role", "user"}, {"content", firstAsk}}
	g.runStarted(runID, "", []any{ask}, obj{})
	g.state = planState{
		Status: "working", Mode: "plan", Task: "Fix the failing test in internal/schedule",
		Plan: []planStep{
			{"Reproduce the failure", "in_progress"},
			{"Find the cause", "pending"},
			{"Fix it and clean up", "pending"},
			{"Check the tests and the app", "pending"},
		},
		Tests:        testState{Go: "unknown", Kotlin: "unknown"},
		FilesChanged: []string{},
	}
	g.wait(15, 40)
	g.snapshot()

	g.pause()
	g.reason("The user says `go test ./...` fails in internal/schedule and wants the desktop app checked too. " +
		"Before reading code I want the layout of the repo and the exact command CI runs, probably in the Makefile. " +
		"Then reproduce the failure with that command, so I fix what CI sees and nothing else.")
	g.wait(200, 500)
	msg := g.say("I'll get my bearings first, then reproduce the failure the way CI runs it.")
	g.wait(100, 300)
	g.tools(msg,
		bash("ls -la", 260, lsOutput, 0),
		readFile("Makefile", makefile, 140))

	g.pause()
	failing := allTests(0)
	g.tools("", bash("gotestsum --format testname ./...", 4300, gotestsum(failing, 2871*time.Millisecond), 1))
	g.delta(g.stepStatus(0, "completed"), g.stepStatus(1, "in_progress"), g.testsNow("go", "failing"))

	g.pause()
	msg = g.say("Reproduced: three cases of `TestParseLength` fail, and in each one the minutes came out as seconds " +
		"(`25m` → `25s`, `1h30m` → `1h0m30s`). Let me read the parser and its test.")
	g.wait(100, 300)
	g.tools(msg,
		readFile(lengthGo, lengthBuggy, 120),
		readFile(lengthTest, lengthTest0, 110))

	g.pause()
	uses := "cmd/tempo-server/main.go:58:\t\td, err := schedule.ParseLength(*defaultLength)\n" +
		"internal/api/handlers.go:41:\tlength, err := schedule.ParseLength(r.FormValue(\"length\"))\n" +
		grepLines(lengthGo, lengthBuggy, "ParseLength") +
		grepLines(lengthOldG, lengthOld, "ParseLength") +
		grepLines(lengthTest, lengthTest0, "ParseLength")
	g.tools("",
		grep("ParseLength", ".", uses, 380),
		bash("git log --oneline -5 -- internal/schedule", 310, gitLogOutput, 0))

	g.pause()
	g.tools("", readFile(lengthOldG, lengthOld, 240))

	g.pause()
	g.reason("There it is: `time.Duration(mins)*time.Second`. The minutes are multiplied by a second. " +
		"Commit 3f9c2e1 replaced the parser yesterday so that bare minutes like \"90\" work; length_old.go " +
		"(build-ignored) still has the version before, which just called time.ParseDuration. " +
		"I could change Second to Minute, but the hand-written parser also gets \"2h\" right only by luck and " +
		"rejects forms ParseDuration accepts, like \"1.5h\". Cleaner: keep the Atoi branch for bare minutes and " +
		"give everything else to time.ParseDuration. I'll check its documentation for the accepted forms; " +
		"I believe a bare \"90\" is an error there (missing unit), which is why the branch exists.")
	g.wait(150, 400)
	g.tools("", fetchPage("https://pkg.go.dev/time#ParseDuration", docsText, docsShot(), 1900))

	g.pause()
	g.tools("", &call{name: "think", category: "think", location: lengthGo, ms: 240,
		args: obj{{"thought", "Fix plan:\n" +
			"1. ParseLength: bare numbers stay minutes (strconv.Atoi); anything else goes to time.ParseDuration; " +
			"reject lengths <= 0.\n" +
			"2. Delete length_old.go: a build-ignored duplicate that turns up in every search for ParseLength.\n" +
			"3. The app gets length_seconds from /api/sessions, so it shows the same wrong values: " +
			"check it with a screenshot before and after."}},
		text: "Thought recorded."})
	g.delta(g.stepStatus(1, "completed"), g.stepStatus(2, "in_progress"))

	g.pause()
	msg = g.say("Found it: yesterday's commit `3f9c2e1` replaced `time.ParseDuration` with a hand-written parser so that " +
		"bare minutes like `\"90\"` work, and that parser multiplies the minutes by `time.Second`. " +
		"`time.ParseDuration` handles every other form, so the fix is small. " +
		"Before changing anything I'll look at how the Kotlin app gets its lengths, and what it shows today.")
	g.wait(100, 300)
	ktUses := "app/src/main/kotlin/tempo/ApiClient.kt:19:    @SerialName(\"length_seconds\") val lengthSeconds: Int,\n" +
		"app/src/main/kotlin/tempo/Format.kt:3:fun formatLength(seconds: Int): String {\n" +
		"app/src/main/kotlin/tempo/SessionList.kt:41:                Text(formatLength(session.lengthSeconds), style = MaterialTheme.typography.caption)\n" +
		"app/src/main/kotlin/tempo/TimerPane.kt:28:    var left by remember(session.id) { mutableStateOf(session.lengthSeconds) }\n" +
		grepLines(ktTestFrom, lengthFormatTest, "formatLength")
	g.tools(msg, grep("lengthSeconds|formatLength", "app/", ktUses, 420))

	g.pause()
	msg = g.say("Odd: `LengthFormatTest.kt` sits in `app/src/main`, not `app/src/test`. Let me see whether Gradle runs it.")
	g.wait(100, 300)
	g.tools(msg, bash("./gradlew :app:test", 3400, gradleNoSource(3*time.Second), 0))

	g.pause()
	g.tools("",
		background("go run ./cmd/tempo-server --addr :8080", 1300, "Running in the background (shell bg-1).\n"+
			g.clockAt()+" tempo: loaded 3 sessions from tempo.db\n"+g.clockAt()+" tempo: listening on http://localhost:8080\n"),
		background("./gradlew :app:run --quiet", 900, "Running in the background (shell bg-2).\n"))
	g.pause()
	g.tools("", screenshot("Tempo", appShot(sessionsBuggy), 6400))

	g.pause()
	msg = g.say("The app shows the bug too: *Focus* reads `00:25` instead of `25:00`, and *Deep work* `60:30` " +
		"instead of `90:00`. The cause is clear, so I'm switching to code mode to fix it.")
	g.wait(100, 300)
	g.tools(msg, &call{name: "switch_mode", category: "switch_mode", location: "code", ms: 260,
		args: obj{{"mode", "code"}, {"reason", "Cause found; ready to edit."}},
		text: "Mode changed: plan → code."})
	g.delta(g.modeIs("plan"), g.setMode("code"))

	g.pause()
	g.tools("", editFile(lengthGo, lengthBuggy, lengthFixed, 340))
	g.delta(g.fileChanged(lengthGo))

	g.pause()
	msg = g.say("Now the clean-up: `length_old.go` is a build-ignored copy of the old parser that only muddies searches, " +
		"and the Kotlin test belongs in `src/test`.")
	g.wait(100, 300)
	g.tools(msg,
		&call{name: "delete_file", category: "delete", location: lengthOldG, args: obj{{"path", lengthOldG}}, ms: 150,
			text: fmt.Sprintf("Deleted %s (%d lines).", lengthOldG, len(lines(lengthOld)))},
		&call{name: "move_file", category: "move", location: ktTestFrom + " → " + ktTestTo,
			args: obj{{"from", ktTestFrom}, {"to", ktTestTo}}, ms: 170,
			text: fmt.Sprintf("Moved %s to %s (created app/src/test/kotlin/).", ktTestFrom, ktTestTo)})
	g.delta(g.fileChanged(lengthOldG), g.fileChanged(ktTestFrom), g.fileChanged(ktTestTo),
		g.stepStatus(2, "completed"), g.stepStatus(3, "in_progress"))

	g.pause()
	passing := allTests(1)
	g.tools("", bash("gotestsum --format testname ./...", 3900, gotestsum(passing, 3104*time.Millisecond), 0))
	g.delta(g.testsNow("go", "passing"))
	g.pause()
	g.tools("", bash("./gradlew :app:test", 14600, gradleTests(14*time.Second), 0))
	g.delta(g.testsNow("kotlin", "passing"))

	g.pause()
	msg = g.say("Both suites pass, and Gradle now runs the four Kotlin tests. " +
		"Restarting the server to look at the dashboard and the app with the fix.")
	g.wait(100, 300)
	restart := "kill $(lsof -ti :8080); go run ./cmd/tempo-server --addr :8080"
	g.tools(msg, background(restart, 1500, "Running in the background (shell bg-3).\n"+
		g.clockAt()+" tempo: loaded 3 sessions from tempo.db\n"+g.clockAt()+" tempo: listening on http://localhost:8080\n"))
	g.pause()
	g.tools("",
		fetchPage("http://localhost:8080/", dashboardText, dashboardShot(sessionsFixed), 2100),
		screenshot("Tempo", appShot(sessionsFixed), 900))

	g.pause()
	oldLines := len(lines(lengthOld))
	ktLines := len(lines(lengthFormatTest))
	_, added, removed := unifiedDiff(lengthGo, lengthBuggy, lengthFixed)
	status := " " + red + "M" + reset + " " + lengthGo + "\n" +
		" " + red + "D" + reset + " " + lengthOldG + "\n" +
		" " + red + "D" + reset + " " + ktTestFrom + "\n" +
		red + "??" + reset + " app/src/test/\n"
	stat := diffStat([]string{ktTestFrom, lengthGo, lengthOldG}, []int{0, added, 0}, []int{ktLines, removed, oldLines})
	g.tools("", bash("git status --short && git diff --stat", 290, status+stat, 0))
	g.delta(g.stepStatus(3, "completed"), g.setStatus("done"))

	g.pause()
	g.reason("Everything checks out: the Go and Kotlin tests pass, and the dashboard and the app show 25, 90 and 45 minutes. " +
		"I wasn't asked to commit, so I'll leave the changes in the working tree. Summary: cause, changes, checks.")
	g.wait(200, 500)
	g.say(fmt.Sprintf("The suite is green again. Here's what happened.\n\n"+
		"**Cause.** Commit `3f9c2e1` (yesterday) replaced `time.ParseDuration` in `ParseLength` with a hand-written parser "+
		"so that bare minutes such as `\"90\"` work. That parser multiplied the minutes by `time.Second`, so `\"25m\"` "+
		"became 25 seconds and `\"1h30m\"` became `1h0m30s`. The server sent those lengths to the app, which is why "+
		"*Focus* showed `00:25`.\n\n"+
		"**Changes**\n\n"+
		"- `%s`: bare numbers are still minutes; everything else goes through `time.ParseDuration`, "+
		"and a zero or negative length is an error.\n"+
		"- Deleted `%s`, a build-ignored copy of the old parser.\n"+
		"- Moved `LengthFormatTest.kt` from `app/src/main` to `app/src/test`: Gradle reported `NO-SOURCE` and never ran it.\n\n"+
		"**Checks**\n\n"+
		"```\n$ gotestsum --format testname ./...\nDONE %d tests in 3.104s\n$ ./gradlew :app:test\nBUILD SUCCESSFUL in 14s (4 Kotlin tests)\n```\n\n"+
		"The dashboard and the desktop app now show 25, 90 and 45 minutes (screenshots above). "+
		"Nothing is committed yet: the changes are in your working tree.", lengthGo, lengthOldG, testsDone(passing)))
	g.runFinished(runID)
	return runID, ask
}

// secondRun is the follow-up: more test cases, one more fix, a commit.
func (g *gen) secondRun(parent string, firstAsk obj) {
	runID := g.uuid()
	ask := obj{{"id", g.uuid()}, {"role", "user"}, {"content", secondAsk}}
	g.runStarted(runID, parent, []any{firstAsk, ask}, g.state)
	g.delta(g.addStep("Add edge-case tests", "in_progress"), g.addStep("Commit", "pending"), g.setStatus("working"))

	g.pause()
	g.reason("Cases to add: \"2h\" (hours only) and \"45\" (bare minutes) in the table, and a rejection test with " +
		"\"0\", \"-5m\", \"0m\", \"abc\" and \"1x\". With the current code a bare \"0\" passes strconv.Atoi and comes back " +
		"as a zero length, so I expect that one to fail. Write the test first and let it show.")
	g.wait(200, 500)
	msg := g.say("Adding the cases to `length_test.go`: `2h`, a plain `45`, and a new `TestParseLengthBad` with inputs that must be rejected.")
	g.wait(100, 300)
	g.tools(msg, editFile(lengthTest, lengthTest0, lengthTestMore, 360))
	g.delta(g.fileChanged(lengthTest))

	g.pause()
	failing := scheduleTests(2)
	g.tools("", bash("gotestsum --format testname ./internal/schedule/", 1700, gotestsum(failing, 412*time.Millisecond), 1))
	g.delta(g.testsNow("go", "failing"))

	g.pause()
	msg = g.say("As expected, the new test caught one more: a bare `0` is accepted as a zero-length session. " +
		"Bare numbers must be positive too:")
	g.wait(100, 300)
	g.tools(msg, editFile(lengthGo, lengthFixed, lengthFinal, 300))

	g.pause()
	passing := allTests(3)
	g.tools("", bash("gotestsum --format testname ./...", 3600, gotestsum(passing, 2987*time.Millisecond), 0))
	g.delta(g.testsNow("go", "passing"), g.stepStatus(4, "completed"), g.stepStatus(5, "in_progress"))

	g.pause()
	const subject = "schedule: parse lengths with time.ParseDuration again"
	_, a1, r1 := unifiedDiff(lengthGo, lengthBuggy, lengthFinal)
	_, a2, r2 := unifiedDiff(lengthTest, lengthTest0, lengthTestMore)
	commit := fmt.Sprintf("[main 7c1d2e4] %s\n 4 files changed, %d insertions(+), %d deletions(-)\n"+
		" rename app/src/{main => test}/kotlin/LengthFormatTest.kt (100%%)\n delete mode 100644 %s\n",
		subject, a1+a2, r1+r2+len(lines(lengthOld)), lengthOldG)
	g.tools("", bash(`git add -A && git commit -m "`+subject+`" -m "ParseLength multiplied minutes by time.Second since 3f9c2e1."`,
		650, commit, 0))
	g.delta(g.stepStatus(5, "completed"), g.setCommit("7c1d2e4"), g.setStatus("done"))

	g.pause()
	g.say(fmt.Sprintf("Committed as `7c1d2e4` on `main`:\n\n"+
		"- `TestParseLength` now also covers `2h` and a plain `45`.\n"+
		"- The new `TestParseLengthBad` checks that `0`, `-5m`, `0m`, `abc` and `1x` are rejected. "+
		"It caught that a bare `0` was accepted; `ParseLength` now refuses it.\n"+
		"- The commit also has the first fix, the deleted `length_old.go` and the moved Kotlin test.\n\n"+
		"```\n$ git log --oneline -1\n7c1d2e4 %s\n```\n\n"+
		"All %d Go tests pass. I haven't pushed: run `git push` when you're happy with it.", subject, testsDone(passing)))
	g.runFinished(runID)
}
