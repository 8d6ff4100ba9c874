package tui

// The key maps of the screen's modes: a saved log under review, a live
// source, a replay, a live agent session, the permission dialog, the
// search and filter line, the thread list and the help. Each binding says
// its keys, its help and what it does; keys.go runs them.

import (
	tea "charm.land/bubbletea/v2"

	"github.com/agentwatch/agentwatch/replay"
	"github.com/agentwatch/agentwatch/tui/computer"
	"github.com/agentwatch/agentwatch/tui/search"
)

// keyMap is the key map of what is on screen now.
func (a *App) keyMap() keyMap {
	if a.help {
		return helpKeys
	}
	return a.screenKeys()
}

// screenKeys is the key map of the screen under the help.
func (a *App) screenKeys() keyMap {
	g, inSession := a.mode.(*sessionMode)
	switch {
	case inSession && len(g.perms) > 0:
		return permissionKeys
	case a.search.asking == inputSearch:
		return searchKeys
	case a.search.asking == inputFilter:
		return filterKeys
	case a.search.asking == inputThreads:
		return listFilterKeys
	case a.screen() == screenList:
		return listKeys
	case inSession:
		return sessionKeys
	case a.modeIs(modeReplay):
		return replayKeys
	case a.done:
		return reviewKeys
	}
	return liveKeys
}

// The bindings every thread screen shares.
var (
	quitKey = on(keys("q", "ctrl+c"), "q", "quit", cmd(func(*App) tea.Cmd { return tea.Quit })).inFooter("q", "quit")
	helpKey = on(keys("?"), "?", "every key", just(func(a *App) { a.help, a.helpScroll = true, 0 })).inFooter("?", "help")

	stepKeys = []binding{
		on(keys("left", "h"), "←/→ h/l", "previous / next step", just(func(a *App) { a.stepBy(-1) })).inFooter("←/→", "step"),
		also(keys("right", "l"), just(func(a *App) { a.stepBy(1) })),
		on(keys("home"), "Home", "first step", just(func(a *App) { a.stopPlay(); a.selectStep(a.firstShown()) })),
		on(keys("["), "[ / ]", "first step of the previous / next run", just(func(a *App) { a.runStep(-1) })),
		also(keys("]"), just(func(a *App) { a.runStep(1) })),
		on(keys("e"), "e / E", "next / previous failed step", just(func(a *App) { a.failedBy(1) })),
		also(keys("E"), just(func(a *App) { a.failedBy(-1) })),
		on(keys("space"), "space", "play the steps / pause", cmd((*App).togglePlay)).inFooter("space", "play"),
	}

	moveKeys = []binding{
		on(keys("up", "k"), "↑/↓ j/k", "move the transcript's cursor / scroll the computer", just(func(a *App) { a.moveInPane(-1) })),
		also(keys("down", "j"), just(func(a *App) { a.moveInPane(1) })),
		on(keys("pgup"), "PgUp/PgDn", "a page up / down", just(func(a *App) { a.moveInPane(-max(1, a.paneRows()-1)) })),
		also(keys("pgdown"), just(func(a *App) { a.moveInPane(max(1, a.paneRows()-1)) })),
		on(keys("ctrl+u"), "ctrl+u/d", "half a page up / down", just(func(a *App) { a.moveInPane(-max(1, a.paneRows()/2)) })),
		also(keys("ctrl+d"), just(func(a *App) { a.moveInPane(max(1, a.paneRows()/2)) })),
		on(keys("g"), "g / G", "top / bottom of the focused pane", just(func(a *App) { a.moveToEnd(false) })),
		also(keys("G"), just(func(a *App) { a.moveToEnd(true) })),
		on(keys("tab"), "tab", "focus the next pane", cmd(func(a *App) tea.Cmd { return a.cycleFocus(1) })).inFooter("tab", "focus"),
		on(keys("shift+tab"), "shift+tab", "focus the previous pane", cmd(func(a *App) tea.Cmd { return a.cycleFocus(-1) })),
		on(keys("enter"), "Enter", "open the row under the cursor", cmd((*App).openAtTranscript)),
	}

	findKeys = []binding{
		on(keys("/"), "/", "search the thread", cmd(func(a *App) tea.Cmd { return a.openInput(inputSearch) })).inFooter("/", "search"),
		on(keys("n"), "n / N", "next / previous match", cmd(func(a *App) tea.Cmd { return a.nextHit(1) })),
		also(keys("N"), cmd(func(a *App) tea.Cmd { return a.nextHit(-1) })),
		on(keys("f"), "f", "filter the steps: failed, execute,edit, text:WORDS", cmd(func(a *App) tea.Cmd { return a.openInput(inputFilter) })).inFooter("f", "filter"),
	}

	showKeys = []binding{
		on(keys("c"), "c", "hide / show the computer", just((*App).toggleComputer)),
		on(keys("z"), "z", "the computer full screen / back", just((*App).toggleZoom)).inFooter("z", "zoom"),
		on(keys("v"), "v", "side pane / bottom sheet", just((*App).toggleLayout)),
		on(keys("p"), "p", "the agent's plan", just((*App).togglePlan)),
		on(keys("t"), "t", "the run tree", just((*App).toggleRunTree)),
		on(keys("y"), "y", "copy the step's command, path or URL", cmd(func(a *App) tea.Cmd { return a.copyStep(false) })),
		on(keys("Y"), "Y", "copy the step's output", cmd(func(a *App) tea.Cmd { return a.copyStep(true) })),
	}
)

