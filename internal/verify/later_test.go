package verify

import (
	"context"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/git-memcite/git-memcite/internal/memfile"
	"github.com/git-memcite/git-memcite/internal/source"
	"github.com/git-memcite/git-memcite/internal/store"
)

// laterChecker judges one path reference per memory now and one symbol
// reference later, once release is closed (when release is not nil).
type laterChecker struct {
	release chan struct{}
}

func (l laterChecker) now(mems []*store.Memory) [][]ProseCitation {
	out := make([][]ProseCitation, len(mems))
	for i := range mems {
		out[i] = []ProseCitation{{
			Ref:      ProseRef{Kind: "path", Text: "a", Target: "a"},
			Citation: memfile.Citation{Path: "a"},
			Status:   Valid,
		}}
	}
	return out
}

func (l laterChecker) symbols(mems []*store.Memory) [][]ProseCitation {
	out := make([][]ProseCitation, len(mems))
	for i := range mems {
		out[i] = []ProseCitation{{
			Ref:      ProseRef{Kind: "symbol", Text: "Gone", Target: "Gone"},
			Citation: memfile.Citation{Path: "Gone"},
			Status:   Stale,
			Kind:     KindSymbolGone,
			Reason:   "Symbol Gone is gone from the code",
		}}
	}
	return out
}

func (l laterChecker) CheckProse(_ context.Context, _ source.Source, mems []*store.Memory) ([][]ProseCitation, error) {
	out, syms := l.now(mems), l.symbols(mems)
	for i := range out {
		out[i] = append(out[i], syms[i]...)
	}
	return out, nil
}

func (l laterChecker) CheckProseLater(_ context.Context, _ source.Source, mems []*store.Memory) ([][]ProseCitation, func() ([][]ProseCitation, error), error) {
	return l.now(mems), func() ([][]ProseCitation, error) {
		if l.release != nil {
			<-l.release
		}
		return l.symbols(mems), nil
	}, nil
}

// plainChecker is laterChecker without CheckProseLater.
type plainChecker struct{ l laterChecker }

func (p plainChecker) CheckProse(ctx context.Context, src source.Source, mems []*store.Memory) ([][]ProseCitation, error) {
	return p.l.CheckProse(ctx, src, mems)
}

// TestStartLeavesLaterReferences: Start returns while the references a
// LaterProseChecker judges later are being judged, with the others
// counted; Judged is closed once they are judged; Wait adds them, after
// each memory's others, and the report is then the one Check gives with
// a checker that judges all at once.
func TestStartLeavesLaterReferences(t *testing.T) {
	root := t.TempDir()
	must(t, os.WriteFile(filepath.Join(root, "a"), []byte("one\ntwo\n"), 0o644))
	wt, err := source.NewWorktree(root)
	if err != nil {
		t.Fatal(err)
	}
	mems := func() []*store.Memory {
		var out []*store.Memory
		for _, p := range []string{"m1.md", "m2.md"} {
			f, err := memfile.Parse(p, []byte("---\ncitations:\n  - a:1\n---\nSee a.\n"))
			if err != nil {
				t.Fatal(err)
			}
			out = append(out, &store.Memory{Path: p, File: f})
		}
		return out
	}
	ctx := context.Background()
	want, err := Check(ctx, wt, mems(), Options{Prose: plainChecker{}})
	if err != nil {
		t.Fatal(err)
	}

	release := make(chan struct{})
	got, p, err := Start(ctx, wt, mems(), Options{Prose: laterChecker{release: release}})
	if err != nil {
		close(release)
		t.Fatal(err)
	}
	// later has not returned: the report holds the other citations
	for i := range got.Memories {
		m := &got.Memories[i]
		if len(m.Citations) != 2 || m.Total != 2 || m.ValidCount != 2 {
			t.Errorf("%s before Wait: %d citations, %d of %d valid; want 2, 2 of 2", m.Memory.Path, len(m.Citations), m.ValidCount, m.Total)
		}
	}
	select {
	case <-p.Judged():
		t.Error("Judged is closed before the references judged later are")
	default:
	}
	close(release)
	<-p.Judged()
	if err := p.Wait(); err != nil {
		t.Fatal(err)
	}
	if err := p.Wait(); err != nil { // a second Wait adds nothing
		t.Fatal(err)
	}
	for i := range got.Memories {
		g, w := &got.Memories[i], &want.Memories[i]
		if g.Total != w.Total || g.ValidCount != w.ValidCount || g.Skipped != w.Skipped || g.Confidence != w.Confidence {
			t.Errorf("%s: %d of %d valid, %d skipped, confidence %v; Check gives %d of %d, %d, %v",
				g.Memory.Path, g.ValidCount, g.Total, g.Skipped, g.Confidence, w.ValidCount, w.Total, w.Skipped, w.Confidence)
		}
		if len(g.Citations) != len(w.Citations) {
			t.Fatalf("%s: %d citations, Check gives %d", g.Memory.Path, len(g.Citations), len(w.Citations))
		}
		for k := range g.Citations {
			gc, wc := g.Citations[k], w.Citations[k]
			if !reflect.DeepEqual(gc.Citation, wc.Citation) || !reflect.DeepEqual(gc.Prose, wc.Prose) ||
				gc.Status != wc.Status || gc.Kind != wc.Kind || gc.Reason != wc.Reason {
				t.Errorf("%s citation %d: %+v (%+v); Check gives %+v (%+v)", g.Memory.Path, k, gc, gc.Citation, wc, wc.Citation)
			}
		}
	}
}
