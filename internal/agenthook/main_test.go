package agenthook

import (
	"os"
	"testing"

	"github.com/git-memcite/git-memcite/internal/testing/gitfixture"
)

// TestMain runs the tests without git's sample hooks in the repositories
// they create (gitfixture.Main).
func TestMain(m *testing.M) { os.Exit(gitfixture.Main(m)) }
