package benchrepo

import (
	"fmt"
	"math/rand"
	"strings"
)

// GraphOptions size a generated memory graph.
type GraphOptions struct {
	Memories int   // memory files
	Links    int   // links per memory
	Folders  int   // topic folders the memories are spread over
	Dangling int   // every Dangling-th memory has a link to a missing memory (0: none)
	Seed     int64 // random seed
}

// DefaultGraph is the size of the graph benchmark: 100,000 memories with
// three links each, in 200 folders.
var DefaultGraph = GraphOptions{Memories: 100000, Links: 3, Folders: 200, Seed: 1}

// GenerateGraph writes a memory store (no git repository, no source files)
// into dir/.serena/memories. Memory i links to i+1 (so everything is
// reachable) and to random others; link shapes alternate between
// "- related: target" and "{link_type, target_id}", targets between bare
// stems and path-qualified ids. With Dangling > 0, one memory in Dangling
// links to a memory that does not exist.
func GenerateGraph(dir string, o GraphOptions) error {
	rng := rand.New(rand.NewSource(o.Seed))
	types := []string{"related", "implements", "extends", "blocks", "supersedes"}
	folder := func(i int) string { return fmt.Sprintf("topic%03d", i%o.Folders) }
	name := func(i int) string { return fmt.Sprintf("mem-%06d", i) }
	for i := 0; i < o.Memories; i++ {
		var b strings.Builder
		fmt.Fprintf(&b, "---\nid: %s\nsubject: Generated memory %d\nlinks:\n", name(i), i)
		for l := 0; l < o.Links; l++ {
			t := (i + 1) % o.Memories
			if l > 0 {
				t = rng.Intn(o.Memories)
			}
			target := name(t)
			if l == 2 {
				target = folder(t) + "/" + name(t)
			}
			if l == 1 && o.Dangling > 0 && i%o.Dangling == 0 {
				target = "missing-" + name(i)
			}
			typ := types[(i+l)%len(types)]
			if l%2 == 0 {
				fmt.Fprintf(&b, "  - %s: %s\n", typ, target)
			} else {
				fmt.Fprintf(&b, "  - link_type: %s\n    target_id: %s\n", strings.ToUpper(typ), target)
			}
		}
		fmt.Fprintf(&b, "tags: [generated]\nconfidence: 0.8\n---\n\n# Memory %d\n\nSome prose about the code.\n", i)
		if err := write(dir, ".serena/memories/"+folder(i)+"/"+name(i)+".md", b.String()); err != nil {
			return err
		}
	}
	return nil
}
