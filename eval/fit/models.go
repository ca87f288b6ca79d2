package fit

import (
	_ "embed"
	"fmt"
	"strings"
	"sync"

	"github.com/parasol-lang/parasol/eval"
	"github.com/parasol-lang/parasol/lang"
)

// Model is a named model of the seeds: a function of the analytic
// library, the parameters a fit finds, and the usual names of the columns
// that feed the others.
type Model struct {
	Name    string
	Func    string   // the function in models.machine (which imports std:analytic)
	Free    []string // the fitted parameters
	Summary string
	Source  string // where the model comes from
	// Columns maps a function parameter to the column names that feed it,
	// the parameter's own name first; a size is also fed by a column
	// named n, the usual name of a message's bytes.
	Columns map[string][]string
}

// Models is the registry of named models, which help, completion and docs
// read.
var Models = []Model{
	{Name: "tiny", Func: "tiny_latency", Free: []string{"a", "b", "c", "d"},
		Summary: "T = a + b h + c l + d l h: l bytes over h links",
		Source:  "seed 003 §3.5, Tables 3.4–3.5",
		Columns: map[string][]string{"l": {"l", "size", "bytes", "n"}, "h": {"h", "hops", "links"}}},
	{Name: "k123", Func: "simple_single", Free: []string{"k1", "k2", "k3"},
		Summary: "T = k1 + k2 n + k3 s n: n bytes through s switches",
		Source:  "seed 000 Eq. 7",
		Columns: map[string][]string{"n": {"n", "size", "bytes"}, "s": {"s", "switches"}}},
	{Name: "k45", Func: "simple_multi", Free: []string{"k4", "k5"},
		Summary: "T = k4 + k5 n: n bytes, multi-channel or multi-link",
		Source:  "seed 000 §6",
		Columns: map[string][]string{"n": {"n", "size", "bytes"}}},
	{Name: "linear", Func: "simplified", Free: []string{"ts", "tw"},
		Summary: "T = t_s + t_w m: m bytes",
		Source:  "seed 001 §2.5.2",
		Columns: map[string][]string{"m": {"m", "size", "bytes", "n"}}},
	{Name: "cut-through", Func: "cut_through", Free: []string{"ts", "th", "tw"},
		Summary: "T = t_s + l t_h + t_w m: m bytes over l links",
		Source:  "seed 001 Eq. 2.4",
		Columns: map[string][]string{"m": {"m", "size", "bytes", "n"}, "l": {"l", "hops", "links"}}},
	{Name: "loggp", Func: "loggp", Free: []string{"L", "o", "g", "G"},
		Summary: "LogGP: k messages of m bytes, L + 2o + m G + (k-1) max(g, o + m G); ping-pong rows have k = 1",
		Source:  "Alexandrov et al., LogGP (1995)",
		Columns: map[string][]string{"m": {"m", "size", "bytes", "n"}, "k": {"k", "count", "messages"}}},
}

// Lookup returns the named model.
func Lookup(name string) (*Model, error) {
	var names []string
	for i := range Models {
		if Models[i].Name == name {
			return &Models[i], nil
		}
		names = append(names, Models[i].Name)
	}
	return nil, fmt.Errorf("no model %q; the models are %s%s", lang.Excerpt(name), strings.Join(names, ", "), lang.DidYouMean(name, names))
}

//go:embed models.machine
var modelsSource string

var (
	modelsOnce    sync.Once
	modelsMachine *eval.Machine
	modelsErr     error
)

// machine is the machine the named models' functions live in.
func machine() (*eval.Machine, error) {
	modelsOnce.Do(func() {
		modelsMachine, modelsErr = eval.LoadSource("fit:models.machine", modelsSource)
	})
	return modelsMachine, modelsErr
}

// Problem returns the fit problem of the model.
func (md *Model) Problem() (*Problem, error) {
	m, err := machine()
	if err != nil {
		return nil, err
	}
	f, err := m.Func(md.Func)
	if err != nil {
		return nil, err
	}
	p := &Problem{Name: md.Name, Machine: m, Func: f, Columns: md.Columns, timed: true}
	for _, n := range md.Free {
		p.Free = append(p.Free, Free{Name: n})
	}
	return p, nil
}

// ParseFree reads a --free list: parameter names, each optionally with a
// starting value whose unit fixes its dimension ("a,b,c=1ns/B,d"), the
// value an expression of machine m.
func ParseFree(m *eval.Machine, list string) ([]Free, error) {
	var out []Free
	seen := map[string]bool{}
	for _, item := range strings.Split(list, ",") {
		name, value, hasValue := strings.Cut(item, "=")
		name = strings.TrimSpace(name)
		if name == "" {
			return nil, fmt.Errorf("--free %q: an empty name; want names separated by commas, a,b,c, each optionally with a starting value, c=1ns/B", lang.Excerpt(list))
		}
		if seen[name] {
			return nil, fmt.Errorf("--free %s: %s is named twice", lang.Excerpt(list), name)
		}
		seen[name] = true
		f := Free{Name: name}
		if hasValue {
			v, err := m.Eval(value)
			if err != nil {
				return nil, fmt.Errorf("--free %s: %w", name, err)
			}
			if v.Kind != lang.Number {
				return nil, fmt.Errorf("--free %s: the starting value is a %s, want a number", name, v.TypeName())
			}
			f.Init = &v
		}
		out = append(out, f)
	}
	return out, nil
}

// ParseFix reads a --fix list: NAME=VALUE items separated by commas
// ("g=0s,o=1us"), each value an expression of machine m with its unit.
func ParseFix(m *eval.Machine, list string) ([]Fixed, error) {
	var out []Fixed
	seen := map[string]bool{}
	for _, item := range strings.Split(list, ",") {
		name, value, hasValue := strings.Cut(item, "=")
		name = strings.TrimSpace(name)
		if name == "" || !hasValue || strings.TrimSpace(value) == "" {
			return nil, fmt.Errorf("--fix %q: want NAME=VALUE items separated by commas, g=0s,o=1us", lang.Excerpt(list))
		}
		if seen[name] {
			return nil, fmt.Errorf("--fix %s: %s is named twice", lang.Excerpt(list), name)
		}
		seen[name] = true
		v, err := m.Eval(value)
		if err != nil {
			return nil, fmt.Errorf("--fix %s: %w", name, err)
		}
		if v.Kind != lang.Number {
			return nil, fmt.Errorf("--fix %s: the value is a %s, want a number", name, v.TypeName())
		}
		out = append(out, Fixed{Name: name, Value: v})
	}
	return out, nil
}
