package term

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"testing"
)

func TestColor(t *testing.T) {
	f, err := os.Create(filepath.Join(t.TempDir(), "out"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	t.Setenv("NO_COLOR", "")
	tests := []struct {
		name    string
		w       any
		setting string
		want    bool
	}{
		{"always, even to a buffer", &bytes.Buffer{}, "always", true},
		{"never", &bytes.Buffer{}, "never", false},
		{"auto: a buffer is no terminal", &bytes.Buffer{}, "", false},
		{"auto: a regular file is no terminal", f, "auto", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			w, _ := tt.w.(interface{ Write([]byte) (int, error) })
			if got := Color(w, tt.setting); got != tt.want {
				t.Errorf("Color(%s) = %v, want %v", tt.setting, got, tt.want)
			}
		})
	}
	if IsTerminal(&bytes.Buffer{}) || IsTerminal(f) {
		t.Error("IsTerminal: a buffer or a regular file taken for a terminal")
	}
}

type wrapped struct{ w *os.File }

func (w wrapped) Write(p []byte) (int, error) { return w.w.Write(p) }
func (w wrapped) Underlying() io.Writer       { return w.w }

// TestIsTerminalThroughWrapper: a terminal (here a character device)
// wrapped by a Wrapper is still one; a wrapped file is not.
func TestIsTerminalThroughWrapper(t *testing.T) {
	dev, err := os.OpenFile(os.DevNull, os.O_WRONLY, 0)
	if err != nil {
		t.Skip(err)
	}
	defer dev.Close()
	if !IsTerminal(dev) {
		t.Skip("the null device is no character device here")
	}
	if !IsTerminal(wrapped{dev}) {
		t.Error("a wrapped terminal is not a terminal")
	}
	f, err := os.Create(filepath.Join(t.TempDir(), "out"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if IsTerminal(wrapped{f}) {
		t.Error("a wrapped file is a terminal")
	}
}
