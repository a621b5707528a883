package main

// CLI is the command tree. kong tags are the help text.
type CLI struct {
	Globals

	Verify    verifyCmd    `cmd:"" help:"Verify the citations of one or more memories."`
	VerifyAll verifyAllCmd `cmd:"" name:"verify-all" help:"Verify every memory in the memory directories."`

	Graph  graphCmd  `cmd:"" help:"Traverse, search and export the links between memories."`
	Health healthCmd `cmd:"" help:"Report the health of the memory store (markdown, JSON or HTML)."`
}
