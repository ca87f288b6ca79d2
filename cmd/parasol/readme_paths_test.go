package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// repoPath is a file of this repository named in a command: the reader
// can run it from a clone as written.
var repoPath = regexp.MustCompile(`(?:^|[\s'"(])((?:examples|eval|docs|stdlib|editors)/[\w./-]+\.\w+)`)

func TestCommandsInTheUserDocsNameFilesTheRepositoryHas(t *testing.T) {
	for _, doc := range []string{"README.md", "docs/CALIBRATION.md", "docs/PROGRAMS.md", "docs/RUNTIME.md", "docs/PERFORMANCE.md", "docs/PERFORMANCE-HISTORY.md", "docs/VALIDATION.md", "examples/dragonfly/README.md"} {
		text, err := os.ReadFile(filepath.Join("..", "..", doc))
		if err != nil {
			t.Fatal(err)
		}
		inCode := false
		for i, line := range strings.Split(string(text), "\n") {
			if strings.HasPrefix(line, "```") {
				inCode = !inCode
				continue
			}
			if !inCode {
				continue
			}
			for _, m := range repoPath.FindAllStringSubmatch(line, -1) {
				if _, err := os.Stat(filepath.Join("..", "..", m[1])); err != nil {
					t.Errorf("%s:%d: %s is not in the repository: %s", doc, i+1, m[1], line)
				}
			}
		}
	}
}
