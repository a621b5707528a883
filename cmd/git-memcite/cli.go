package main

// CLI is the command tree. kong tags are the help text.
type CLI struct {
	Globals

	Verify    verifyCmd    `cmd:"" help:"Verify the citations of one or more memories."`
	VerifyAll verifyAllCmd `cmd:"" name:"verify-all" help:"Verify every memory in the memory directories."`

	Graph  graphCmd  `cmd:"" help:"Traverse, search and export the links between memories."`
	Health healthCmd `cmd:"" help:"Report the health of the memory store (markdown, JSON or HTML)."`

	AddCitation      addCitationCmd      `cmd:"" name:"add-citation" help:"Add a checked citation to a memory (snippet, commit and verified filled in)."`
	ListCitations    listCitationsCmd    `cmd:"" name:"list-citations" help:"List the citations of memories with their status."`
	RemoveCitation   removeCitationCmd   `cmd:"" name:"remove-citation" help:"Remove a citation from a memory by index or location."`
	UpdateConfidence updateConfidenceCmd `cmd:"" name:"update-confidence" help:"Set a memory's confidence, or recompute it from its citations."`
	Adopt            adoptCmd            `cmd:"" help:"Turn informal citations in memory bodies (path:line, backticked paths) into structured ones."`

	Doctor doctorCmd `cmd:"" help:"Check the repository, the memory store, Serena's configuration and the hooks."`
}
