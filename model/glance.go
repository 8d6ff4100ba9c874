package model

import "time"

// Glance is what a look at a session file's head and tail says of the
// session, without folding it: enough for its row in a thread list. A big
// folder of an agent's sessions is listed from glances; a session is
// folded only when it is opened.
type Glance struct {
	// ID is the session's thread id, "" when the head names none.
	ID string
	// Title is the title a fold of the whole file would give the thread,
	// as far as the head and tail tell: the title the user set, else one
	// made for them (an AI title, a summary), else the first prompt; ""
	// when they tell none.
	Title string
	// Project is the folder the session ran in, "" when the head does not
	// say.
	Project string
	// First and Last are the times of the first and last lines that have
	// one in the head and the tail: when the session started, and its last
	// activity. Zero when unknown.
	First, Last time.Time
	// Untimed says that a tail was given and none of its lines has a
	// time: Last is only the head's, and a longer tail may say more (its
	// lines are few and long, as a session's last big tool result).
	Untimed bool
	// Size and Modified are the file's size and modification time when it
	// was looked at.
	Size     int64
	Modified time.Time
}
