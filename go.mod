module github.com/git-memcite/git-memcite

go 1.24.0
