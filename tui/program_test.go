package tui

import tea "charm.land/bubbletea/v2"

// startProgram runs m in a real program of width×height cells that takes
// no signals, with opts (its input, output, context, terminal) after that,
// and returns it and the channel its Run's error comes on when it ends.
func startProgram(m tea.Model, width, height int, opts ...tea.ProgramOption) (*tea.Program, <-chan error) {
	p := tea.NewProgram(m, append([]tea.ProgramOption{tea.WithWindowSize(width, height), tea.WithoutSignals()}, opts...)...)
	ended := make(chan error, 1)
	go func() {
		_, err := p.Run()
		ended <- err
	}()
	return p, ended
}
