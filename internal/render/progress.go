package render

import (
	"fmt"
	"io"
	"time"
)

// Progress returns a callback that shows "label: done/total commits" on w
// when tty says w is a terminal that can take it (at most ten times a
// second), and a function that clears the line. Otherwise both do
// nothing, so hooks, pipes and CI logs get no progress noise.
func Progress(w io.Writer, tty bool, label string) (func(done, total int), func()) {
	if !tty {
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
		fmt.Fprintf(w, "\r\x1b[K%s: %d/%d commits", label, done, total)
	}
	clear := func() {
		if shown {
			fmt.Fprint(w, "\r\x1b[K")
		}
	}
	return update, clear
}