// clearKey clears the search and the filter; in a source of many threads
// it goes back to the thread list when neither is in force.
var clearKey = func() binding {
	b := on(keys("esc", "backspace"), "esc", "clear the search and filter; then back to the thread list", just((*App).clearOrBack)).inFooter("esc", "threads")
	b.footerIf = func(a *App) bool { return a.manyThreadsLive() && !a.searching() && !a.filtering() }
	return b
}()

// threadKeys step through the threads of a source of many; where there is
// one thread, they say so.
var threadKeys = keyGroup{title: "Threads", keys: []binding{
	on(keys("{"), "{ / }", "previous / next thread", just(func(a *App) { a.stepThread(-1) })),
	also(keys("}"), just(func(a *App) { a.stepThread(1) })),
	on(keys("F"), "F", "follow the newest active thread", just((*App).toggleFollow)),
}}

// runTreeKeys apply while the run tree is shown and the computer has focus.
var runTreeKeys = keyGroup{title: "Run tree (t, focused)", when: func(a *App) bool { return a.showRuns && a.focus == focusPanel }, overrides: true, keys: []binding{
	on(keys("up", "k"), "↑/↓ j/k", "choose a run", just(func(a *App) { a.runCursor = max(0, a.runCursor-1) })),
	also(keys("down", "j"), just(func(a *App) { a.runCursor = min(len(a.fold.Runs())-1, a.runCursor+1) })),
	on(keys("enter"), "Enter", "go to the run", just(func(a *App) { a.jumpToRun(a.runCursor) })),
}}

// mouseHelp is what the mouse does on a thread's screen.
var mouseHelp = [][2]string{
	{"click", "chips, buttons, tool calls, cards, runs"},
	{"drag", "the timeline's slider"},
	{"wheel", "scrolls the pane under it"},
}

// watchKeys are the keys of a watched thread; live says the source is
// still open (End goes back to live).
func watchKeys(name string, live bool) keyMap {
	end := on(keys("end", "L"), "End / L", "last step", just((*App).backToLive))
	if live {
		end = on(keys("end", "L"), "End / L", "back to live: follow the newest step", just((*App).backToLive)).inFooter("L", "live")
	}
	return keyMap{name: name, mouse: mouseHelp, groups: []keyGroup{
		{title: "Steps", keys: append(stepKeys[:len(stepKeys):len(stepKeys)], end)},
		{title: "Move", keys: moveKeys},
		{title: "Find", keys: append(findKeys[:len(findKeys):len(findKeys)], clearKey)},
		{title: "Show", keys: showKeys},
		runTreeKeys,
		threadKeys,
		{title: "", keys: []binding{helpKey, quitKey}},
	}}
}

var (
	reviewKeys = watchKeys("review", false)
	liveKeys   = watchKeys("live", true)
)

