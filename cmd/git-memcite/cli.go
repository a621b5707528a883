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
}
