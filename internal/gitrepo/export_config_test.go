package gitrepo

// ConfigInProcessForTest reports whether Config read r's configuration
// without starting git.
func (r *Repo) ConfigInProcessForTest() bool { return r.cfgInProcess }

// PlainForTest reports whether r was found without git (discoverPlain),
// the one layout whose configuration Config may read in-process.
func (r *Repo) PlainForTest() bool { return r.plain }

// ReadConfigInProcessForTest reads r's configuration as Config does
// without git, each time, and returns why it would ask git instead.
func (r *Repo) ReadConfigInProcessForTest() (map[string][]string, string) {
	cfg, _, declined := r.configInProcess()
	return cfg, declined
}

// ParseConfigForTest is parseConfig: git's config file syntax, as git
// reads it.
func ParseConfigForTest(data []byte, fn func(key, value string, hasValue bool) error) error {
	return parseConfig(data, fn)
}
