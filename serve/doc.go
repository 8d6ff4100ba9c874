// Package serve is agentwatch over SSH: a server that gives every viewer
// who logs in with an allowed public key a screen of its own, the same
// screen agentwatch draws in a terminal, onto sources read only once.
// docs/ARCHITECTURE.md ("Serving over SSH") says how the sources are
// shared and what a viewer may do.
package serve
