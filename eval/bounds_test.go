package eval

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/parasol-lang/parasol/lang"
	"github.com/parasol-lang/parasol/runtime"
)

func TestMachineParametersBeyondTheirBoundsArePositionedErrors(t *testing.T) {
	tests := []struct {
		name   string
		src    string   // ‸ marks each error's position
		sets   []string // --set overrides, path=value
		errors []string // each diagnostic's message, in order of position
	}{
		{"a topology's latency of 1e308 s", `machine "m" {
	processor p { name = "P" }
	topology t = ring(4) {
		latency = ‸1e308s
		speed = 1MB/s
	}
}`, nil, []string{"latency = 1e+308s is too large: a time is at most a year (31557600s); every link of topology t takes it (it has no link template)"}},
		{"a topology's speed of 1e-320 B/s", `machine "m" {
	processor p { name = "P" }
	topology t = ring(4) {
		latency = 1us
		speed = ‸1e-320B/s
	}
}`, nil, []string{"speed = 9.999888672e-321B/s is too small: a link's speed is at least 1 bit/s (0.125B/s); every link of topology t takes it (it has no link template)"}},
		{"a topology's speed of 0", `machine "m" {
	processor p { name = "P" }
	topology t = ring(4) {
		speed = ‸0B/s
	}
}`, nil, []string{"speed = 0B/s: a link's speed must be positive, at least 1 bit/s (0.125B/s); every link of topology t takes it (it has no link template)"}},
		{"every bad field, not only the first", `machine "m" {
	processor p {
		name = "P"
		send_overhead = ‸2e7 * 1e10s
		route_per_byte = ‸1s / 1e-9B
		clock = ‸1e-3Hz
		maxrecvdelay = ‸1e9%
		float_timings { mul = ‸1e300s }
		processorcache { size = ‸1e300B }
	}
	topology t = ring(4) {
		speed = ‸1e30B/s
		speedup = ‸1e-9
		nic_latency = ‸400 * 1e6 * 86400s
	}
}`, nil, []string{
			"send_overhead = 2e+17s is too large: a time is at most a year (31557600s)",
			"route_per_byte = 1000000000s/B is too large: a time per byte is at most 8s/B (a 1 bit/s link's)",
			"clock = 0.001Hz is too small: a frequency other than 0 is at least 1Hz",
			"maxrecvdelay = 1000000000% is too large: a percentage is at most 1000000%",
			"mul = 1e+300s is too large: a time is at most a year (31557600s)",
			"size = 1e+300B is too large: a size is at most 2^53 bytes (9007199254740992B)",
			"speed = 1e+30B/s is too large: a link's speed is at most 1e24B/s; every link of topology t takes it (it has no link template)",
			"speedup = 1e-09 is too small: a speedup other than 0 is at least 0.001",
			"nic_latency = 3.456e+13s is too large: a time is at most a year (31557600s)",
		}},
		{"a link template's latency", `machine "m" {
	processor p { name = "P" }
	param far = 1e308s
	topology t = hypercube(2) {
		link(d) { latency = ‸if d < 1 then 1us else far }
		speed = 1MB/s
	}
}`, nil, []string{"link 0 -- 2 (dimension 1): latency = 1e+308s is too large: a time is at most a year (31557600s)"}},
		{"a link template's speed", `machine "m" {
	processor p { name = "P" }
	topology t = ring(4) {
		link(d) { speed = ‸1B / 1e300s }
	}
}`, nil, []string{"link 0 -- 1 (dimension 0): speed = 1e-300B/s is too small: a link's speed is at least 1 bit/s (0.125B/s)"}},
		{"explicit links", `machine "m" {
	processor p { name = "P" }
	topology t {
		speed = 1MB/s
		link 0 -- 1 { latency = ‸1e20s }
		link 1 -- 2 { speed = ‸1e-10B/s }
		link 2 -- 0 { latency = ‸-1ns }
	}
}`, nil, []string{
			"latency = 1e+20s is too large: a time is at most a year (31557600s)",
			"speed = 1e-10B/s is too small: a link's speed is at least 1 bit/s (0.125B/s)",
			"latency must not be negative, got -1ns",
		}},
		{"a param set too large for the fields that use it", `machine "m" {
	processor p { name = "P" }
	param h = 1us
	topology t = ring(4) {
		latency = ‸h
		speed = 1MB/s
	}
}`, []string{"h=1e300s"}, []string{"latency = 1e+300s is too large: a time is at most a year (31557600s); every link of topology t takes it (it has no link template)"}},
		{"clock fields", `machine "m" {
	processor p {
		name = "P"
		clock_offset = uniform(0s, ‸1e300s)
		clock_drift = ‸5
	}
	topology t = ring(4) { speed = 1MB/s }
}`, nil, []string{
			"clock_offset = 1e+300s is too large: a clock's offset is at most a year (31557600s) either way",
			"clock_drift = 5 is too large: a clock's rate error is at most 1 (a clock that runs twice as fast)",
		}},
		{"Parasol I fields in their implied units", `machinename = "L"
processor = 1
name = "P"
maxrecvdelay = ‸1e300
createjob = ‸1e308
float_timings
mul = ‸1e20
topology = 100
linknumber = 0
linklatency = ‸1e308
linkspeed = ‸1e-320
procs_connected = 2
processortype0 = 1
processornumber = 0
processortype1 = 1
processornumber = 1`, nil, []string{
			"maxrecvdelay = 1e+300% is too large: a percentage is at most 1000000%",
			"createjob = 1e+299s is too large: a time is at most a year (31557600s)",
			"mul = 1e+11s is too large: a time is at most a year (31557600s)",
			"linklatency = 1e+299s is too large: a time is at most a year (31557600s)",
			"linkspeed = 9.999888672e-321B/s is too small: a link's speed is at least 1 bit/s (0.125B/s)",
		}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			src, at := markedSource(tc.src)
			if len(at) != len(tc.errors) {
				t.Fatalf("%d marks for %d errors", len(at), len(tc.errors))
			}
			var opts []Option
			for _, s := range tc.sets {
				path, value, _ := strings.Cut(s, "=")
				opts = append(opts, WithSet(path, value))
			}
			m, err := LoadSource("m.machine", src, opts...)
			if err == nil {
				tp, _ := m.Topology("")
				t.Fatalf("loaded (latencies %v, speeds %v); want %d errors", tp.latency, tp.speed, len(tc.errors))
			}
			var want []string
			for i, msg := range tc.errors {
				want = append(want, fmt.Sprintf("m.machine:%s: %s", at[i], msg))
			}
			if got := diagnosticLines(err, "m.machine"); strings.Join(got, "\n") != strings.Join(want, "\n") {
				t.Errorf("got\n%s\nwant\n%s\n--- whole error ---\n%v", strings.Join(got, "\n"), strings.Join(want, "\n"), err)
			}
		})
	}
}

