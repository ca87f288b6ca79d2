package eval

import (
	"fmt"
	"slices"
	"strings"
	"testing"
)

// A topology's latency and speed are defaults for its links: out of
// bounds, they refuse the machine only where a link (or a nic link, or an
// expression) takes them, and the error is at the default, naming who
// takes it; a default no link takes is a warning.
func TestTopologyDefaultsAreBoundedWhereLinksTakeThem(t *testing.T) {
	tests := []struct {
		name     string
		src      string   // ‸ marks each diagnostic's position
		errors   []string // each error's message and note, in order of position; none: it loads
		warnings []string // when it loads
	}{
		{"explicit links that all set their speed", `machine "m" {
	processor p { name = "P" }
	topology t {
		speed = ‸0B/s
		link 0 -- 1 { speed = 1GB/s }
		link 1 -- 2 { speed = 1GB/s }
	}
}`, nil, []string{
			"warning: speed = 0B/s: a link's speed must be positive, at least 1 bit/s (0.125B/s); no link takes it, as every link of topology t sets its own",
		}},
		{"a link template that sets both, defaults out both ways", `machine "m" {
	processor p { name = "P" }
	topology t = ring(4) {
		latency = ‸-5ns
		speed = ‸1e30B/s
		link(d) {
			latency = 1us
			speed = 1GB/s
		}
	}
}`, nil, []string{
			"warning: latency must not be negative, got -5ns; no link takes it, as every link of topology t sets its own",
			"warning: speed = 1e+30B/s is too large: a link's speed is at most 1e24B/s; no link takes it, as every link of topology t sets its own",
		}},
		{"nic links with speeds of their own", `machine "m" {
	processor p { name = "P" }
	topology t = ring(4) {
		speed = ‸0B/s
		nic = yes
		nic_speed = 1GB/s
		link(d) { speed = 1GB/s }
	}
}`, nil, []string{
			"warning: speed = 0B/s: a link's speed must be positive, at least 1 bit/s (0.125B/s); no link takes it, as every link of topology t sets its own",
		}},
		{"one explicit link without a speed", `machine "m" {
	processor p { name = "P" }
	topology t {
		speed = ‸0B/s
		link 0 -- 1 { speed = 1GB/s }
		link 1 -- 2 { latency = 1us }
	}
}`, []string{
			"speed = 0B/s: a link's speed must be positive, at least 1 bit/s (0.125B/s); link 1 -- 2 takes it (it sets no speed of its own)",
		}, nil},
		{"many links without a speed: the first is named", `machine "m" {
	processor p { name = "P" }
	topology t {
		speed = ‸0B/s
		for i in 1 .. 50 {
			link 0 -- i { latency = 1us }
		}
	}
}`, []string{
			"speed = 0B/s: a link's speed must be positive, at least 1 bit/s (0.125B/s); link 0 -- 1 takes it (it sets no speed of its own)",
		}, nil},
		{"Parasol I links, one without a linkspeed", `machinename = "L"
processor = 1
name = "P"
topology = 100
speed = ‸0
linknumber = 0
linkspeed = 1000
procs_connected = 2
processortype0 = 1
processornumber = 0
processortype1 = 1
processornumber = 1
linknumber = 1
procs_connected = 2
processortype0 = 1
processornumber = 1
processortype1 = 1
processornumber = 2`, []string{
			"speed = 0B/s: a link's speed must be positive, at least 1 bit/s (0.125B/s); link 1 takes it (it sets no linkspeed of its own)",
		}, nil},
		{"a bus without a latency", `machine "m" {
	processor p { name = "P" }
	topology t {
		latency = ‸40000000s
		speed = 1GB/s
		for i in 1 .. 3 {
			link 0 -- i { latency = 1us }
		}
		bus 1, 2, 3 { speed = 10MB/s }
	}
}`, []string{
			"latency = 40000000s is too large: a time is at most a year (31557600s); bus 1, 2, 3 takes it (it sets no latency of its own)",
		}, nil},
		{"a link template that sets only the speed", `machine "m" {
	processor p { name = "P" }
	topology t = ring(4) {
		latency = ‸40000000s
		link(d) { speed = 1GB/s }
	}
}`, []string{
			"latency = 40000000s is too large: a time is at most a year (31557600s); every link of topology t takes it (its link template sets no latency)",
		}, nil},
		{"nic links without a speed", `machine "m" {
	processor p { name = "P" }
	topology t = ring(4) {
		speed = ‸0B/s
		nic = yes
		link(d) { speed = 1GB/s }
	}
}`, []string{
			"speed = 0B/s: a link's speed must be positive, at least 1 bit/s (0.125B/s); every nic link takes it (the topology sets no nic_speed)",
		}, nil},
		{"an expression that reads the default", `machine "m" {
	processor p { name = "P" }
	topology t {
		speed = ‸0B/s
		link 0 -- 1 { speed = 1GB/s }
	}
	modelsection MPI {
		send(n: B, src, dst) = n / ‸topology(t).speed
	}
}`, []string{
			"the topology's speed is given here",
			"topology(t).speed reads the topology's speed = 0B/s: a link's speed must be positive, at least 1 bit/s (0.125B/s)",
		}, nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			src, at := markedSource(tc.src)
			diags := tc.errors
			if diags == nil {
				diags = tc.warnings
			}
			if len(at) != len(diags) {
				t.Fatalf("%d marks for %d diagnostics", len(at), len(diags))
			}
			var want []string
			for i, msg := range diags {
				want = append(want, fmt.Sprintf("m.machine:%s: %s", at[i], msg))
			}
			m, err := LoadSource("m.machine", src)
			var got []string
			switch {
			case err != nil && tc.errors == nil:
				t.Fatalf("does not load: %v", err)
			case err == nil && tc.errors != nil:
				t.Fatalf("loads; want %d errors", len(tc.errors))
			case err != nil:
				got = diagnosticLines(err, "m.machine")
			default:
				if ws := m.Warnings(); ws != nil {
					got = diagnosticLines(ws, "m.machine")
				}
			}
			// A note follows its error, wherever each points.
			slices.Sort(got)
			slices.Sort(want)
			if strings.Join(got, "\n") != strings.Join(want, "\n") {
				t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
			}
		})
	}
}
