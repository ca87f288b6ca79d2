package eval

import (
	"math"
	"strings"
	"testing"

	"github.com/parasol-lang/parasol/lang"
)

const twoCPUs = `machine "m" {
	processor cpu { }
	topology t = chain(2) { latency = 1us; speed = 1MB/s }
}
`

// runRegisters runs one rank's operations of s in order as an executor
// with perfect clocks would, with every operation taking no time and the
// clock reading clock: it returns the rank's registers by name, and the
// time each until waited for. Received values come from recv.
func runRegisters(t *testing.T, s *lang.Schedule, r int, clock float64, recv []float64) (map[string]float64, []float64) {
	t.Helper()
	regs := make([]float64, s.Regs)
	var untils []float64
	for _, op := range s.OpsOf(r) {
		k, has := op.RegOf()
		switch op.Kind {
		case lang.OpNow:
			regs[k] = clock
		case lang.OpSet:
			regs[k] = s.Exprs[op.Peer](regs)
		case lang.OpUntil:
			untils = append(untils, regs[k])
		case lang.OpRecv:
			if has {
				regs[k], recv = recv[0], recv[1:]
			}
		}
	}
	out := map[string]float64{}
	for k, name := range s.RegNames {
		if name != "" {
			out[name] = regs[k]
		}
	}
	return out, untils
}

// TestRunTimeValuesCompileToRegisterOperations: clock reads, waits, values
// carried by messages and arithmetic on them become OpNow, OpUntil, OpSet
// and registers on sends and receives, computed as the program says.
func TestRunTimeValuesCompileToRegisterOperations(t *testing.T) {
	for _, tc := range []struct {
		name, body string
		clock      float64
		recv       []float64
		kinds      string // rank 0's operations
		want       map[string]float64
		untils     []float64
	}{
		{"a clock read", "let t = now()", 5e-6, nil, "now", map[string]float64{"t": 5e-6}, nil},
		{"arithmetic with known values", "let t = now() * 2 + (rank + 3) * 1us", 1e-6, nil, "now set", map[string]float64{"t": 5e-6}, nil},
		{"negation and division", "let t = -now() / 4", 8e-6, nil, "now set", map[string]float64{"t": -2e-6}, nil},
		{"waiting for a time to come", "let t = now()\n until(t + 3us)", 1e-6, nil, "now set until", map[string]float64{"t": 1e-6}, []float64{4e-6}},
		{"waiting for a known time", "until(7us)", 0, nil, "set until", map[string]float64{}, []float64{7e-6}},
		{"a value sent", "send(0B, to: 1, value: now() - 1us)\n recv(from: 1)", 3e-6, nil, "now set send recv", map[string]float64{}, nil},
		{"a value received", "send(0B, to: 1)\n let t = recv(from: 1)", 0, []float64{9e-6}, "send recv", map[string]float64{"t": 9e-6}, nil},
		{"a loop accumulates into a run-time variable", "let s = 0s\n for i in 1 .. 3 { let s = s + i * now() }", 1e-6, nil, "set now set now set now set",
			map[string]float64{"s": 6e-6}, nil},
		{"a variable updated in a branch", "let s = now()\n if rank == 0 { let s = s * 2 }\n let u = s + 1us", 1e-6, nil, "now set set", map[string]float64{"s": 2e-6, "u": 3e-6}, nil},
		{"the seed's exchange", "send(0B, to: 1)\n let t0 = recv(from: 1)\n let t1 = now()\n let t2 = recv(from: 1)\n let d = t1 - t0 / 2 - t2 / 2", 10e-6, []float64{6e-6, 8e-6},
			"send recv now recv set", map[string]float64{"t0": 6e-6, "t1": 10e-6, "t2": 8e-6, "d": 3e-6}, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			peer := "if rank == 1 { recv(from: 0); send(0B, to: 0); send(0B, to: 0) }"
			if !strings.Contains(tc.body, "recv(from: 1)") {
				peer = ""
			}
			if strings.Contains(tc.body, "send(0B, to: 1, value") {
				peer = "if rank == 1 { let v = recv(from: 0); send(0B, to: 0) }"
			}
			m := loadTest(t, twoCPUs+"program p {\n if rank == 0 {\n "+tc.body+"\n }\n "+peer+"\n}\n")
			p, err := m.Program("p")
			if err != nil {
				t.Fatal(err)
			}
			s, err := p.Schedule(m, ScheduleOptions{})
			if err != nil {
				t.Fatal(err)
			}
			var kinds []string
			for _, op := range s.OpsOf(0) {
				kinds = append(kinds, op.Kind.String())
			}
			if got := strings.Join(kinds, " "); got != tc.kinds {
				t.Errorf("rank 0's operations: %s, want %s", got, tc.kinds)
			}
			got, untils := runRegisters(t, s, 0, tc.clock, tc.recv)
			for name, want := range tc.want {
				if math.Abs(got[name]-want) > 1e-15 {
					t.Errorf("%s = %g, want %g", name, got[name], want)
				}
			}
			if len(untils) != len(tc.untils) {
				t.Fatalf("untils %v, want %v", untils, tc.untils)
			}
			for i := range untils {
				if math.Abs(untils[i]-tc.untils[i]) > 1e-15 {
					t.Errorf("until %d waits for %g, want %g", i, untils[i], tc.untils[i])
				}
			}
		})
	}
}