// TestMachineParametersAtTheirBoundsLoad: the bounds themselves, and 0
// where a field may be 0, are accepted.
func TestMachineParametersAtTheirBoundsLoad(t *testing.T) {
	src := `machine "m" {
	processor p {
		name = "P"
		send_overhead = 31557600s
		route_per_byte = 8s/B
		clock = 0Hz
		maxspeed = 0B/s
		maxrecvdelay = 1000000%
		clock_drift = -0.5
		processorcache { size = 9007199254740992B }
	}
	topology t = ring(4) {
		latency = 0s
		speed = 1bit/s
		speedup = 0
	}
	topology u = ring(4) {
		speed = 1e24B/s
		speedup = 1000
	}
}`
	if _, err := LoadSource("m.machine", src); err != nil {
		t.Fatal(err)
	}
}

// TestLinkSpeedBeyondItsBoundIsReportedOnce: a link whose own speed is out
// of bounds is reported at that field, not again at the link as one
// without a speed.
func TestLinkSpeedBeyondItsBoundIsReportedOnce(t *testing.T) {
	tests := []struct{ name, src, want string }{
		{"Parasol I", `machinename = "L"
processor = 1
topology = 100
linknumber = 0
linkspeed = ‸0
procs_connected = 2
processortype0 = 1
processornumber = 0
processortype1 = 1
processornumber = 1`, "linkspeed = 0B/s: a link's speed must be positive, at least 1 bit/s (0.125B/s)"},
		{"Parasol I, its topology built for a primitive's hops", `machinename = "L"
processor = 1
topology = 100
linknumber = 0
linkspeed = ‸0
procs_connected = 2
processortype0 = 1
processornumber = 0
processortype1 = 1
processornumber = 1
modelsection = PVM
send(n: B, src, dst) = 100us + hops(src, dst) * 1us`, "linkspeed = 0B/s: a link's speed must be positive, at least 1 bit/s (0.125B/s)"},
		{"Parasol I, a speed too small", `machinename = "L"
processor = 1
topology = 100
linknumber = 0
linkspeed = ‸0.01
processortype0 = 1
processornumber = 0
processortype1 = 1
processornumber = 1
modelsection = PVM
send(n: B, src, dst) = 100us + hops(src, dst) * 1us`, "linkspeed = 0.01B/s is too small: a link's speed is at least 1 bit/s (0.125B/s)"},
		{"an explicit link", `machine "m" {
	processor p { name = "P" }
	topology t {
		link 0 -- 1 { latency = 1us; speed = ‸0B/s }
	}
	modelsection M { send(n: B, src, dst) = 100us + hops(src, dst) * 1us }
}`, "speed = 0B/s: a link's speed must be positive, at least 1 bit/s (0.125B/s)"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			src, at := markedSource(tc.src)
			_, err := CheckSource("m.machine", src)
			if err == nil {
				t.Fatal("no error")
			}
			want := fmt.Sprintf("m.machine:%s: %s", at[0], tc.want)
			if got := diagnosticLines(err, "m.machine"); strings.Join(got, "\n") != want {
				t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), want)
			}
		})
	}
}

