// Package gitblame follows cited lines through git history: given the
// commit a citation was made at (the base, A), a path and a line range, it
// finds where those lines are at a target, a commit B and optionally a
// content view after it (the index or the working tree, as a
// source.Source). It is pure: it reads the repository only through the
// History interface (implemented by internal/gitrepo) and
// returns values.
//
// # Algorithm
//
// Lines are compared by key: the line with its line ending removed, trimmed
// and with runs of white space collapsed, so CRLF conversion and
// reindentation never break the lineage. "Trivial" lines (fewer than 3
// letters or digits, or one of "return nil", "} else {", "break", ...) are
// never relocated on their own, only through their context.
//
//  1. Group anchors by base (Tracker.route). A base that does not exist
//     (shallow clone, rewritten history) or no base at all: search the
//     target's content (step 9). Walk first parents back from B until every
//     base is seen. Bases on that chain are replayed stepwise (2-8); the
//     others take one step straight from their base to B (RouteOneShot:
//     renames made in between and later reverted may be missed;
//     Tracker.oneShots).
//  2. For each commit C on the chain after the oldest base (Tracker.walk),
//     with first parent P, and each path holding live lines (stepPath):
//     compare the path's blob in P and C (tree entry lookups, cached by
//     tree hash). Equal: nothing to do. When the History is a PathHistory
//     (internal/gitrepo's is) and the chain is longer than 64 commits, the
//     chain is listed by git (rev-list --first-parent, stopped once every
//     base is seen) and git says once which of its commits change which
//     tracked path (log --first-parent --name-only -- paths; a path lines
//     move into is asked from that commit on; quiet): a commit that
//     changes none is crossed without reading it, and a commit that
//     changes some compares only those. That is exact: such a step
//     changes nothing, and a gallop window without a change is taken
//     exactly when its diff would let it be (every line maps to itself;
//     no ambiguous line followed). Otherwise the commits are read one by
//     one and those where no tracked path changed cost one lookup per
//     path. Gallop: once every base is active, the
//     walk first tries to cross the next 32 commits in one step. It takes
//     the window as one step when every live line's file exists at both
//     ends and the line maps through a strong Equal run of that one diff,
//     without moving or with its first move already recorded; otherwise it
//     steps through the window commit by commit. This reads two blob
//     versions instead of up to 32 where the cited lines are left alone
//     (one citation across 10,000 commits: 1.5 s → 0.3 s). It keeps every
//     result the commit-by-commit walk finds; it can only find more: a line
//     edited and edited back, deleted and restored, or moved away and back
//     inside a window ends where it started, and the window's diff says so,
//     where the commit-by-commit walk may have lost its trail (a trivial
//     line whose context left with it). Such a round trip's event is not
//     recorded. FuzzTrackEdits checks this against a walk through every
//     commit and against the edit script's own record of where the line
//     went.
//  3. If the path is gone in C, ask History.Changes(P, C) with rename
//     detection at git's 50% similarity for a rename or copy source equal
//     to the path; none means the file was deleted.
//  4. Line-diff the old and new blob (go-diff Myers in line mode over the
//     keys, no timeout, cached per blob pair). A line inside an Equal run
//     maps exactly, except "sliders" that Myers may have aligned with the
//     wrong copy of an identical line: trivial lines at the edges of a run
//     next to a change, runs of trivial lines only, runs of one or two
//     lines between two changes, and the lines a deleted or inserted block
//     could slide over (a block that ends with the lines that follow it).
//     Those go to step 5, where their Equal partner competes with the
//     inserted lines of the same text.
//  5. A line inside a changed hunk (resolve; pick) is matched against the
//     inserted lines of the new file (a move within the file or an edit in
//     place) and the slider lines of step 4. Score = 0.6 content + 0.4
//     context (LHDiff): content is 1 - Levenshtein/len of the keys (the 15
//     best by bigram Dice are scored), context the cosine of the tokens of
//     the 4 non-trivial lines above and of the 4 below (tokens weighted 1,
//     3/4, 1/2, 1/4 by rank; the two sides weighted by the inverse distance
//     of their nearest line; contentScored, accept). A candidate needs
//     content > 0.5 and score > 0.5; a line-for-line rewrite hunk gives the
//     candidate at the same offset 0.03 more. Trivial lines need the same
//     key, are ranked by context alone (a closing line by the lines above
//     it, an opening line by the lines below, others by their better side;
//     a side counts only if its nearest non-trivial line is the same in
//     both texts) and need context >= 0.8.
//  6. Unless step 5 found a candidate with content >= 0.9, the lines added
//     in the same commit to other files (all lines of new files) are also
//     candidates: moves and extractions into another file, file splits.
//     They need content >= 0.7, and lines with fewer than 20 letters or
//     digits need an exact key and context >= 0.5 (git blame -C's floor).
//  7. A distinctive line (20 letters or digits or more) found verbatim
//     (best)
//     among the accepted candidates is that line: only verbatim copies
//     compete then, so a near copy (value13 for value10) in a better
//     context never wins. Likewise a slider's own Equal partner competes
//     only with copies of its text. The best candidate wins if it leads
//     the runner-up by 0.05 or more.
//     Otherwise the line is ambiguous: a single-line citation keeps up to
//     5 candidates, followed further through Equal runs only. No candidate:
//     the line is gone in C (C is GoneIn, P is LastSeen).
//  8. Lines of one range citation (vote) vote for a common offset (path,
//     first line); unresolved or tied lines take the slot the vote gives
//     them if the text there is theirs (same key, or 0.8 similar for
//     non-trivial lines), the line there is new in this step (not the
//     unchanged image of another old line) and no other line of the
//     citation holds it. When every non-trivial line of a citation is gone,
//     its trivial lines are dropped too.
//  9. Final step to the view: the same as steps 2-8 with C the view; a
//     file's view blob is its git blob hash, so unchanged files cost a
//     hash. Other files of the view (changed or untracked) are searched for
//     moved lines only when the cited file is gone from the view. Changes
//     are computed from B's file list and the view's list (or, when the
//     target names them, Target.Changed: the paths git status reports, so
//     that a large checkout is not read whole); renames pair deleted and
//     added files sharing 50% of their lines. Content search (step 1;
//     contentSearch) looks for the cited text (or snippet) at the cited
//     path, then in every file if it has 40 letters or digits or more; one
//     hit relocates, several are ambiguous, none is gone.
//  10. Result (finish): the file holding most of the live non-trivial lines
//     (then most lines; winningPath) is the citation's. Lines all alive
//     there, contiguous, in the cited order, raw text equal (up to line
//     endings): Unchanged at the same place, else Moved. Any key changed,
//     or some lines lost: Changed, with Similarity the mean content
//     similarity of the original and current keys (lost lines count 0).
//     Reindentation is therefore Changed with Similarity 1, and
//     SnippetFound tells whether the snippet (trimmed, white space
//     collapsed) is still a substring of the text. No live line and
//     candidates left: Ambiguous. Otherwise Gone (noLiveLine).
//
// Provenance: the tracker records the first step that moved the lines
// (FirstMove), the first after which the snippet (without snippet: the
// original text) no longer matched (FirstEdit), and the step that deleted
// them or lost their trail (Break, GoneIn). Result.Blame picks the one that
// made the citation stale.
//
// # What it does not guarantee
//
//   - It follows first parents only: a merge counts as one commit bringing
//     all of its side branch's changes; blame points at the merge.
//   - Lineage is textual: a line deleted and an unrelated similar line added
//     elsewhere in the same commit can be taken for a move when the
//     thresholds and the margin are met. Ambiguity is reported only between
//     candidates within the margin.
//   - A line edited beyond 50% of its characters in one commit is reported
//     gone even if a human would call it the same line; several small edits
//     in successive commits are followed.
//   - A line whose content and context both changed a lot, or a trivial line
//     whose context is not unique, is reported gone or ambiguous, never
//     guessed.
//   - Cross-file moves are searched only among files changed in the same
//     commit (git blame -C), at most 400 files and 200,000 added lines per
//     commit; copies from unchanged files are not found.
//   - Content search without a base has no history evidence: a unique exact
//     hit may still be a different occurrence of the same text.
//   - RouteOneShot loses renames that exist only step by step.
//
// # Cost
//
// Walking asks git two questions (the first-parent chain, and which of its
// commits change which tracked path, pruned by pathspec in git's own tree
// walk), then reads a commit and looks up its tree entries only where a
// tracked path changed; without a PathHistory it is one commit read and
// one cached tree-entry lookup per tracked path per commit. Diffs are
// computed only where a tracked path's blob changed and are cached per
// blob pair, so anchors sharing a path share them. The changes of a commit
// (for lines moved to other files) are compared in-process through the
// cached trees, skipping equal subtrees. Line keys are interned once per
// blob, so a diff is Myers over rune slices. Anchors sharing a base share
// the walk, and the walk stops once every citation is settled (gone).
// Reading blobs (zlib and deltas in go-git) dominates the cost on long
// histories.
package gitblame