// replayKeys move the player.
var replayKeys = keyMap{name: "replay", mouse: [][2]string{
	{"click", "the replay bar and the chips seek"},
	{"drag", "the slider or the replay bar scrubs"},
	{"wheel", "scrolls the pane under it"},
}, groups: []keyGroup{
	{title: "Replay", keys: []binding{
		on(keys("space"), "space", "pause / play", replayAct((*replay.Player).Toggle)).inFooter("space", "pause"),
		on(keys("+", "="), "+ / - (= _)", "faster / slower", replaySpeed((*replay.Player).Faster)).inFooter("+/-", "speed"),
		also(keys("-", "_"), replaySpeed((*replay.Player).Slower)),
		on(keys("."), ". / ,", "one event forward / back", replaySeek(func(p *replay.Player) (bool, error) { return p.StepEvent(1) })),
		also(keys(","), replaySeek(func(p *replay.Player) (bool, error) { return p.StepEvent(-1) })),
		on(keys("right", "l"), "←/→ h/l", "previous / next step", replaySeek(func(p *replay.Player) (bool, error) { return p.NextStep(1) })).inFooter("←/→", "step"),
		also(keys("left", "h"), replaySeek(func(p *replay.Player) (bool, error) { return p.NextStep(-1) })),
		on(keys("]"), "[ / ]", "previous / next run", replaySeek(func(p *replay.Player) (bool, error) { return p.NextRun(1) })),
		also(keys("["), replaySeek(func(p *replay.Player) (bool, error) { return p.NextRun(-1) })),
		on(keys("0", "1", "2", "3", "4", "5", "6", "7", "8", "9"), "0–9", "jump to 0–90 %", func(a *App, k tea.KeyPressMsg) tea.Cmd {
			pct := float64(k.String()[0]-'0') * 10
			return a.replayed(func(p *replay.Player) error { return seekErr(p.SeekPercent(pct)) })
		}),
		on(keys("home"), "Home", "the start", replaySeek(func(p *replay.Player) (bool, error) { return p.Seek(0) })),
		on(keys("end", "L"), "End / L", "the end", replaySeek(func(p *replay.Player) (bool, error) { return p.Seek(p.Len()) })),
		on(keys("e"), "e / E", "next / previous failed step", just(func(a *App) { a.failedBy(1) })),
		also(keys("E"), just(func(a *App) { a.failedBy(-1) })),
	}},
	{title: "Move", keys: moveKeys},
	{title: "Find", keys: []binding{findKeys[0], findKeys[1], findKeys[2],
		on(keys("esc"), "esc", "clear the search", just(func(a *App) { a.clearSearch() }))}},
	{title: "Show", keys: showKeys},
	runTreeKeys,
	{title: "", keys: []binding{helpKey, quitKey}},
}}

// replayAct runs a player action as a key's action.
func replayAct(act func(p *replay.Player) error) func(*App, tea.KeyPressMsg) tea.Cmd {
	return func(a *App, _ tea.KeyPressMsg) tea.Cmd { return a.replayed(act) }
}

// replaySeek runs a player seek as a key's action.
func replaySeek(seek func(p *replay.Player) (bool, error)) func(*App, tea.KeyPressMsg) tea.Cmd {
	return func(a *App, _ tea.KeyPressMsg) tea.Cmd {
		return a.replayed(func(p *replay.Player) error { return seekErr(seek(p)) })
	}
}

// replaySpeed changes the player's speed and shows the new one in the
// replay bar for a moment.
func replaySpeed(change func(p *replay.Player)) func(*App, tea.KeyPressMsg) tea.Cmd {
	return func(a *App, _ tea.KeyPressMsg) tea.Cmd {
		r, ok := a.mode.(*replayMode)
		if !ok {
			return nil
		}
		change(r.player)
		return r.flash(computer.SpeedText(r.player.Speed()))
	}
}

// promptFocused reports whether the prompt line has the keys.
func promptFocused(a *App) bool { return a.focus == focusPrompt }

