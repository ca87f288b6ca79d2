package eval

import "testing"

func TestFuncMentionsTheParametersItsBodyNames(t *testing.T) {
	m, err := LoadSource("m.machine", `machine m {
	processor cpu {}
	topology t { link 0 -- 1 { latency = 1ns; speed = 1GB/s } }
	modelsection MPI {
		latency(n: B, src, dst) = 2us + n * 1ns/B
		send(n: B, src, dst) = if src == dst then 0s else hop(dst) * n * 1ns/B
		hop(x) = x + 1
	}
}`)
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		fn, param string
		want      bool
	}{
		{"MPI.latency", "n", true},
		{"MPI.latency", "src", false},
		{"MPI.latency", "dst", false},
		{"MPI.send", "src", true},
		{"MPI.send", "dst", true},
		{"MPI.hop", "dst", false}, // another function's parameter of that name
	} {
		f, err := m.Func(tt.fn)
		if err != nil {
			t.Fatal(err)
		}
		if got := f.Mentions(tt.param); got != tt.want {
			t.Errorf("%s.Mentions(%q) = %v, want %v", tt.fn, tt.param, got, tt.want)
		}
	}
}
