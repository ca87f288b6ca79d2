package runtime_test

import (
	"github.com/parasol-lang/parasol/eval"
	"github.com/parasol-lang/parasol/lang"
	"github.com/parasol-lang/parasol/runtime"
)

// The evaluator imports the runtime, so the runtime's own tests reach it
// only from here, the external test package, which sets the hook they
// call (compileMachine in helpers_test.go) before any test runs.
func init() {
	runtime.SetCompileMachine(func(name, src, program string) (*runtime.Spec, *lang.Schedule, error) {
		var m *eval.Machine
		var err error
		if src == "" {
			m, err = eval.Load(name)
		} else {
			m, err = eval.LoadSource(name, src)
		}
		if err != nil {
			return nil, nil, err
		}
		spec, err := m.Spec("")
		if err != nil || program == "" {
			return spec, nil, err
		}
		p, err := m.Program(program)
		if err != nil {
			return nil, nil, err
		}
		s, err := p.Schedule(m, eval.ScheduleOptions{})
		return spec, s, err
	})
}
