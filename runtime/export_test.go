package runtime

import "github.com/parasol-lang/parasol/lang"

// SetCompileMachine gives this package's tests the evaluator's compilation
// of a machine (compileMachine in helpers_test.go).
func SetCompileMachine(f func(name, src, program string) (*Spec, *lang.Schedule, error)) {
	compileMachine = f
}
