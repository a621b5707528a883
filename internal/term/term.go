// Package term tells whether output goes to a terminal, and so whether it
// gets colour and progress lines.
package term

import (
	"io"
	"os"
)

// Wrapper is a writer that passes what it is given on to another: a
// terminal wrapped (by a status line that clears itself before output)
// is still a terminal.
type Wrapper interface {
	Underlying() io.Writer
}

// IsTerminal reports whether w is a terminal (a character device), or a
// Wrapper of one.
func IsTerminal(w any) bool {
	if u, ok := w.(Wrapper); ok {
		return IsTerminal(u.Underlying())
	}
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	fi, err := f.Stat()
	return err == nil && fi.Mode()&os.ModeCharDevice != 0
}

// Dumb reports whether TERM says the terminal cannot move the cursor or
// show colour.
func Dumb() bool { return os.Getenv("TERM") == "dumb" }

// Color decides on colour for w from the --color setting: always, never,
// or auto (""): a terminal, unless NO_COLOR is set or TERM is dumb.
func Color(w io.Writer, setting string) bool {
	switch setting {
	case "always":
		return true
	case "never":
		return false
	}
	if os.Getenv("NO_COLOR") != "" || Dumb() {
		return false
	}
	return IsTerminal(w)
}
