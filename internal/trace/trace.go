// Package trace traces what git-memcite reads and runs when MEMCITE_DEBUG
// is set (to anything but "" or "0"), like GIT_TRACE: one line per event on
// the writer main gives it, normally stderr.
package trace

import (
	"fmt"
	"io"
	"sync"
	"time"
)

var (
	mu    sync.Mutex
	out   io.Writer
	start time.Time
)

// Enable turns tracing on (w != nil) or off (w == nil).
func Enable(w io.Writer) {
	mu.Lock()
	defer mu.Unlock()
	out, start = w, time.Now()
}

// Printf writes one trace line when tracing is on.
func Printf(format string, args ...any) {
	mu.Lock()
	defer mu.Unlock()
	if out == nil {
		return
	}
	fmt.Fprintf(out, "memcite-debug %7.1fms %s\n", float64(time.Since(start).Microseconds())/1000, fmt.Sprintf(format, args...))
}
