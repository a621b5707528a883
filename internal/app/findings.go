package app

import (
	"context"
	"fmt"
	"strings"

	"github.com/git-memcite/git-memcite/internal/findings"
	"github.com/git-memcite/git-memcite/internal/gitrepo"
	"github.com/git-memcite/git-memcite/internal/trace"
)

// Policy is how a run judges and orders its findings: the configured level
// of each rule, the baseline of known findings, and the revision whose
// changes are listed first.
type Policy struct {
	Levels   map[string]findings.Level // rule (without "memcite/") → level; Off drops it
	Baseline findings.Baseline         // known findings: neither reported nor failing
	// ChangedSince lists first the findings on files changed since this
	// revision (git diff REV...HEAD). With ChangedSinceGiven false (a
	// default such as a pull request's base) an unknown revision only
	// leaves the order as it is.
	ChangedSince      string
	ChangedSinceGiven bool
}

// Apply applies p to fr: levels, counts, the order, the baseline.
func Apply(ctx context.Context, repo *gitrepo.Repo, fr *findings.Report, p Policy) error {
	fr.Findings = findings.Severities(fr.Findings, p.Levels)
	fr.Count()
	changed, err := ChangedFiles(ctx, repo, p.ChangedSince, p.ChangedSinceGiven)
	if err != nil {
		return err
	}
	findings.SortChangedFirst(fr.Findings, changed)
	p.Baseline.Filter(fr)
	return nil
}

// ChangedFiles lists the files changed between rev and HEAD (git diff
// rev...HEAD); nil for no rev or no repository. When git cannot tell
// (a shallow clone without the base), it is an error only if required.
func ChangedFiles(ctx context.Context, repo *gitrepo.Repo, rev string, required bool) (map[string]bool, error) {
	if rev == "" || repo == nil {
		return nil, nil
	}
	out, err := repo.Run(ctx, "diff", "--name-only", "-z", "--no-renames", rev+"...HEAD")
	if err != nil {
		if required {
			return nil, fmt.Errorf("--changed-since: %w", err)
		}
		trace.Printf("changed files since %s unknown (a shallow clone?): %v", rev, err)
		return nil, nil
	}
	changed := map[string]bool{}
	for _, p := range strings.Split(out, "\x00") {
		if p != "" {
			changed[p] = true
		}
	}
	trace.Printf("%d file(s) changed since %s", len(changed), rev)
	return changed, nil
}
