// Package longtest gates the long tests: those that run the hook managers,
// a headless browser, release builds and installers, every repository
// layout of the compatibility matrix, all seeds of the randomized
// differential tests and the relocation accuracy runs. Plain
// `go test ./...` skips them so that it stays quick; CI runs them all.
//
// They run when MEMCITE_TEST_LONG=1, or when CI=true (as CI services and
// .ci/run set it). MEMCITE_TEST_LONG=0 skips them even under CI=true.
package longtest

import (
	"os"
	"testing"
)

// Env is the environment variable that turns the long tests on (1) or
// off (0).
const Env = "MEMCITE_TEST_LONG"

// Enabled reports whether the long tests run.
func Enabled() bool {
	switch os.Getenv(Env) {
	case "1", "true", "yes":
		return true
	case "0", "false", "no":
		return false
	}
	return os.Getenv("CI") == "true"
}

// Skip skips t unless the long tests run; why says what makes it long.
func Skip(t testing.TB, why string) {
	t.Helper()
	if !Enabled() {
		t.Skipf("long test (%s): set %s=1 to run it; CI runs it", why, Env)
	}
}

// Seeds returns how many seeds a randomized test runs: all of them when
// the long tests run, else quick (at least one).
func Seeds(all, quick int) int {
	if Enabled() || quick >= all {
		return all
	}
	return max(quick, 1)
}
