package app

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/git-memcite/git-memcite/internal/gitrepo"
	"github.com/git-memcite/git-memcite/internal/memfile"
	"github.com/git-memcite/git-memcite/internal/source"
	"github.com/git-memcite/git-memcite/internal/store"
	"github.com/git-memcite/git-memcite/internal/vcache"
	"github.com/git-memcite/git-memcite/internal/verify"
)

// Errors of Record.
var (
	ErrRecordNoRepository = errors.New("--record needs a git repository")
	ErrRecordNoCommit     = errors.New("--record needs a commit to record (the repository has none)")
)

// Recorded is what Record wrote.
type Recorded struct {
	Commit  string // the commit recorded (full name)
	Files   int    // memory files rewritten
	Skipped int    // valid citations not recorded: their files differ from the commit
}

// Record writes HEAD's name and the time into every valid citation of rep
// written as a mapping (commit and verified fields: the base later
// relocations start from), and each memory's confidence and last_verified,
// as update-confidence writes them (verify --record). It takes the rewrite
// lock and reads every memory again under it: a memory a concurrent
// rewrite changed is verified again before anything is recorded in it. A
// citation valid in src but in a file that differs from HEAD is skipped:
// recording HEAD would give later relocations a wrong base. cache is the
// verification cache (nil: none).
func Record(ctx context.Context, repo *gitrepo.Repo, src source.Source, cache *vcache.Cache, rep *verify.Report) (Recorded, error) {
	var res Recorded
	if repo == nil {
		return res, ErrRecordNoRepository
	}
	head, ok, err := repo.Head()
	if err != nil {
		return res, err
	}
	if !ok {
		return res, ErrRecordNoCommit
	}
	res.Commit = head.String()
	stamp := memfile.Timestamp(Now().UTC().Format(time.RFC3339))
	hist, err := repo.History()
	if err != nil {
		return res, err
	}
	defer hist.Close()
	headHash, _ := head.Hash() // a full object name: git printed it
	dirty := Dirty(hist, headHash, src)
	unlock, err := Lock(ctx, repo)
	if err != nil {
		return res, err
	}
	defer unlock()
	for i := range rep.Memories {
		mr := &rep.Memories[i]
		if mr.Memory.File == nil {
			continue
		}
		m := &store.Memory{Path: mr.Memory.Path, Dir: mr.Memory.Dir}
		m.Load(src)
		if m.Err != nil {
			return res, fmt.Errorf("%s: %w", m.Path, m.Err)
		}
		if !bytes.Equal(m.File.Src, mr.Memory.File.Src) {
			again, err := verify.Check(ctx, src, []*store.Memory{m}, verify.Options{Cache: cache})
			if err == nil {
				err = JudgeLines(ctx, repo, src, "", false, cache, again)
			}
			if err != nil {
				return res, err
			}
			mr = &again.Memories[0]
		}
		out, skipped, err := recordOne(mr, res.Commit, stamp, dirty)
		res.Skipped += skipped
		if err != nil {
			return res, err
		}
		if out == nil {
			continue
		}
		if err := WriteMemory(repo, repo.Top, mr.Memory.Path, mr.Memory.File.Src, out); err != nil {
			return res, err
		}
		res.Files++
	}
	return res, nil
}

// recordOne plans the record edits of one verified memory; nil when
// nothing changes.
func recordOne(mr *verify.MemoryResult, commit string, stamp memfile.Timestamp, dirty func(string) bool) ([]byte, int, error) {
	f := mr.Memory.File
	skipped := 0
	var edits []memfile.Edit
	for _, c := range mr.Citations {
		if c.Status != verify.Valid || c.Citation.Form != memfile.FormMapping {
			continue
		}
		if dirty != nil && dirty(c.Citation.Path) {
			skipped++
			continue
		}
		es, err := f.SetCitation(c.Citation.Index,
			memfile.Field{Key: "commit", Value: commit},
			memfile.Field{Key: "verified", Value: stamp})
		if err != nil {
			return nil, skipped, fmt.Errorf("%s: %w", mr.Memory.Path, err)
		}
		edits = append(edits, es...)
	}
	if mr.Total > 0 {
		fields := []memfile.Field{{Key: "last_verified", Value: stamp}}
		if !f.HasConfidence || f.Confidence != mr.Confidence {
			fields = append([]memfile.Field{{Key: "confidence", Value: mr.Confidence}}, fields...)
		}
		es, err := f.SetTop(fields...)
		if err != nil {
			return nil, skipped, fmt.Errorf("%s: %w", mr.Memory.Path, err)
		}
		edits = append(edits, es...)
	}
	if len(edits) == 0 {
		return nil, skipped, nil
	}
	out, _, err := memfile.Rewrite(f, edits)
	if err != nil {
		return nil, skipped, fmt.Errorf("%s: %w", mr.Memory.Path, err)
	}
	if bytes.Equal(out, f.Src) {
		return nil, skipped, nil
	}
	return out, skipped, nil
}
