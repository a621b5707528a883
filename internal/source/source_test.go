package source

import (
	"errors"
	"runtime"
	"testing"
)

// TestClean: citation paths are repo-relative and slash-separated; every
// absolute form (Unix, Windows drive, UNC, ~) and every escape is refused.
// Memory files turn backslashes into slashes before Clean sees a path
// (memfile); a backslash that reaches Clean is refused.
func TestClean(t *testing.T) {
	tests := []struct {
		in, want string
		err      error
	}{
		{"src/a.go", "src/a.go", nil},
		{"./src//a.go", "src/a.go", nil},
		{"src/x/../a.go", "src/a.go", nil},
		{".", ".", nil},
		{"", "", ErrEmptyPath},
		{"/etc/passwd", "", ErrOutside},
		{"../a.go", "", ErrOutside},
		{"src/../../a.go", "", ErrOutside},
		{"~/a.go", "", ErrOutside},
		{"C:/Windows/win.ini", "", ErrOutside},
		{"c:/x", "", ErrOutside},
		{"//server/share/a.go", "", ErrOutside}, // UNC, slashed
		{"//?/C:/a.go", "", ErrOutside},         // long form, slashed
		{`\\server\share\a.go`, "", ErrOutside},
		{`C:\Windows\win.ini`, "", ErrOutside},
		{`src\a.go`, "", ErrOutside}, // memfile turns it into src/a.go first
		{"a\x00.go", "", ErrOutside},
		{".git/config", "", ErrOutside},
		{"sub/.GIT/HEAD", "", ErrOutside},
		{"1:2/a.go", "1:2/a.go", nil}, // a colon is not a drive after a digit
		{"..", "", ErrOutside},
		{"a/../..", "", ErrOutside},
		{"~", "", ErrOutside},
		{"~user/a.go", "", ErrOutside},
		{"\x00", "", ErrOutside},
		{".GIT", "", ErrOutside},
		{"a/b/.Git/objects/x", "", ErrOutside},
		{"a/./.git", "", ErrOutside},
		{"a/b/../.git/config", "", ErrOutside},
		{"a/.gitignore", "a/.gitignore", nil}, // only .git itself is refused
		{".github/x.yml", ".github/x.yml", nil},
		{"a/~b", "a/~b", nil}, // ~ expands only at the start
		{"a/..b", "a/..b", nil},
	}
	// "C:x.go" is relative to drive C's current directory on Windows, and
	// "a:b.go" names a stream of file a there: any colon is refused. Elsewhere
	// both are ordinary file names.
	if runtime.GOOS == "windows" {
		tests = append(tests, struct {
			in, want string
			err      error
		}{"C:x.go", "", ErrOutside}, struct {
			in, want string
			err      error
		}{"a:b.go", "", ErrOutside})
	} else {
		tests = append(tests, struct {
			in, want string
			err      error
		}{"C:x.go", "C:x.go", nil}, struct {
			in, want string
			err      error
		}{"a:b.go", "a:b.go", nil})
	}
	for _, tt := range tests {
		got, err := Clean(tt.in)
		if got != tt.want || !errors.Is(err, tt.err) {
			t.Errorf("Clean(%q) = %q, %v; want %q, %v", tt.in, got, err, tt.want, tt.err)
		}
	}
}