// TestSendsCarryTheirValueRegister: a send with value: names the register
// its value is in, and the matching receive the register it goes to.
func TestSendsCarryTheirValueRegister(t *testing.T) {
	m := loadTest(t, twoCPUs+`program p {
		if rank == 0 { send(0B, to: 1, value: 2us) } else { let t = recv(from: 0) }
	}
`)
	p, _ := m.Program("p")
	s, err := p.Schedule(m, ScheduleOptions{})
	if err != nil {
		t.Fatal(err)
	}
	send := s.OpsOf(0)[len(s.OpsOf(0))-1]
	recv := s.OpsOf(1)[0]
	ks, ok1 := send.RegOf()
	kr, ok2 := recv.RegOf()
	if send.Kind != lang.OpSend || recv.Kind != lang.OpRecv || !ok1 || !ok2 {
		t.Fatalf("send %+v, receive %+v: both should name a register", send, recv)
	}
	if s.RegNames[kr] != "t" || s.RegNames[ks] != "" {
		t.Errorf("registers %q and %q, want a temporary and t", s.RegNames[ks], s.RegNames[kr])
	}
}

// TestProgramsWithoutRunTimeValuesHaveNoRegisters: nothing changes for a
// program that reads no clock.
func TestProgramsWithoutRunTimeValuesHaveNoRegisters(t *testing.T) {
	m := loadTest(t, twoCPUs+"program p { let x = rank + 1\n compute(x * 1us) }\n")
	p, _ := m.Program("p")
	s, err := p.Schedule(m, ScheduleOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if s.Regs != 0 || len(s.Exprs) != 0 || s.RegNames != nil {
		t.Errorf("regs %d, exprs %d, names %v; want none", s.Regs, len(s.Exprs), s.RegNames)
	}
	for _, op := range s.Ops {
		if op.Reg != 0 {
			t.Errorf("%s names register %d", op.Kind, op.Reg-1)
		}
	}
}

// TestRunTimeValueErrorsArePositioned: a run-time value where the schedule
// needs a value before running, and misuses of now, until and value:, are
// errors at their position saying what is allowed.
func TestRunTimeValueErrorsArePositioned(t *testing.T) {
	for _, tc := range []struct {
		name, body, want string
	}{
		{"a run-time value deciding an if", "let t = now()\n\tif t > 1us { compute(1us) }", "t.machine:7:5: t is known only while the program runs (it comes from now() or a receive); it can go into a let, until(…) or send's value:, but cannot decide an if"},
		{"a run-time value as a compute time", "let t = now()\n\tcompute(t)", "t.machine:7:10: t is known only while the program runs"},
		{"a run-time value as a rank", "let t = now()\n\tsend(0B, to: t)", "t.machine:7:15: t is known only while the program runs"},
		{"now() in a loop bound", "for i in 1 .. now() { }", "t.machine:6:16: now() is known only while the program runs"},
		{"now() alone", "now()", "t.machine:6:2: now() gives the rank's clock time, a value: keep it with let t = now()"},
		{"until a size", "until(now() * 1B)", "t.machine:6:8: until takes a time of the rank's clock, got a s*B"},
		{"until without a time", "until()", "t.machine:6:2: until takes one time: until(T)"},
		{"a size as a message's value", "send(0B, to: 1, value: 8B)", "t.machine:6:25: send's value: takes a time of the rank's clock, got a size"},
		{"value: twice", "send(0B, to: 1, value: 1us, value: 2us)", "t.machine:6:30: value: is given twice"},
		{"a let changing unit", "let t = now()\n\tfor i in 1 .. 2 { let t = t / 1us }", "t.machine:7:20: t holds a time, set at t.machine:6:2; this let gives it a number"},
		{"adding a size to a time", "let t = now() + 1B", "t.machine:6:16: + of a time and a size"},
		{"a function of a run-time value", "let t = max(now(), 1us)", "t.machine:6:10: max(now(), 1us) needs values known only while the program runs"},
		{"now with an argument", "let t = now(1)", "t.machine:6:10: now takes no arguments"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m := loadTest(t, twoCPUs+"program p {\n\t"+tc.body+"\n}\n")
			p, _ := m.Program("p")
			_, err := p.Schedule(m, ScheduleOptions{})
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error = %v\nwant it to contain %q", err, tc.want)
			}
		})
	}
}

// TestRunTimeValuesCountAgainstTheMemoryLimit: the closures of a long
// run of computed values are checked against the limit with the
// operations, and exceeding it is an error at the statement.
func TestRunTimeValuesCountAgainstTheMemoryLimit(t *testing.T) {
	m, err := LoadSource("t.machine", twoCPUs+"program p {\n\tfor i in 1 .. 40000 {\n\t\tlet t = now() + i * 1us\n\t}\n}\n", WithMaxMemory(8<<20))
	if err != nil {
		t.Fatal(err)
	}
	p, _ := m.Program("p")
	_, err = p.Schedule(m, ScheduleOptions{Ranks: 1})
	if err == nil || !strings.Contains(err.Error(), "t.machine:7:3: ") || !strings.Contains(err.Error(), "with its run-time values") {
		t.Errorf("error = %v, want the memory limit at the let", err)
	}
}
