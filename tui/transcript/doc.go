// Package transcript draws the conversation: messages as markdown, tool
// calls as step rows, each reply's computer card, runs, problems, in a
// virtual list that renders only the rows in view and caches each item per
// width and version. The root model calls its methods; it runs no Update
// loop of its own.
package transcript
