package images

import "fmt"

// Choice is what the --images flag asks for.
type Choice string

// The values of --images.
const (
	// Auto draws pixels where the terminal says it can show them with
	// Unicode placeholders, and half blocks elsewhere.
	Auto Choice = "auto"
	// Kitty draws pixels without asking the terminal.
	Kitty Choice = "kitty"
	// Blocks draws half-block cells.
	Blocks Choice = "blocks"
	// Off draws a line of text in place of each picture.
	Off Choice = "off"
)

// Choices names the values --images takes, for help texts and errors.
const Choices = "auto, kitty, blocks or off"

// ParseChoice reads a value of --images; "" is Auto.
func ParseChoice(s string) (Choice, error) {
	switch c := Choice(s); c {
	case "":
		return Auto, nil
	case Auto, Kitty, Blocks, Off:
		return c, nil
	}
	return "", fmt.Errorf("--images %q: want %s", s, Choices)
}

// Mode is how a Terminal draws pictures now.
type Mode uint8

// The ways a picture reaches the screen.
const (
	// HalfBlocks draws a picture as '▀' cells coloured with its pixels.
	HalfBlocks Mode = iota
	// Pixels sends the picture through the kitty graphics protocol and
	// draws Unicode placeholder cells where it shows.
	Pixels
	// Text draws "[screenshot W×H]".
	Text
)

// String names the mode as the --images value that forces it.
func (m Mode) String() string {
	switch m {
	case Pixels:
		return string(Kitty)
	case Text:
		return string(Off)
	}
	return string(Blocks)
}
