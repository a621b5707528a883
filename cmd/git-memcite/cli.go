package main

// CLI is the command tree. kong tags are the help text.
type CLI struct {
	Globals

	Verify    verifyCmd    `cmd:"" help:"Verify the citations of one or more memories."`
	VerifyAll verifyAllCmd `cmd:"" name:"verify-all" help:"Verify every memory in the memory directories."`
	Relocate  relocateCmd  `cmd:"" help:"Find where stale citations went through the history; --fix rewrites them."`
	Install   installCmd   `cmd:"" help:"Install the git hooks that check citations on commit, merge and rebase."`
	Uninstall uninstallCmd `cmd:"" help:"Remove git-memcite's git hooks; put back hooks it chained or backed up."`
	Status    statusCmd    `cmd:"" help:"Show which git-memcite hooks are installed and current (exit 1 if not)."`
	Hook      hookCmd      `cmd:"" hidden:"" help:"Run a git hook (called by the installed hook scripts)."`
	AgentHook agentHookCmd `cmd:"" name:"agent-hook" help:"Answer an AI agent's tool hook: read one event as JSON on stdin; when the agent read a memory with stale citations, say which, where their lines went and how to fix them."`

	Config     configCmd     `cmd:"" help:"Print the effective configuration and where each value comes from."`
	Completion completionCmd `cmd:"" help:"Print a shell completion script (bash, zsh or fish)."`
	Help       helpCmd       `cmd:"" help:"Show the help of a command (git memcite --help opens the man page)."`
	Man        manCmd        `cmd:"" hidden:"" help:"Print the man page git-memcite.1 (roff)."`
	Complete   completeCmd   `cmd:"" name:"__complete" hidden:"" help:"Print completion candidates (memories: the memory ids) for the shell completion scripts."`

	Graph  graphCmd  `cmd:"" help:"Traverse, search and export the links between memories."`
	Health healthCmd `cmd:"" help:"Report the health of the memory store (markdown, JSON or HTML)."`

	AddCitation      addCitationCmd      `cmd:"" name:"add-citation" help:"Add a checked citation to a memory (snippet, commit and verified filled in)."`
	ListCitations    listCitationsCmd    `cmd:"" name:"list-citations" help:"List the citations of memories with their status."`
	RemoveCitation   removeCitationCmd   `cmd:"" name:"remove-citation" help:"Remove a citation from a memory by index or location."`
	UpdateConfidence updateConfidenceCmd `cmd:"" name:"update-confidence" help:"Set a memory's confidence, or recompute it from its citations."`
	Adopt            adoptCmd            `cmd:"" help:"Turn informal citations in memory bodies (path:line, backticked paths) into structured ones."`

	Doctor doctorCmd `cmd:"" help:"Check the repository, the memory store, Serena's configuration and the hooks."`
}
