package main

import (
	"fmt"
	"io"
	"os"
	"time"
)

// progress returns a callback that shows "label: done/total commits" on w
// when w is a terminal (at most ten times a second), and a function that
// clears the line. On anything else both do nothing, so hooks, pipes and
// CI logs get no progress noise.
func progress(w io.Writer, label string) (func(done, total int), func()) {
	f, ok := w.(*os.File)
	if !ok || os.Getenv("TERM") == "dumb" {
		return nil, func() {}
	}
	if fi, err := f.Stat(); err != nil || fi.Mode()&os.ModeCharDevice == 0 {
		return nil, func() {}
	}
	var last time.Time
	shown := false
	update := func(done, total int) {
		if time.Since(last) < 100*time.Millisecond {
			return
		}
		last = time.Now()
		shown = true
		fmt.Fprintf(f, "\r\x1b[K%s: %d/%d commits", label, done, total)
	}
	clear := func() {
		if shown {
			fmt.Fprint(f, "\r\x1b[K")
		}
	}
	return update, clear
}
