package loggen

import "slices"

// GenerateThreads returns a JSON Lines log of about n events holding
// threads threads, as a server that logs every stream it serves into one
// file writes it, the same bytes for the same n, threads and seed.
//
// Runs of different threads follow each other in an order the seed picks
// and never overlap: each RUN_STARTED comes after the previous run's
// RUN_FINISHED, and timestamps increase through the file. The log has a
// run per 450 events and at least one per thread; a thread's first run is
// three times the size of an average later one and, when the log has room
// for 200 events a thread, makes at least three tool calls. Every run starts
// with a state snapshot and carries the user's messages in its input, so a
// thread's first run opens with its first prompt. Each later run names an
// earlier run of its thread as parentRunId: usually the thread's latest,
// but about one in four later runs is an edit-and-retry that branches from
// an earlier one and resends only the conversation up to that run. Message,
// run and tool call ids are random (version 4 UUIDs, OpenAI-style call ids),
// so no two threads share one.
//
// Taken on its own, each thread is a valid log. GenerateThreads(n, 1, seed)
// is Generate(n, seed).
func GenerateThreads(n, threads int, seed int64) []byte {
	return generateThreads(n, threads, seed).out
}

// runEvents is the size of an average run in a log of many threads. Coding
// agent runs are a few turns long; Generate's are longer so that its few
// runs fill a benchmark log.
const runEvents = 450

// roomyThread is how many events a thread needs on average before its
// first run is made to call tools.
const roomyThread = 200

// thread is one conversation of a many-thread log: its id and its runs so
// far, in the order they were written.
type thread struct {
	id   string
	runs []runNode
}

// runNode is one run and where it left its thread: the user's messages so
// far and the state document's counters. A run that names it as parent
// carries on from there.
type runNode struct {
	id                    string
	users                 []userMessage
	turn, progress, files int
}

func generateThreads(n, threads int, seed int64) *gen {
	if threads <= 1 {
		return generateOne(n, seed)
	}
	g := newGen(n, seed)
	ths := make([]thread, threads)
	for i := range ths {
		ths[i].id = g.uuid()
	}
	order := g.schedule(n, threads)
	// Budgets are cumulative targets, so a run that overshoots (the
	// minimum number of calls, the final answer) is made up by the next.
	weights := make([]int, len(order))
	total, seen := 0, make([]bool, threads)
	for i, t := range order {
		weights[i] = 1 + g.rng.IntN(3)
		if !seen[t] {
			weights[i], seen[t] = 6, true
		}
		total += weights[i]
	}
	roomy := n >= roomyThread*threads
	later, branches, done := 0, 0, 0
	for i, t := range order {
		th := &ths[t]
		done += weights[i]
		budget := int(int64(n)*int64(done)/int64(total)) - g.n
		g.thread = th.id
		g.minCalls = 0
		parent := runNode{}
		switch k := len(th.runs); {
		case k == 0:
			if roomy {
				g.minCalls = 3
			}
		case k >= 2 && branches*4 <= later && g.rng.IntN(2) == 0:
			// An edit-and-retry: the user rewrites an earlier prompt, so
			// the run continues from a run before the thread's latest.
			parent = th.runs[g.rng.IntN(k-1)]
			branches++
			later++
		default:
			parent = th.runs[k-1]
			later++
		}
		g.users = slices.Clone(parent.users)
		g.turn, g.progress, g.files = parent.turn, parent.progress, parent.files
		id := g.run(parent.id, budget)
		th.runs = append(th.runs, runNode{id: id, users: g.users, turn: g.turn, progress: g.progress, files: g.files})
	}
	return g
}

// schedule picks the thread of each run of a log of about n events: every
// thread gets one run, the rest go to threads in proportion to the runs
// they already have (a long conversation tends to go on), and the runs are
// shuffled so that threads take turns.
func (g *gen) schedule(n, threads int) []int {
	order := make([]int, threads, max(threads, n/runEvents))
	for i := range order {
		order[i] = i
	}
	for len(order) < cap(order) {
		order = append(order, order[g.rng.IntN(len(order))])
	}
	g.rng.Shuffle(len(order), func(i, j int) { order[i], order[j] = order[j], order[i] })
	return order
}
