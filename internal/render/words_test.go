package render

import "testing"

// TestWords pins the wording of counts: singular and plural nouns, and
// small shares that are not shown as 0%.
func TestWords(t *testing.T) {
	for got, want := range map[string]string{
		count(1, "memory", "memories"):       "1 memory",
		count(0, "memory", "memories"):       "0 memories",
		count(5, "citation", "citations"):    "5 citations",
		pctOf(0, 5):                          "0%",
		pctOf(1, 300):                        "0.3%",
		pctOf(1, 1025):                       "0.1%",
		pctOf(1, 100000):                     "<0.1%",
		pctOf(1024, 1025):                    "99.9%",
		pctOf(99999, 100000):                 ">99.9%",
		pctOf(1, 2):                          "50%",
		pctOf(3, 3):                          "100%",
		pctOf(0, 0):                          "0%",
		plural(1, "stale citation"):          "1 stale citation",
		plural(2, "stale citation"):          "2 stale citations",
		count(1, "directory", "directories"): "1 directory",
	} {
		if got != want {
			t.Errorf("got %q, want %q", got, want)
		}
	}
}
