package relocbench

import (
	"context"
	"flag"
	"os"
	"os/exec"
	"runtime"
	"strings"
	"testing"
)

var (
	size  = flag.String("relocbench.size", "small", "benchmark size: small (seconds, asserted in go test) or full")
	trace = flag.Bool("relocbench.trace", false, "print every tracker miss")
)

func goroot(t testing.TB) string {
	out, err := exec.Command("go", "env", "GOROOT").Output()
	if err != nil {
		return runtime.GOROOT()
	}
	return strings.TrimSpace(string(out))
}

// TestAccuracy runs the accuracy benchmark and asserts the targets of the
// relocation issue: at least 98% exactly right overall, no category below
// 90%, and no deleted citation reported at a location.
func TestAccuracy(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not found")
	}
	cfg := Config{GoRoot: goroot(t), PerCategory: 3, Chains: 3, ChainMin: 30, ChainMax: 60, Seed: 1, WorkDir: t.TempDir()}
	if *size == "full" {
		cfg.PerCategory, cfg.Chains = 25, 25
	}
	if *trace {
		cfg.Trace = os.Stdout
	}
	rep, err := Run(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	var sb strings.Builder
	Format(&sb, rep)
	t.Log("\n" + sb.String())
	all := rep.Rows["all"]["tracker"]
	if all.Pct() < 98 {
		t.Errorf("tracker: %.1f%% exactly right overall, want >= 98%%", all.Pct())
	}
	for cat, row := range rep.Rows {
		tr := row["tracker"]
		if tr.Pct() < 90 {
			t.Errorf("tracker: %s %.1f%% exactly right, want >= 90%%", cat, tr.Pct())
		}
		if tr.FalseReloc > 0 {
			t.Errorf("tracker: %s has %d false relocations, want 0", cat, tr.FalseReloc)
		}
	}
}

func TestMapLine(t *testing.T) {
	fd := &fileDiff{hunks: [][4]int{
		{3, 0, 4, 2},   // 2 lines inserted after old 3
		{10, 2, 11, 0}, // old 10-11 deleted
		{20, 1, 20, 3}, // old 20 replaced by 3 lines
	}}
	tests := []struct {
		in, out int
		ok      bool
	}{
		{1, 1, true}, {3, 3, true}, {4, 6, true}, {9, 11, true}, {10, 0, false},
		{12, 12, true}, {19, 19, true}, {20, 0, false}, {21, 23, true},
	}
	for _, tt := range tests {
		got, ok, _ := fd.mapLine(tt.in)
		if ok != tt.ok || (ok && got != tt.out) {
			t.Errorf("mapLine(%d) = %d, %v; want %d, %v", tt.in, got, ok, tt.out, tt.ok)
		}
	}
}
