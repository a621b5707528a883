// Package soak runs a fuzz target's check on many random inputs outside
// the fuzzer, with a seed, so that a count of failures can be rerun and
// compared between builds.
package soak

import (
	"math/rand"
	"os"
	"strconv"
	"testing"
)

// The environment variables that choose the scripts (as longtest.Env
// turns the long tests on).
const (
	ScriptsEnv = "MEMCITE_CYCLE_SCRIPTS" // how many scripts
	SeedEnv    = "MEMCITE_CYCLE_SEED"    // the random seed (default 1)
)

// Scripts runs check on MEMCITE_CYCLE_SCRIPTS random byte scripts of lo
// to hi bytes (seeded by MEMCITE_CYCLE_SEED, default 1), each as a
// subtest, and logs each failing script and the count of failures. It
// skips t unless the variable is set.
func Scripts(t *testing.T, lo, hi int, check func(*testing.T, []byte)) {
	t.Helper()
	n, _ := strconv.Atoi(os.Getenv(ScriptsEnv))
	if n <= 0 {
		t.Skip("set MEMCITE_CYCLE_SCRIPTS to the number of scripts to run")
	}
	seed, err := strconv.ParseInt(os.Getenv(SeedEnv), 10, 64)
	if err != nil {
		seed = 1
	}
	r := rand.New(rand.NewSource(seed))
	failed := 0
	for i := range n {
		b := make([]byte, lo+r.Intn(hi-lo+1))
		for j := range b {
			b[j] = byte(r.Intn(256))
		}
		if !t.Run(strconv.Itoa(i), func(t *testing.T) { check(t, b) }) {
			failed++
			t.Logf("script %d fails: %v", i, b)
		}
	}
	t.Logf("%d of %d scripts fail (seed %d)", failed, n, seed)
}
