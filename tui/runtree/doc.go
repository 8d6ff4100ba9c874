// Package runtree is a thread's runs seen as the tree their parentRunId
// links make — which run continues which, which one branches off an
// earlier run — and the panel view that draws it.
package runtree