// sessionKeys drive a live agent: the prompt line while it has focus, the
// screen's keys otherwise.
var sessionKeys = func() keyMap {
	live := watchKeys("session", true)
	prompt := keyGroup{title: "Prompt line (while it has focus)", when: promptFocused, overrides: true, keys: []binding{
		on(keys("enter"), "Enter", "send the prompt, or run /mode ID", cmd((*App).sendPrompt)).inFooter("Enter", "send"),
		on(keys("esc"), "esc", "cancel the turn while it runs; else leave the prompt", cmd((*App).promptEsc)).inFooter("esc", "cancel / leave"),
		on(keys("tab"), "tab", "complete a /command; else focus the next pane", func(a *App, k tea.KeyPressMsg) tea.Cmd { return a.promptTab(k) }).inFooter("tab", "complete / focus"),
		on(keys("shift+tab"), "shift+tab", "focus the previous pane", cmd(func(a *App) tea.Cmd { return a.cycleFocus(-1) })),
		on(keys("up", "down", "pgup", "pgdown"), "↑/↓ PgUp/PgDn", "scroll the transcript", func(a *App, k tea.KeyPressMsg) tea.Cmd {
			switch k.String() {
			case "up":
				a.transcript.ScrollBy(-1)
			case "down":
				a.transcript.ScrollBy(1)
			case "pgup":
				a.transcript.ScrollBy(-max(1, a.geo.transcript.h-1))
			case "pgdown":
				a.transcript.ScrollBy(max(1, a.geo.transcript.h-1))
			}
			return nil
		}),
		on(keys("ctrl+c"), "ctrl+c", "quit", cmd(func(*App) tea.Cmd { return tea.Quit })).inFooter("ctrl+c", "quit"),
	}, notes: [][2]string{
		{"text", "what to ask the agent"},
		{"dialog", "a permission request: 1–9 or y/a/n/N answer it, esc cancels it"},
		{"/mode ID", "switch the session's mode"},
		{"/name", "one of the agent's commands (tab completes)"},
	}}
	agent := keyGroup{title: "Agent", keys: []binding{
		on(keys("i"), "i", "focus the prompt line", cmd(func(a *App) tea.Cmd { return a.setFocus(focusPrompt) })).inFooter("i", "prompt"),
		on(keys("esc"), "esc", "cancel the turn while it runs; else clear the search and filter", just((*App).sessionEsc)),
	}}
	// The screen's keys while the prompt line does not have focus; the
	// agent's esc replaces clearKey.
	agent.when = notPrompt(nil)
	groups := []keyGroup{prompt, agent}
	for _, g := range live.groups {
		g.keys = withoutBinding(g.keys, clearKey)
		g.when = notPrompt(g.when)
		groups = append(groups, g)
	}
	return keyMap{name: "session", mouse: mouseHelp, groups: groups,
		typing: func(a *App, k tea.KeyPressMsg) tea.Cmd {
			g, ok := a.mode.(*sessionMode)
			if !ok || a.focus != focusPrompt {
				return nil
			}
			var c tea.Cmd
			g.input, c = g.input.Update(k)
			return c
		}}
}()

// notPrompt is when, while the prompt line does not have focus.
func notPrompt(when func(*App) bool) func(*App) bool {
	return func(a *App) bool { return !promptFocused(a) && (when == nil || when(a)) }
}

// withoutBinding is bs without the binding whose help key is drop's.
func withoutBinding(bs []binding, drop binding) []binding {
	out := make([]binding, 0, len(bs))
	for _, b := range bs {
		if b.Help().Key != drop.Help().Key || b.Help().Desc != drop.Help().Desc {
			out = append(out, b)
		}
	}
	return out
}

// permissionKeys answer the agent's permission request; the dialog takes
// every key.
var permissionKeys = keyMap{name: "permission", groups: []keyGroup{
	{title: "Permission", keys: []binding{
		on(keys("1", "2", "3", "4", "5", "6", "7", "8", "9"), "1–9", "choose that option", answerKey).inFooter("1–9", "option"),
		on(keys("y"), "y", "allow once", answerKey).inFooter("y", "allow"),
		on(keys("a"), "a", "allow always", answerKey).inFooter("a", "always"),
		on(keys("n"), "n", "reject once", answerKey).inFooter("n", "reject"),
		on(keys("N"), "N", "reject always", answerKey).inFooter("N", "never"),
		on(keys("esc"), "esc", "cancel the request (the agent is told)", just((*App).cancelPermission)).inFooter("esc", "cancel"),
		on(keys("ctrl+c"), "ctrl+c", "quit", cmd(func(*App) tea.Cmd { return tea.Quit })),
	}},
}, typing: func(*App, tea.KeyPressMsg) tea.Cmd { return nil }}

// answerKey answers the permission request with the option k picks.
func answerKey(a *App, k tea.KeyPressMsg) tea.Cmd {
	a.answerPermission(k.String())
	return nil
}

// inputEditing are the help's notes on editing a line.
var inputEditing = [][2]string{
	{"text", "typed into the line (←/→, backspace, ctrl+a/e edit it)"},
}

// searchKeys edit the search line.
var searchKeys = keyMap{name: "search", groups: []keyGroup{
	{title: "Search line", keys: []binding{
		on(keys("enter"), "Enter", "keep the matches (n/N go through them)", cmd((*App).confirmInput)).inFooter("Enter", "keep"),
		on(keys("esc"), "esc", "clear the search", just(func(a *App) { a.clearSearch(); a.closeInput() })).inFooter("esc", "clear"),
		on(keys("ctrl+c"), "ctrl+c", "quit", cmd(func(*App) tea.Cmd { return tea.Quit })),
	}, notes: append([][2]string{{"matches", "found as you type; a query with capitals matches case"}}, inputEditing...)},
}, typing: func(a *App, k tea.KeyPressMsg) tea.Cmd { return a.typeInput(k) }}

