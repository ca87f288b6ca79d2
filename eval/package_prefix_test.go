package eval

import (
	"regexp"
	"testing"

	"github.com/parasol-lang/parasol/lang"
)

// Messages speak of the user's input, not of the Go package that found the
// problem: none starts with "eval: ", "topo: " and the like, whichever
// stage reports it.
func TestNoMessageStartsWithAPackageName(t *testing.T) {
	prefix := regexp.MustCompile(`^(eval|lang|parser|topo|runtime|acyclic|limits|registry|stdlib): `)
	for _, src := range []string{
		"machine \"m\" {\n\ttopology t = hypercube(-1) { speed = 1MB/s }\n}\n",
		"machine \"m\" {\n\ttopology t = tree(0, 2) { speed = 1MB/s }\n}\n",
		"machine \"m\" {\n\ttopology t = hamiltonian(5, 1, 9) { speed = 1MB/s }\n}\n",
		"machine \"m\" {\n\ttopology t = ring(4, 4) { speed = 1MB/s }\n}\n",
		"machine \"m\" {\n\ttopology t = hypercube(60) { speed = 1MB/s }\n}\n",
		"machine \"m\" {\n\ttopology t { link 0 -- 0 }\n}\n",
		"machine \"m\" {\n\tparam x = 1 +\n}\n",
		"machine \"m\" extends \"n\" {}\n",
		"machine \"m\" {\n\tprocessor p { clokc = 1GHz }\n\tparam y = p.x\n}\n",
	} {
		_, err := LoadSource("m.machine", src, WithMaxMemory(64<<20))
		if err == nil {
			t.Errorf("%q loads", src)
			continue
		}
		var ds lang.Diagnostics
		ds.Append(err)
		for _, d := range ds {
			if prefix.MatchString(d.Msg) {
				t.Errorf("%q: %q starts with a package name", src, d.Msg)
			}
		}
	}
}
