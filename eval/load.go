package eval

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/parasol-lang/parasol/lang"
	"github.com/parasol-lang/parasol/parser"
	"github.com/parasol-lang/parasol/stdlib"
)

// Option configures loading.
type Option func(*options)

type options struct {
	machine  string
	sets     []Set
	readFile func(path string) ([]byte, error)
	extra    [][]lang.Stmt // definitions added by Extend (the REPL), one layer each
	// maxMemory bounds what loading may allocate (topologies, loops); 0
	// means limits.Default().
	maxMemory int64
}

// WithMaxMemory bounds the memory that loading a machine may allocate, in
// bytes (topology graphs, expanded loops, file contents); a machine that
// needs more is an error naming the figure and the limit. The default is
// limits.Default(): $PARASOL_MAX_MEMORY or a quarter of physical memory.
func WithMaxMemory(bytes int64) Option { return func(o *options) { o.maxMemory = bytes } }

// WithMachine selects a machine of a file with several; the default is the
// first.
func WithMachine(name string) Option { return func(o *options) { o.machine = name } }

// WithSet overrides a field or param, making a virtual machine: the path is a
// reference such as "delta" or "topology(100).link(0).linkspeed", the value
// an expression such as "5MB/s".
func WithSet(path, value string) Option {
	return func(o *options) { o.sets = append(o.sets, Set{Path: path, Value: value}) }
}

// WithReadFile replaces os.ReadFile for the machine file and its imports.
func WithReadFile(read func(string) ([]byte, error)) Option {
	return func(o *options) { o.readFile = read }
}

// Set is one override: Path = Value. Source names it in diagnostics
// ("--set" when empty).
type Set struct{ Path, Value, Source string }

// ParseSet splits "PATH=VALUE" as given to --set.
func ParseSet(s string) (Set, error) {
	i := strings.IndexByte(s, '=')
	for i > 0 && i+1 < len(s) && s[i+1] == '=' { // PATH==… is not an assignment
		j := strings.IndexByte(s[i+2:], '=')
		if j < 0 {
			i = -1
			break
		}
		i += 2 + j
	}
	if i <= 0 {
		return Set{}, fmt.Errorf("--set %q: expected PATH=VALUE, e.g. delta=2us", s)
	}
	return Set{Path: strings.TrimSpace(s[:i]), Value: strings.TrimSpace(s[i+1:])}, nil
}

// machineDecl is a machine as declared, with the file it came from.
type machineDecl struct {
	ast  *lang.Machine
	file *lang.File
}

// loader reads a file and its imports and finds the machines in them.
type loader struct {
	opts     options
	files    map[string]*lang.File
	machines map[string]*machineDecl
	shared   map[*lang.File][]lang.Stmt
	// importing guards against import cycles: files being read.
	importing map[string]bool
	errs      lang.Diagnostics
}

// Load reads a machine: a file path or "std:NAME" for a standard machine.
func Load(spec string, opts ...Option) (*Machine, error) {
	l := newLoader(opts)
	f := l.readSpec(spec, lang.Pos{})
	return l.finish(f)
}

// LoadSource reads a machine from text; name is used in diagnostics and to
// resolve relative imports.
func LoadSource(name, text string, opts ...Option) (*Machine, error) {
	l := newLoader(opts)
	f := l.parse(name, text)
	return l.finish(f)
}

// MachineNames lists the machines a file or "std:NAME" defines, in order.
func MachineNames(spec string, opts ...Option) ([]string, error) {
	l := newLoader(opts)
	f := l.readSpec(spec, lang.Pos{})
	if err := l.errs.Err(); err != nil {
		return nil, err
	}
	return l.namesIn(f), nil
}

func newLoader(opts []Option) *loader {
	l := &loader{files: map[string]*lang.File{}, machines: map[string]*machineDecl{},
		shared: map[*lang.File][]lang.Stmt{}, importing: map[string]bool{}}
	l.opts.readFile = os.ReadFile
	for _, o := range opts {
		o(&l.opts)
	}
	return l
}

func (l *loader) finish(f *lang.File) (*Machine, error) {
	if f == nil {
		return nil, l.errs.Err()
	}
	names := l.namesIn(f)
	if len(l.errs) > 0 {
		return nil, l.errs.Err()
	}
	name := l.opts.machine
	if name == "" {
		if len(names) == 0 {
			return nil, lang.Errorf(f.Src.PosAt(0), "no machine in %s", f.Src.Name)
		}
		name = names[0]
	} else if l.machines[name] == nil {
		var all []string
		for n := range l.machines {
			all = append(all, n)
		}
		return nil, fmt.Errorf("%s: no machine named %q%s; it has %s", f.Src.Name, name, lang.DidYouMean(name, all), strings.Join(quoteAll(names), ", "))
	}
	return build(l, name)
}

func quoteAll(ss []string) []string {
	out := make([]string, len(ss))
	for i, s := range ss {
		out[i] = fmt.Sprintf("%q", s)
	}
	return out
}

func (l *loader) namesIn(f *lang.File) []string {
	var names []string
	for _, s := range f.Stmts {
		if m, ok := s.(*lang.Machine); ok {
			names = append(names, m.Name)
		}
	}
	return names
}

// readSpec reads a path or a std: name.
func (l *loader) readSpec(spec string, at lang.Pos) *lang.File {
	if name, ok := strings.CutPrefix(spec, "std:"); ok {
		text, found := stdlib.Machine(name)
		if !found {
			l.errs = append(l.errs, lang.Errorf(at, "no standard machine %q%s; there are: %s", name,
				lang.DidYouMean(name, stdlib.MachineNames()), strings.Join(stdlib.MachineNames(), ", ")))
			return nil
		}
		return l.parse(spec, text)
	}
	if f := l.files[spec]; f != nil {
		return f
	}
	data, err := l.opts.readFile(spec)
	if err != nil {
		if errors.Is(err, os.ErrNotExist) {
			err = fmt.Errorf("%s: no such file", spec)
		}
		if at.IsValid() {
			l.errs = append(l.errs, lang.Errorf(at, "%v", err))
		} else {
			l.errs.Append(err)
		}
		return nil
	}
	return l.parse(spec, string(data))
}

func (l *loader) parse(name, text string) *lang.File {
	l.importing[name] = true
	f, err := parser.ParseFile(name, text)
	l.errs.Append(err)
	if f == nil {
		return nil
	}
	l.files[name] = f
	for _, s := range f.Stmts {
		switch s := s.(type) {
		case *lang.Machine:
			if prev := l.machines[s.Name]; prev != nil {
				d := lang.Errorf(s.Pos, "machine %q is defined twice", s.Name)
				d.Notes = append(d.Notes, lang.Note{Pos: prev.ast.Pos, Msg: "first defined here"})
				l.errs = append(l.errs, d)
				continue
			}
			l.machines[s.Name] = &machineDecl{ast: s, file: f}
		case *lang.Import:
			path := s.Path
			if !strings.HasPrefix(path, "std:") && !filepath.IsAbs(path) {
				path = filepath.Join(filepath.Dir(name), path)
			}
			switch g := l.files[path]; {
			case g != nil:
				l.shared[f] = append(l.shared[f], l.shared[g]...)
			case l.importing[path]:
				l.errs = append(l.errs, lang.Errorf(s.Pos, "import cycle: %s imports itself through %s", path, name))
			default:
				l.importing[path] = true
				if g := l.readSpec(path, s.Pos); g != nil {
					l.shared[f] = append(l.shared[f], l.shared[g]...)
				}
			}
		default:
			l.shared[f] = append(l.shared[f], s)
		}
	}
	return f
}
