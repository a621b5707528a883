package render

import (
	"fmt"
	"io"
	"sort"
	"strings"

	"github.com/git-memcite/git-memcite/internal/store"
)

// MemoryIDs writes the ids of mems for the shell completion scripts
// (__complete memories): sorted, once each, without ids a shell word
// cannot hold.
func MemoryIDs(w io.Writer, mems []*store.Memory) error {
	seen := map[string]bool{}
	var ids []string
	for _, m := range mems {
		if id := m.ID; !seen[id] && id != "" && !strings.ContainsAny(id, " \t\n") {
			seen[id] = true
			ids = append(ids, id)
		}
	}
	sort.Strings(ids)
	for _, id := range ids {
		if _, err := fmt.Fprintln(w, Safe(id)); err != nil {
			return err
		}
	}
	return nil
}
