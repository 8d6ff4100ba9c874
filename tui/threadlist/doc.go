// Package threadlist is the list a source of many threads opens on: one
// row per thread (its first message, runs, steps, failures, times and
// marks), scrolled to keep the selected thread in view.
package threadlist
