package main

import (
	"bytes"
	"testing"
	"time"
)

// TestElapsedPlaceholder: a kept run's output has the placeholder for the
// time taken where the renderers write the time, and only there; it is
// printed with the time of the run that prints it, as the renderers write
// it (text: one decimal before "ms"; JSON: a number).
func TestElapsedPlaceholder(t *testing.T) {
	tests := []struct {
		name, out string
		keep      bool
		printed   string // with 12.34 ms
	}{
		{"text", "Summary: 1 memory (working tree, 8888888888.8ms)\n", true, "Summary: 1 memory (working tree, 12.3ms)\n"},
		{"json", "{\"summary\": {\"elapsed_ms\": 8888888888.8}}\n", true, "{\"summary\": {\"elapsed_ms\": 12.34}}\n"},
		{"findings json", "{\"durationMs\":8888888888.8}", true, "{\"durationMs\":12.34}"},
		{"no time", "[PASS] a\n", true, "[PASS] a\n"},
		{"twice", "8888888888.8 (working tree, 8888888888.8ms)", false, ""},
		{"in a memory's text only", "[STALE] x: 8888888888.8\n", false, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := placeholderOnce([]byte(tt.out), nil); got != tt.keep {
				t.Fatalf("kept %t, want %t", got, tt.keep)
			}
			if !tt.keep {
				return
			}
			var b bytes.Buffer
			if err := writeElapsed(&b, []byte(tt.out), 12340*time.Microsecond); err != nil {
				t.Fatal(err)
			}
			if b.String() != tt.printed {
				t.Errorf("printed %q, want %q", b.String(), tt.printed)
			}
		})
	}
	if placeholderOnce(nil, []byte("8888888888.8")) {
		t.Error("a placeholder on stderr is kept")
	}
}
