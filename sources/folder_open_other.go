//go:build !unix

package sources

// defaultMaxOpen is how many files a followed folder holds open at once.
func defaultMaxOpen() int { return 1024 }
