package main

import (
	"bytes"
	"strings"
	"testing"
)

func TestDrawSVGWithoutGraphvizSaysHowToGetIt(t *testing.T) {
	t.Setenv("PATH", t.TempDir()) // no dot here
	var out, errOut bytes.Buffer
	e := &env{stdin: strings.NewReader(""), stdout: &out, stderr: &errOut}
	code := run(e, []string{"draw", "../../examples/star.machine", "--format", "svg"})
	if code != exitInput {
		t.Errorf("exit status %d, want %d", code, exitInput)
	}
	for _, want := range []string{"needs Graphviz's dot program", "apt-get install graphviz", "--format dot"} {
		if !strings.Contains(errOut.String(), want) {
			t.Errorf("stderr %q lacks %q", errOut.String(), want)
		}
	}
	if out.Len() > 0 {
		t.Errorf("stdout %q, want nothing", out.String())
	}
}
