// Command genrepo generates a synthetic repository for benchmarks.
//
//	go run ./scripts/genrepo -out DIR [-files 10000] [-memories 2000] [-citations 5] [-stale 0.1] [-agent]
//	go run ./scripts/genrepo -out DIR -graph [-graph-memories 100000] [-graph-dangling 0]
//	go run ./scripts/genrepo -out DIR -from CLONE [-memories 2000] [-citations 5] [-stale 0.1]
//
// -from clones an existing repository (a local clone of a public one) into
// DIR and adds memories citing its tracked text files, committed; the
// other options size the store. -gitattributes writes a .gitattributes
// like the Go tree's (* -text) into a generated repository.
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/git-memcite/git-memcite/internal/testing/benchrepo"
)

func main() {
	o := benchrepo.Default
	out := flag.String("out", "", "directory to create (must not exist)")
	flag.IntVar(&o.Files, "files", o.Files, "source files")
	flag.IntVar(&o.Memories, "memories", o.Memories, "memory files")
	flag.IntVar(&o.Citations, "citations", o.Citations, "citations per memory")
	flag.Float64Var(&o.StaleShare, "stale", o.StaleShare, "share of stale citations")
	list := flag.String("list", "", "write the cited paths, one per line, to this file")
	flag.BoolVar(&o.NoSnippets, "no-snippets", false, "write every citation as a shorthand path:N without a snippet")
	agent := flag.Bool("agent", false, "add the agent hook's scenario: a memory whose citations a later commit moved")
	from := flag.String("from", "", "clone this existing repository into -out and cite its files instead of generating source files")
	goAttrs := flag.Bool("gitattributes", false, "commit a .gitattributes like the Go tree's (* -text) with the generated files")
	g := benchrepo.DefaultGraph
	graph := flag.Bool("graph", false, "generate a memory graph store instead (no source files, no git)")
	flag.IntVar(&g.Memories, "graph-memories", g.Memories, "memories of the -graph store")
	flag.IntVar(&g.Dangling, "graph-dangling", g.Dangling, "one -graph memory in N has a dangling link (0: none)")
	flag.Parse()
	if *out == "" {
		fmt.Fprintln(os.Stderr, "genrepo: -out is required")
		os.Exit(2)
	}
	if *from != "" {
		// the checkout goes on past files whose objects the source lacks
		// (a snapshot without its largest blobs): they are left out
		for i, args := range [][]string{
			{"clone", "-q", "--no-hardlinks", "--no-checkout", *from, *out},
			{"-C", *out, "reset", "-q"},
			{"-C", *out, "checkout-index", "-a", "-f"},
		} {
			cmd := exec.Command("git", args...)
			cmd.Stderr = os.Stderr
			if err := cmd.Run(); err != nil && i < 2 {
				fmt.Fprintln(os.Stderr, "genrepo: git", args[0], err)
				os.Exit(1)
			}
		}
		dropMissing(*out)
		st, err := benchrepo.CiteExisting(context.Background(), *out, o)
		if err != nil {
			fmt.Fprintln(os.Stderr, "genrepo:", err)
			os.Exit(1)
		}
		writeList(*list, st)
		fmt.Printf("cloned %s into %s: %d text files, %d memories, %d citations (%d stale), %d cited files\n",
			*from, *out, st.Files, st.Memories, st.Citations, st.Stale, len(st.CitedFiles))
		return
	}
	if err := os.Mkdir(*out, 0o755); err != nil {
		fmt.Fprintln(os.Stderr, "genrepo:", err)
		os.Exit(1)
	}
	if *graph {
		if err := benchrepo.GenerateGraph(*out, g); err != nil {
			fmt.Fprintln(os.Stderr, "genrepo:", err)
			os.Exit(1)
		}
		fmt.Printf("generated %s: %d memories, %d links each\n", *out, g.Memories, g.Links)
		return
	}
	if *goAttrs {
		if err := os.WriteFile(filepath.Join(*out, ".gitattributes"), []byte(benchrepo.GoAttributes), 0o644); err != nil {
			fmt.Fprintln(os.Stderr, "genrepo:", err)
			os.Exit(1)
		}
	}
	st, err := benchrepo.Generate(context.Background(), *out, o)
	if err != nil {
		fmt.Fprintln(os.Stderr, "genrepo:", err)
		os.Exit(1)
	}
	writeList(*list, st)
	fmt.Printf("generated %s: %d files, %d memories, %d citations (%d stale), %d cited files\n",
		*out, st.Files, st.Memories, st.Citations, st.Stale, len(st.CitedFiles))
	if *agent {
		p, err := benchrepo.AddAgentScenario(context.Background(), *out, o)
		if err != nil {
			fmt.Fprintln(os.Stderr, "genrepo:", err)
			os.Exit(1)
		}
		fmt.Printf("agent hook scenario: %s\n", p)
	}
}

// writeList writes the cited paths of st to list, one a line, unless list
// is "".
func writeList(list string, st benchrepo.Stats) {
	if list == "" {
		return
	}
	if err := os.WriteFile(list, []byte(strings.Join(st.CitedFiles, "\n")+"\n"), 0o644); err != nil {
		fmt.Fprintln(os.Stderr, "genrepo:", err)
		os.Exit(1)
	}
}

// dropMissing removes from the index of dir the files the checkout could
// not write (their objects are absent), so that a commit can be made.
func dropMissing(dir string) {
	out, err := exec.Command("git", "-C", dir, "ls-files", "-z", "--deleted").Output()
	if err != nil || len(out) == 0 {
		return
	}
	cmd := exec.Command("git", "-C", dir, "update-index", "-z", "--force-remove", "--stdin")
	cmd.Stdin = strings.NewReader(string(out))
	cmd.Stderr = os.Stderr
	if err := cmd.Run(); err != nil {
		fmt.Fprintln(os.Stderr, "genrepo: git update-index:", err)
		os.Exit(1)
	}
}
