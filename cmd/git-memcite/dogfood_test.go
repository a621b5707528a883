package main

import (
	"bytes"
	"testing"
)

// TestOwnMemories verifies the project's own .serena/memories against its
// working tree: the memories about git-memcite's architecture can never go
// stale unnoticed.
func TestOwnMemories(t *testing.T) {
	var stdout, stderr bytes.Buffer
	code := run([]string{"verify-all", "--repo-root", "../..", "--dir", ".serena/memories"}, &stdout, &stderr)
	if code != 0 {
		t.Fatalf("verify-all on the project's memories exited %d:\n%s%s", code, stdout.String(), stderr.String())
	}
	if !bytes.Contains(stdout.Bytes(), []byte("0 stale, 0 errors")) || bytes.Contains(stdout.Bytes(), []byte("(0 with citations)")) {
		t.Fatalf("unexpected summary:\n%s", stdout.String())
	}
}
