package gitrepo

import (
	"context"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/git-memcite/git-memcite/internal/gitblame"
	"github.com/git-memcite/git-memcite/internal/testing/gitfixture"
)

// TestWordsFromChain: on random histories (lines holding words added,
// removed and edited, a file renamed, a side branch merged, a binary
// file, a file with a diff driver that names hunks and one with a driver
// that converts its text), WordsChangedIn answers from the log
// of the whole chain what git log -G answers for each word alone
// (WordChangedIn), for every word, set of files and start of the range;
// and it answers most of them without git.
func TestWordsFromChain(t *testing.T) {
	t.Parallel()
	for seed := range uint64(3) {
		t.Run(fmt.Sprint(seed), func(t *testing.T) {
			t.Parallel()
			r := rand.New(rand.NewPCG(seed, 7))
			dir := t.TempDir()
			git := gitfixture.Runner(t, dir)
			git("init", "-q", "-b", "main")
			words := []string{"alpha", "beta", "gamma_x", "Delta2"}
			files := []string{"a.py", "b.py", "lib/c.py", "d.bin", "e.drv", "f.tc"}
			// a driver that only names hunks, and one that converts
			gitfixture.Write(t, dir, ".gitattributes", "*.drv diff=hunks\n*.tc diff=tc\n")
			git("config", "diff.hunks.xfuncname", "^def .*")
			git("config", "diff.tc.textconv", "tr a-z A-Z <")
			content := map[string][]string{}
			line := func() string {
				w := words[r.IntN(len(words))]
				switch r.IntN(4) {
				case 0:
					return w + " = 1"
				case 1:
					return "x = " + w + "(y)"
				case 2:
					return "not_" + w + " = 2" // the word inside a longer one
				}
				return fmt.Sprintf("plain %d", r.IntN(100))
			}
			write := func(f string) {
				s := strings.Join(content[f], "\n") + "\n"
				if strings.HasSuffix(f, ".bin") {
					s = "\x00" + s
				}
				gitfixture.Write(t, dir, f, s)
			}
			for _, f := range files {
				for range 3 + r.IntN(4) {
					content[f] = append(content[f], line())
				}
				write(f)
			}
			git("add", "-A")
			git("commit", "-q", "-m", "base")
			var chain []string
			chain = append(chain, git("rev-parse", "HEAD"))
			for c := range 14 {
				if c == 7 {
					git("checkout", "-q", "-b", "side")
				}
				f := files[r.IntN(len(files))]
				ls := content[f]
				switch k := r.IntN(len(ls) + 1); r.IntN(3) {
				case 0:
					ls = append(ls[:k:k], append([]string{line()}, ls[k:]...)...)
				case 1:
					if k < len(ls) {
						ls = append(ls[:k:k], ls[k+1:]...)
					}
				default:
					if k < len(ls) {
						ls[k] = line()
					}
				}
				content[f] = ls
				write(f)
				git("add", "-A")
				git("commit", "-q", "--allow-empty", "-m", fmt.Sprint("c", c))
				if c == 10 {
					git("checkout", "-q", "main")
					gitfixture.Write(t, dir, "main.txt", "on main\n")
					git("add", "-A")
					git("commit", "-q", "-m", "main")
					git("merge", "-q", "--no-ff", "-m", "merge side", "side")
				}
				if c == 12 {
					// a file renamed among the files asked about: git pairs
					// it, and its diff then holds no line
					git("mv", "b.py", "lib/b.py")
					git("commit", "-q", "-m", "b moves")
					content["lib/b.py"] = content["b.py"]
					delete(content, "b.py")
					files = []string{"a.py", "lib/b.py", "lib/c.py", "d.bin", "e.drv", "f.tc"}
				}
				if c < 7 || c > 10 {
					chain = append(chain, git("rev-parse", "HEAD"))
				}
			}
			_, h, head := historyAtHead(t, dir)
			ctx := context.Background()
			if _, _, err := h.Moves(ctx, head); err != nil {
				t.Fatal(err)
			}
			specs := [][]string{{"a.py"}, {"a.py", "b.py"}, {"lib/c.py", "a.py"}, {"b.py"}, {"d.bin", "a.py"}, {"e.drv"}, {"f.tc", "a.py"}, {"lib/c.py", "b.py", "a.py"}, {"b.py", "lib/b.py"}}
			asked, fast := 0, 0
			for _, fromHex := range chain[:len(chain)-1] {
				from, err := gitblame.ParseHash(fromHex)
				if err != nil {
					t.Fatal(err)
				}
				var ws []string
				var ps [][]string
				for _, w := range words {
					for _, sp := range specs {
						ws, ps = append(ws, w), append(ps, sp)
					}
				}
				got, err := h.WordsChangedIn(ctx, from, head, ws, ps)
				if err != nil {
					t.Fatal(err)
				}
				out := make([]gitblame.Hash, len(ws))
				for _, d := range h.wordsFromChain(ctx, from, head, ws, ps, false, out) {
					if d {
						fast++
					}
				}
				for i := range ws {
					want, err := h.WordChangedIn(ctx, from, head, ws[i], ps[i])
					if err != nil {
						t.Fatal(err)
					}
					asked++
					if got[i] != want {
						t.Errorf("%s in %v from %s: %s, git log -G: %s", ws[i], ps[i], from.Short(), got[i].Short(), want.Short())
					}
				}
			}
			if fast < asked/3 {
				t.Errorf("%d of %d answered from the chain's log", fast, asked)
			}
		})
	}
}
