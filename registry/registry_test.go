package registry_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/parasol-lang/parasol/eval"
	"github.com/parasol-lang/parasol/registry"
	"github.com/parasol-lang/parasol/runtime"
	"github.com/parasol-lang/parasol/stdlib/topo"
)

// The evaluator validates machine files against the registry and the
// simulator implements its names; eval may not import runtime, so these
// tests hold the two to the same sets.

func TestRuntimeImplementsEveryRoutingOfTheRegistry(t *testing.T) {
	for _, name := range registry.Routing.Names() {
		// Each on a topology it applies to: xy needs a 2-D grid.
		gen, src, dst := "hypercube(3)", 0, 5
		field := fmt.Sprintf("routing = %s", name)
		switch name {
		case "hot-potato": // moves whole packets
			field += "\n\t\tswitching = saf"
		case "xy":
			gen = "mesh(4, 4)"
		case "nca", "nca-adaptive", "nca-random": // switches 0..3, processors 4..7
			gen, src, dst = "fattree(2, 2)", 4, 7
		case "min", "ugal-l", "ugal-g", "par": // routers 0..5, processors 6..11
			gen, src, dst = "dragonfly(1, 2, 1, 3)", 6, 11
		case "ugal": // routers 0..3, processors 4..7
			gen, src, dst = "flatfly(2, 2)", 4, 7
		}
		spec := load(t, field, gen)
		if _, err := runtime.Route(spec, src, dst, runtime.RouteOptions{}); err != nil {
			t.Errorf("routing %s on %s: %v", name, gen, err)
		}
	}
}

func TestRuntimeParsesEverySwitchingOfTheRegistry(t *testing.T) {
	seen := map[string]bool{}
	for _, en := range registry.Switching.Entries {
		for _, word := range append([]string{en.Name}, en.Aliases...) {
			sw, err := runtime.ParseSwitching(word)
			if err != nil || sw.String() != en.Name {
				t.Errorf("ParseSwitching(%q) = %v, %v; want %s", word, sw, err, en.Name)
			}
		}
		seen[en.Name] = true
	}
	for sw := runtime.Wormhole; sw <= runtime.Circuit; sw++ {
		if !seen[sw.String()] {
			t.Errorf("runtime switching %s is not in the registry", sw)
		}
	}
	if _, err := runtime.ParseSwitching("wormhol"); err == nil {
		t.Error("runtime accepts a switching the registry does not know")
	}
}

func TestRuntimeTakesEveryArbitrationOfTheRegistry(t *testing.T) {
	byName := map[string]runtime.Arbitration{}
	for _, en := range registry.Arbitration.Entries {
		for _, word := range append([]string{en.Name}, en.Aliases...) {
			spec := load(t, "arbitration = "+word, "ring(4)")
			if prev, ok := byName[en.Name]; ok && prev != spec.Arbitration {
				t.Errorf("arbitration %s and its alias %s differ in the runtime", en.Name, word)
			}
			byName[en.Name] = spec.Arbitration
		}
	}
	if byName["fifo"] == byName["roundrobin"] {
		t.Error("fifo and roundrobin are the same arbitration in the runtime")
	}
}

func TestRuntimeTakesEveryBufferingOfTheRegistry(t *testing.T) {
	want := map[string]bool{"input": false, "output": true}
	for _, en := range registry.Buffering.Entries {
		out, ok := want[en.Name]
		if !ok {
			t.Errorf("buffering %s: the runtime does not know it", en.Name)
			continue
		}
		if spec := load(t, "buffering = "+en.Name, "ring(4)"); spec.OutputBuffered != out {
			t.Errorf("buffering = %s: OutputBuffered %v, want %v", en.Name, spec.OutputBuffered, out)
		}
	}
}

func TestRuntimeTakesEveryAllocatorOfTheRegistry(t *testing.T) {
	want := map[string]runtime.Allocator{"packet": runtime.AnyLane, "islip": runtime.ISLIP}
	for _, en := range registry.Allocator.Entries {
		a, ok := want[en.Name]
		if !ok {
			t.Errorf("allocator %s: the runtime does not know it", en.Name)
			continue
		}
		if spec := load(t, "allocator = "+en.Name, "ring(4)"); spec.Allocator != a {
			t.Errorf("allocator = %s: Allocator %v, want %v", en.Name, spec.Allocator, a)
		}
	}
}

// TestGeneratorsOfTheRegistryAreTopos: topo reads names, signatures and
// argument counts from the registry, so it accepts no generator the
// registry lacks; here it builds every one the registry has.
func TestGeneratorsOfTheRegistryAreTopos(t *testing.T) {
	if _, err := topo.Plan("butterfly", []int{4}); err == nil {
		t.Error("topo plans a generator the registry does not have")
	}
	ones := func(n int) []int {
		out := make([]int, n)
		for i := range out {
			out[i] = 4
		}
		return out
	}
	for _, g := range registry.Generators {
		args := slices.Repeat([]int{6}, g.MinArgs) // 6 suits every generator
		if g.Name == "xgft" {                      // but xgft's first argument counts the rest
			args = []int{2, 6, 6, 1, 6}
		}
		if _, err := topo.Generate(g.Name, args, topo.GenerateOptions{}); err != nil {
			t.Errorf("%s%v: %v", g.Name, args, err)
		}
		for n := 0; n <= g.MaxArgs+1; n++ {
			_, err := topo.Plan(g.Name, ones(n))
			refused := err != nil && strings.Contains(err.Error(), " takes ")
			if want := n < g.MinArgs || n > g.MaxArgs; refused != want {
				t.Errorf("%s with %d arguments: %v; refused for its count: want %v", g.Name, n, err, want)
			}
		}
	}
}

// load compiles a one-topology machine with a topology field set.
func load(t *testing.T, field, gen string) *runtime.Spec {
	t.Helper()
	src := fmt.Sprintf("machine \"m\" {\n\tprocessor p { send_overhead = 1us }\n\ttopology t = %s {\n\t\tspeed = 1MB/s\n\t\tvcs = 2\n\t\t%s\n\t}\n}\n", gen, field)
	m, err := eval.LoadSource("m.machine", src)
	if err != nil {
		t.Fatal(err)
	}
	spec, err := m.Spec("")
	if err != nil {
		t.Fatalf("%s: %v", field, err)
	}
	return spec
}
