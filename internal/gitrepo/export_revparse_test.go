package gitrepo

// ResolvedInProcessForTest reports whether ResolveCommit answered rev
// without starting git.
func (r *Repo) ResolvedInProcessForTest(rev string) bool {
	r.revMu.Lock()
	defer r.revMu.Unlock()
	res, ok := r.revs[rev]
	return ok && res.inProcess
}

// ResolveInProcessForTest resolves rev as ResolveCommit does without git,
// uncached, and reports false where ResolveCommit would ask git.
func (r *Repo) ResolveInProcessForTest(rev string) (OID, bool) {
	return r.resolveInProcess(rev)
}

// AfterTests runs f once every test ran (removing shared fixtures).
func AfterTests(f func()) { afterTests = append(afterTests, f) }
