// Command genrepo generates a synthetic repository for benchmarks.
//
//	go run ./scripts/genrepo -out DIR [-files 10000] [-memories 2000] [-citations 5] [-stale 0.1] [-agent]
//	go run ./scripts/genrepo -out DIR -graph [-graph-memories 100000] [-graph-dangling 0]
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
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
	g := benchrepo.DefaultGraph
	graph := flag.Bool("graph", false, "generate a memory graph store instead (no source files, no git)")
	flag.IntVar(&g.Memories, "graph-memories", g.Memories, "memories of the -graph store")
	flag.IntVar(&g.Dangling, "graph-dangling", g.Dangling, "one -graph memory in N has a dangling link (0: none)")
	flag.Parse()
	if *out == "" {
		fmt.Fprintln(os.Stderr, "genrepo: -out is required")
		os.Exit(2)
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
	st, err := benchrepo.Generate(context.Background(), *out, o)
	if err != nil {
		fmt.Fprintln(os.Stderr, "genrepo:", err)
		os.Exit(1)
	}
	if *list != "" {
		if err := os.WriteFile(*list, []byte(strings.Join(st.CitedFiles, "\n")+"\n"), 0o644); err != nil {
			fmt.Fprintln(os.Stderr, "genrepo:", err)
			os.Exit(1)
		}
	}
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