// TestBoundsWrittenInOtherUnitsLoad: a value equal to its bound in the
// unit it is written in (nanoseconds, Parasol I's implied ones) loads,
// though its conversion to base units rounds a hair above the bound; one
// beyond it by more than rounding is still refused.
func TestBoundsWrittenInOtherUnitsLoad(t *testing.T) {
	tests := []struct{ name, src, refused string }{
		{"a year in nanoseconds", `machine "m" {
	processor p {
		name = "P"
		send_overhead = 31557600000000000ns
		route_per_byte = 8000000000ns/B
		clock_offset = uniform(-31557600000000000ns, 31557600000000000ns)
	}
	topology t = ring(4) { latency = 31557600000000000ns; speed = 1e-9GB/s * 0.125 }
}`, ""},
		{"a year in Parasol I's implied nanoseconds", `machinename = "m"
processor = 1
createjob = 31557600000000000
topology = 7
linknumber = 0
linklatency = 31557600000000000
linkspeed = 1
procs_connected = 2
processortype0 = 1
processornumber = 0
processortype1 = 1
processornumber = 1`, ""},
		{"a year and a second in nanoseconds", `machine "m" {
	processor p { name = "P"; send_overhead = 31557601000000000ns }
}`, "send_overhead = 31557601s is too large"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := LoadSource("m.machine", tc.src)
			switch {
			case tc.refused == "" && err != nil:
				t.Fatal(err)
			case tc.refused != "" && (err == nil || !strings.Contains(err.Error(), tc.refused)):
				t.Fatalf("got %v, want an error saying %q", err, tc.refused)
			}
		})
	}
}

// TestLanguageDocListsTheParameterBounds: docs/LANGUAGE.md's table of
// bounds is rendered from the bounds loading applies; -update rewrites it.
func TestLanguageDocListsTheParameterBounds(t *testing.T) {
	var b strings.Builder
	b.WriteString("| field | bound |\n|---|---|\n")
	for _, d := range boundDocs {
		fmt.Fprintf(&b, "| %s | %s |\n", d.fields, d.b.Range())
	}
	fmt.Fprintf(&b, "| `clock_offset`, `clock_jitter` | at most a year (%ss) either way |\n", lang.FormatNumber(runtime.MaxTime))
	fmt.Fprintf(&b, "| `clock_drift` | above -1, at most %s |\n", lang.FormatNumber(runtime.MaxDrift))
	checkDocSection(t, "../docs/LANGUAGE.md", "bounds", b.String())
}

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

// markedSource takes a source in which ‸ marks where each expected error
// points, and returns it without the marks and the marks' line:col.
func markedSource(marked string) (string, []string) {
	var at []string
	var b strings.Builder
	for i, line := range strings.Split(marked, "\n") {
		if i > 0 {
			b.WriteByte('\n')
		}
		for {
			k := strings.Index(line, "‸")
			if k < 0 {
				break
			}
			at = append(at, fmt.Sprintf("%d:%d", i+1, k+1))
			line = line[:k] + line[k+len("‸"):]
		}
		b.WriteString(line)
	}
	return b.String(), at
}

// diagnosticLines are the first lines of an error's diagnostics.
func diagnosticLines(err error, file string) []string {
	var out []string
	for _, l := range strings.Split(err.Error(), "\n") {
		if strings.HasPrefix(l, file+":") {
			out = append(out, l)
		}
	}
	return out
}
