package cli

import (
	"fmt"

	"github.com/spf13/cobra"

	"github.com/agentwatch/agentwatch/app"
	"github.com/agentwatch/agentwatch/tui/images"
)

// imagesUsage is the help of --images.
const imagesUsage = "how screenshots are drawn: auto (pixels where the terminal answers that it draws kitty graphics " +
	"with Unicode placeholders, as kitty and Ghostty do; half blocks elsewhere, tmux included), kitty (pixels without asking), " +
	"blocks (half-block cells) or off (a line of text); without colours (NO_COLOR) always text"

// imagesFlag adds --images.
func imagesFlag(cmd *cobra.Command, opts *app.Options) {
	opts.Images = images.Auto
	cmd.Flags().Var(imagesValue{&opts.Images}, "images", imagesUsage)
}

// imagesValue is the value of --images: one images.ParseChoice accepts,
// refused as the command line is read.
type imagesValue struct{ c *images.Choice }

// String is the value, as --help shows its default.
func (v imagesValue) String() string {
	if v.c == nil {
		return ""
	}
	return string(*v.c)
}

// Set takes the value given on the command line, or refuses it.
func (v imagesValue) Set(s string) error {
	c, err := images.ParseChoice(s)
	if err != nil {
		return fmt.Errorf("want %s", images.Choices)
	}
	*v.c = c
	return nil
}

// Type names the value in the usage line: --images mode.
func (v imagesValue) Type() string { return "mode" }
