package runtime

import (
	"testing"

	"github.com/parasol-lang/parasol/lang"
)

// compileMachine loads a machine, from the file spec name (such as
// "std:xmp64") when src is "" and else from the text src, and compiles
// its first topology into a Spec and, when program is not "", that
// program of the machine, with default options, into a schedule. The
// evaluator does this, and it imports package runtime, so this package's
// own tests cannot call it: the external test package sets it
// (machines_test.go, through export_test.go). Tests of the runtime whose
// network is clearest written as a machine use it; tests of the
// compilation itself are eval's.
var compileMachine func(name, src, program string) (*Spec, *lang.Schedule, error)

// loadSpec is the Spec of a machine file's first topology.
func loadSpec(t testing.TB, name string) *Spec {
	t.Helper()
	spec, _, err := compileMachine(name, "", "")
	if err != nil {
		t.Fatal(err)
	}
	return spec
}

// sourceSpec loads a machine from its text and makes its first topology's Spec.
func sourceSpec(t testing.TB, name, src string) *Spec {
	t.Helper()
	spec, _, err := compileMachine(name, src, "")
	if err != nil {
		t.Fatal(err)
	}
	return spec
}
