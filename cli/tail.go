package cli

import (
	"context"
	"os"
	"os/signal"

	"github.com/spf13/cobra"

	"github.com/agentwatch/agentwatch/app"
)

// newTailCommand is `agentwatch tail FILE`: follow a growing log.
func newTailCommand(a *app.App) *cobra.Command {
	opts := a.Options
	cmd := &cobra.Command{
		Use:   "tail FILE|DIR",
		Short: "Fold a log from its start and keep following it, like tail -F",
		Long: `tail reads an AG-UI log from its start and follows what is appended, in any
format the reader accepts (a JSON array still being written, JSON Lines, SSE
text). It waits for a file that is not there yet, starts over when the file
is truncated, and reopens it after a rotation, a delete and re-create, or an
editor's rename-over; a partial last line waits for the rest.
A folder (or a quoted glob) is followed as a whole: every log in it, and
logs created in it later, each file's threads on their own.
On the screen a big log takes up where the last screen of it left off
(--from-start reads it all again). With --plain it prints one line per
change until ctrl+c.`,
		Args: oneFile,
		RunE: func(cmd *cobra.Command, args []string) error {
			src, err := a.IdentifyFollowed(args[0])
			if err != nil {
				return err
			}
			ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
			defer stop()
			return a.Follow(ctx, src)
		},
	}
	liveFlags(cmd, opts)
	fromStartFlag(cmd, opts)
	return cmd
}
