package app

// streamRoom is how many batches a stream's goroutines hold between
// reading and folding. A source read faster than it is folded (a file
// piped in, a fast server) then waits in its pipe or socket, not decoded
// in memory: `cat` of a 126 MB log into `agentwatch - --plain` peaked at
// 75–112 MB with room for 64 batches of 512 events, and at 48 MB with
// four, taking 10 % longer for collecting garbage more often. A batch
// never waits to fill, so this costs a trickling stream nothing.
const streamRoom = 4
