package relocbench

import (
	"os"
	"strconv"
	"testing"
)

// TestDebugScenario rebuilds scenario $RELOCBENCH_SCENARIO of the full run
// into $RELOCBENCH_DIR for inspection with git.
func TestDebugScenario(t *testing.T) {
	idx, err := strconv.Atoi(os.Getenv("RELOCBENCH_SCENARIO"))
	dir := os.Getenv("RELOCBENCH_DIR")
	if err != nil || dir == "" {
		t.Skip("set RELOCBENCH_SCENARIO and RELOCBENCH_DIR")
	}
	c, err := loadCorpus(goroot(t), 120)
	if err != nil {
		t.Fatal(err)
	}
	cfg := Config{PerCategory: 25, Chains: 25, ChainMin: 30, ChainMax: 60, Seed: 1}
	sc := generate(c, cfg)[idx]
	hashes, err := sc.write(dir)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("base %s head %s", hashes[sc.base], hashes[len(hashes)-1])
	for i, c := range sc.cites {
		t.Logf("cite %s:%d-%d truth %+v", c.path, c.line, c.end, sc.truths[i])
	}
}