// filterKeys edit the filter line.
var filterKeys = keyMap{name: "filter", groups: []keyGroup{
	{title: "Filter line", keys: []binding{
		on(keys("enter"), "Enter", "filter the steps (empty: all of them)", cmd((*App).confirmInput)).inFooter("Enter", "filter"),
		on(keys("esc"), "esc", "keep the filter as it was", just((*App).closeInput)).inFooter("esc", "cancel"),
		on(keys("ctrl+c"), "ctrl+c", "quit", cmd(func(*App) tea.Cmd { return tea.Quit })),
	}, notes: append([][2]string{
		{"categories", "read edit delete move search execute think fetch switch_mode other"},
		{"statuses", "failed running pending done cancelled"},
		{"text:WORDS", "steps whose label, arguments or output hold WORDS"},
	}, inputEditing...)},
}, typing: func(a *App, k tea.KeyPressMsg) tea.Cmd { return a.typeInput(k) }}

// listKeys move through the thread list.
var listKeys = keyMap{name: "thread list", mouse: [][2]string{{"click", "opens a thread"}, {"wheel", "scrolls the list"}}, groups: []keyGroup{
	{title: "Thread list", keys: []binding{
		on(keys("up", "k"), "↑/↓ j/k", "choose a thread", just(func(a *App) { a.listMove(-1) })).inFooter("↑/↓", "choose"),
		also(keys("down", "j"), just(func(a *App) { a.listMove(1) })),
		on(keys("pgup"), "PgUp/PgDn", "a page up / down", just(func(a *App) { a.listMove(-a.listPage()) })),
		also(keys("pgdown"), just(func(a *App) { a.listMove(a.listPage()) })),
		on(keys("home", "g"), "Home/End g/G", "first / last thread", just(func(a *App) { a.listMove(-1 << 30) })),
		also(keys("end", "G"), just(func(a *App) { a.listMove(1 << 30) })),
		on(keys("enter", "right", "l"), "Enter → l", "open the thread", just((*App).openListed)).inFooter("Enter", "open"),
		on(keys("/"), "/", "filter the threads by title, id or file", cmd(func(a *App) tea.Cmd { return a.openInput(inputThreads) })).inFooter("/", "filter"),
		on(keys("esc"), "esc", "clear the filter", just((*App).listEsc)),
		on(keys("F"), "F", "follow the newest active thread", just((*App).toggleFollow)).inFooter("F", "follow newest"),
	}},
	{title: "", keys: []binding{helpKey, quitKey}},
}}

// listFilterKeys edit the thread list's filter line.
var listFilterKeys = keyMap{name: "thread filter", groups: []keyGroup{
	{title: "Thread filter", keys: []binding{
		on(keys("enter"), "Enter", "keep the filter (↑/↓ then choose)", cmd((*App).confirmInput)).inFooter("Enter", "keep"),
		on(keys("esc"), "esc", "show every thread", just(func(a *App) { a.filterList(""); a.closeInput() })).inFooter("esc", "clear"),
		on(keys("ctrl+c"), "ctrl+c", "quit", cmd(func(*App) tea.Cmd { return tea.Quit })),
	}, notes: append([][2]string{{"matches", "as you type; a query with capitals matches case"}}, inputEditing...)},
}, typing: func(a *App, k tea.KeyPressMsg) tea.Cmd { return a.typeInput(k) }}

// helpKeys apply while the help is shown.
var helpKeys = keyMap{name: "help", groups: []keyGroup{
	{title: "Help", keys: []binding{
		on(keys("esc", "?"), "esc / ?", "close the help", just(func(a *App) { a.help = false })).inFooter("esc", "close"),
		on(keys("up", "k"), "↑/↓ j/k", "scroll the help", just(func(a *App) { a.helpScroll = max(0, a.helpScroll-1) })),
		also(keys("down", "j"), just(func(a *App) { a.helpScroll++ })),
		on(keys("pgup"), "PgUp/PgDn", "a page up / down", just(func(a *App) { a.helpScroll = max(0, a.helpScroll-10) })),
		also(keys("pgdown"), just(func(a *App) { a.helpScroll += 10 })),
		on(keys("q", "ctrl+c"), "q", "quit", cmd(func(*App) tea.Cmd { return tea.Quit })).inFooter("q", "quit"),
	}},
}}

// clearFilter is the filter that keeps every step.
var clearFilter = search.Filter{}
