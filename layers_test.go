package main

import (
	"encoding/json"
	"errors"
	"io"
	"os/exec"
	"strings"
	"testing"
)

const module = "github.com/agentwatch/agentwatch"

// layer is where a package sits in the one way imports go (see
// docs/ARCHITECTURE.md): a package imports only packages of lower layers,
// or of its own room.
var layers = []struct {
	prefix string
	layer  int
}{
	{"model", 0}, {"assets", 0}, {"internal/jsonwords", 0}, {"internal/piecewise", 0}, {"internal/sanitize", 0}, {"internal/words", 0}, {"internal/order", 0}, {"internal/todos", 0},
	{"protocol", 1},
	{"fold", 2},
	{"window", 3},
	{"replay", 4}, {"sources", 4},
	{"tui", 5},
	{"app", 6},
	{"serve", 7},
	{"cli", 8},
	{"", 9}, // main
}

// room is a package's top folder ("tui" for tui/render), "" for main.
func room(pkg string) string {
	rel := strings.TrimPrefix(strings.TrimPrefix(pkg, module), "/")
	if strings.HasPrefix(rel, "internal/") {
		return rel // each helper is a room of its own
	}
	room, _, _ := strings.Cut(rel, "/")
	return room
}

// layerOf is pkg's layer; ok is false for a package no layer names.
func layerOf(pkg string) (int, bool) {
	rel := strings.TrimPrefix(strings.TrimPrefix(pkg, module), "/")
	for _, l := range layers {
		if rel == l.prefix || l.prefix != "" && strings.HasPrefix(rel, l.prefix+"/") || l.prefix == "" && rel == "" {
			return l.layer, true
		}
	}
	return 0, false
}

// screenOptions are the screen's packages that packages above the screen
// may import, and why: the screen's option types. Nothing outside the
// screen imports one to write what it prints.
var screenOptions = map[string][]string{
	"app":   {"tui", "tui/images", "tui/search"}, // runs the screen; --images and --filter
	"serve": {"tui"},                             // a screen per viewer
	"cli":   {"tui/images"},                      // the --images flag
}

// Imports go one way: each package imports only lower layers or its own
// room; replay and sources do not import each other; the screen imports no
// source and no application wiring; nothing the binary is built from
// imports the test tools; and above the screen, only the screen's option
// types are imported from it, never to print.
func TestImportsGoOneWay(t *testing.T) {
	out, err := exec.Command("go", "list", "-json=ImportPath,Imports", "./...").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	dec := json.NewDecoder(strings.NewReader(string(out)))
	checked := 0
	for {
		var p struct {
			ImportPath string
			Imports    []string
		}
		if err := dec.Decode(&p); errors.Is(err, io.EOF) {
			break
		} else if err != nil {
			t.Fatal(err)
		}
		from := p.ImportPath
		if strings.Contains(from, "/internal/testkit") {
			continue // the tools themselves
		}
		fl, ok := layerOf(from)
		if !ok {
			t.Errorf("%s is in no layer: say where it goes in layers", from)
			continue
		}
		checked++
		for _, imp := range p.Imports {
			if !strings.HasPrefix(imp, module) {
				continue
			}
			rel := strings.TrimPrefix(imp, module+"/")
			if strings.HasPrefix(rel, "internal/testkit") {
				t.Errorf("%s imports the test tool %s", from, rel)
				continue
			}
			il, _ := layerOf(imp)
			same := room(from) == room(imp)
			switch {
			case !same && il >= fl:
				t.Errorf("%s imports %s, which is not below it", from, rel)
			case room(from) == "replay" && room(imp) == "sources", room(from) == "sources" && room(imp) == "replay":
				t.Errorf("%s imports %s: replay and sources sit side by side", from, rel)
			case room(from) == "tui" && room(imp) == "sources":
				t.Errorf("%s imports %s: the screen reads no source; what it is given comes from app", from, rel)
			}
			if room(imp) == "tui" && room(from) != "tui" {
				allowed := false
				for _, ok := range screenOptions[room(from)] {
					allowed = allowed || rel == ok
				}
				if !allowed {
					t.Errorf("%s imports the screen's %s: above the screen only its option types are imported (screenOptions)", from, rel)
				}
			}
		}
	}
	if checked < 20 {
		t.Fatalf("only %d packages checked: go list gave too little", checked)
	}
}
