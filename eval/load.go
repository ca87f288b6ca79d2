package eval

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"unsafe"

	"github.com/parasol-lang/parasol/internal/limits"
	"github.com/parasol-lang/parasol/lang"
	"github.com/parasol-lang/parasol/parser"
	"github.com/parasol-lang/parasol/stdlib"
)

// Option configures loading.
type Option func(*options)

type options struct {
	machine  string
	program  string // LoadProgram's choice (WithProgram)
	topology string // the machine's topology (WithTopology); "": the first
	// everyTopology: build every topology even when one is chosen
	// (InspectFile: check builds all, as the simulator would).
	everyTopology bool
	sets          []Set
	readFile      func(path string) ([]byte, error)
	// ownReads: readFile is ReadInput, whose bytes no one else holds.
	ownReads bool
	extra    *defLayer // definitions added by Extend (the REPL), one layer each
	// maxMemory bounds what loading may allocate (topologies, loops); 0
	// means limits.Default().
	maxMemory int64
	// progress reports long whole-graph measurements (WithProgress).
	progress func(what string, done, total int)
}

// WithProgress reports the progress of long measurements made while
// loading or evaluating (a diameter by breadth-first search): what is
// measured, the steps done and their total, now and then.
func WithProgress(f func(what string, done, total int)) Option {
	return func(o *options) { o.progress = f }
}

// WithMaxMemory bounds the memory that loading a machine may allocate, in
// bytes (topology graphs, expanded loops, file contents); a machine that
// needs more is an error naming the figure and the limit. The default is
// limits.Default(): $PARASOL_MAX_MEMORY or a quarter of physical memory.
func WithMaxMemory(bytes int64) Option { return func(o *options) { o.maxMemory = bytes } }

// WithMachine selects a machine of a file with several; the default is the
// first.
func WithMachine(name string) Option { return func(o *options) { o.machine = name } }

// WithTopology makes the topology labelled label the machine's topology,
// in place of its first: derived indexes (diameter, avgdist, nodes, …),
// hops, compcomm, the processors ranks run on, the analytic answer's
// distances and Spec("") are all the chosen topology's. Only that one is
// built (the machine's other topologies cost neither time nor memory);
// OnTopology gives the machine on another. A label the machine does not
// have is a NoTopologyError.
func WithTopology(label string) Option { return func(o *options) { o.topology = label } }

// WithSet overrides a field or param, making a virtual machine: the path is a
// reference such as "delta" or "topology(100).link(0).linkspeed", the value
// an expression such as "5MB/s".
func WithSet(path, value string) Option {
	return func(o *options) { o.sets = append(o.sets, Set{Path: path, Value: value}) }
}

// WithReadFile replaces ReadInput for the machine file and its imports.
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
	opts options
	// files are the files read so far, by identity (fileKey), so that a
	// file reached along two paths is read once.
	files    map[string]*lang.File
	machines map[string]*machineDecl
	shared   map[*lang.File][]lang.Stmt
	// reading is the chain of files whose imports are being read, outermost
	// first: a file imported while it is on the chain is an import cycle.
	reading []readingFile
	// read are the files in the order they were read, the machine's
	// first: what SourceHash hashes.
	read []*lang.File
	errs lang.Diagnostics
}

type readingFile struct{ key, name string }

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
	f := l.parse(name, fileKey(name), text, lang.Pos{})
	return l.finish(f)
}

// Check reads a file (or "std:NAME") and its imports once and builds every
// machine in it. It returns the machines' names in order and the
// diagnostics of all of them, each reported once however many machines
// share it. The machines are not kept, so checking a file takes the memory
// of its largest machine, not of all of them.
func Check(spec string, opts ...Option) ([]string, error) {
	l := newLoader(opts)
	return l.checkAll(l.readSpec(spec, lang.Pos{}))
}

// CheckSource is Check for text; name is used in diagnostics and to
// resolve relative imports.
func CheckSource(name, text string, opts ...Option) ([]string, error) {
	l := newLoader(opts)
	return l.checkAll(l.parse(name, fileKey(name), text, lang.Pos{}))
}

func (l *loader) checkAll(f *lang.File) ([]string, error) {
	if f == nil || len(l.errs) > 0 {
		return nil, l.errs.Err()
	}
	names := l.namesIn(f)
	var errs lang.Diagnostics
	for _, n := range names {
		m, err := build(l, n)
		errs.Append(diagnosticOf(err))
		if err == nil {
			errs.Append(m.checkPrograms(l.programsOf(f)))
		}
	}
	errs = append(errs, l.checkProgramsAlone(f, names)...)
	return names, errs.Err()
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

// Sources are the texts the machine was loaded from: its file and every
// file that file imports, in the order they were read, each named as it
// was read (a path, or std:NAME for a standard machine). A cache of
// machines (parasol serve's) compares them with the files' texts now to
// know whether a machine it holds is still the files' machine.
func (m *Machine) Sources() []*lang.Source {
	srcs := make([]*lang.Source, len(m.loader.read))
	for i, f := range m.loader.read {
		srcs[i] = f.Src
	}
	return srcs
}

// SourceHash identifies the text the machine was loaded from: a short
// hash (12 hex digits of SHA-256) of its file and every file that file
// imports, in the order they were read. Two loadings share it when their
// files' texts are the same, wherever the files are; a file changed in any
// byte (a comment too) changes it. A standard machine's text is the one
// this build embeds.
func (m *Machine) SourceHash() string {
	h := sha256.New()
	for _, f := range m.loader.read {
		// Each text's length first, so that no two lists of texts hash
		// alike by joining differently.
		fmt.Fprintf(h, "%d:", len(f.Src.Text))
		io.WriteString(h, f.Src.Text)
	}
	return hex.EncodeToString(h.Sum(nil)[:6])
}

// MachineDoc is one machine a file defines and what its file says of it.
type MachineDoc struct {
	Name string
	// Doc is the comment written directly above the machine's
	// declaration (machine "NAME" or, in Parasol I, machinename =
	// "NAME"), its lines in order without their "#" or "//" markers; ""
	// when there is none.
	Doc string
}

// MachineDocs lists the machines a file or "std:NAME" defines, in order,
// each with the comment directly above its declaration.
func MachineDocs(spec string, opts ...Option) ([]MachineDoc, error) {
	l := newLoader(opts)
	f := l.readSpec(spec, lang.Pos{})
	if err := l.errs.Err(); err != nil {
		return nil, err
	}
	var machines []*lang.Machine
	for _, s := range f.Stmts {
		if m, ok := s.(*lang.Machine); ok {
			machines = append(machines, m)
		}
	}
	docs := make([]MachineDoc, len(machines))
	for i, m := range machines {
		// A comment that starts the file is the file's; it is its
		// machine's when the file holds one machine.
		docs[i] = MachineDoc{Name: m.Name, Doc: commentAbove(f.Src, m.Pos.Line, len(machines) == 1)}
	}
	return docs, nil
}

// commentAbove is the block of comment lines that ends on the line before
// line n of src, without their markers; "" for a block that starts the
// file unless fileComment.
func commentAbove(src *lang.Source, n int, fileComment bool) string {
	var lines []string
	i := n - 1
	for ; i >= 1; i-- {
		line := strings.TrimSpace(src.Line(i))
		c, ok := strings.CutPrefix(line, "#")
		if !ok {
			c, ok = strings.CutPrefix(line, "//")
		}
		if !ok {
			break
		}
		lines = append(lines, strings.TrimSpace(c))
	}
	if i == 0 && !fileComment {
		return ""
	}
	slices.Reverse(lines)
	return strings.Join(lines, "\n")
}

func newLoader(opts []Option) *loader {
	l := &loader{files: map[string]*lang.File{}, machines: map[string]*machineDecl{},
		shared: map[*lang.File][]lang.Stmt{}}
	for _, o := range opts {
		o(&l.opts)
	}
	if l.opts.readFile == nil {
		l.opts.readFile = func(path string) ([]byte, error) { return ReadInput(path, l.opts.maxMemory) }
		l.opts.ownReads = true
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

// readSpec reads a path or a std: name; at is the import statement that
// names it, if any.
func (l *loader) readSpec(spec string, at lang.Pos) *lang.File {
	key := fileKey(spec)
	if f := l.files[key]; f != nil {
		return f
	}
	if name, ok := strings.CutPrefix(spec, "std:"); ok {
		text, found := stdlib.Machine(name)
		if !found {
			l.errs = append(l.errs, lang.Errorf(at, "no standard machine %q%s; there are: %s", name,
				lang.DidYouMean(name, stdlib.MachineNames()), strings.Join(stdlib.MachineNames(), ", ")))
			return nil
		}
		return l.parse(spec, key, text, at)
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
	return l.parse(DisplayName(spec), key, l.text(data), at)
}

// text is a file's bytes as the string the parser reads. The bytes
// ReadInput returns are the loader's alone and never written, so they are
// taken as they are: a copy would hold a large file twice while it loads.
// What another reader (WithReadFile) returns may be its caller's, and is
// copied.
func (l *loader) text(data []byte) string {
	if l.opts.ownReads {
		return unsafe.String(unsafe.SliceData(data), len(data))
	}
	return string(data)
}

// fileKey is a file's identity: the same file reached through a relative
// path, an absolute one or a symbolic link has one key.
func fileKey(path string) string {
	if strings.HasPrefix(path, "std:") || path == Stdin {
		return path
	}
	abs, err := filepath.Abs(path)
	if err != nil {
		return filepath.Clean(path)
	}
	if real, err := filepath.EvalSymlinks(abs); err == nil {
		return real
	}
	return abs // not on disk: text given to LoadSource, or WithReadFile's files
}

// parse parses a file read from name and reads its imports; at is the
// import statement that named it, if any.
func (l *loader) parse(name, key, text string, at lang.Pos) *lang.File {
	f, err := parser.ParseFile(name, text)
	if err != nil && at.IsValid() {
		// An imported file that does not parse may not be a machine file
		// at all (import "/etc/passwd"): one error at the import, quoting
		// a few of its lines, not one per line.
		l.errs = append(l.errs, importParseError(at, name, err))
		return nil
	}
	l.errs.Append(err)
	if f == nil {
		return nil
	}
	l.files[key] = f
	l.read = append(l.read, f)
	l.reading = append(l.reading, readingFile{key, name})
	defer func() { l.reading = l.reading[:len(l.reading)-1] }()
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
			if path == Stdin {
				path = "./" + Stdin // an import names a file, never standard input
			}
			if l.importCycle(path, s.Pos) {
				continue
			}
			if g := l.readSpec(path, s.Pos); g != nil {
				l.shared[f] = appendNew(l.shared[f], l.shared[g])
			}
		default:
			l.shared[f] = append(l.shared[f], s)
		}
	}
	return f
}

// appendNew appends the statements of add that stmts does not hold: a file
// imported along two paths (a imports b and c, which both import d) gives
// its definitions once.
func appendNew(stmts, add []lang.Stmt) []lang.Stmt {
	have := make(map[lang.Stmt]bool, len(stmts))
	for _, s := range stmts {
		have[s] = true
	}
	for _, s := range add {
		if !have[s] {
			stmts = append(stmts, s)
		}
	}
	return stmts
}

// importCycle reports an import of a file whose imports are being read.
func (l *loader) importCycle(path string, at lang.Pos) bool {
	key := fileKey(path)
	for i, r := range l.reading {
		if r.key != key {
			continue
		}
		chain := make([]string, 0, len(l.reading)-i+1)
		for _, r := range l.reading[i:] {
			chain = append(chain, r.name)
		}
		chain = append(chain, path)
		l.errs = append(l.errs, lang.Errorf(at, "import cycle: %s", strings.Join(chain, " imports ")))
		return true
	}
	return false
}

// importNotes is how many of an unparsable import's errors are quoted.
const importNotes = 3

func importParseError(at lang.Pos, name string, err error) *lang.Diagnostic {
	var ds lang.Diagnostics
	ds.Append(err)
	ds, _ = ds.Err().(lang.Diagnostics)
	if len(ds) == 0 {
		return lang.Errorf(at, "%s is not a machine file: %v", name, err)
	}
	first := ds[0]
	where := ""
	if first.Pos.IsValid() {
		where = fmt.Sprintf("%d:%d: ", first.Pos.Line, first.Pos.Col)
	}
	d := lang.Errorf(at, "%s is not a machine file: %s%s", name, where, first.Msg)
	switch n := len(ds) - 1; {
	case n == 1:
		d.Msg += " (and 1 more error)"
	case n > 1:
		d.Msg += fmt.Sprintf(" (and %d more errors)", n)
	}
	for _, e := range ds[:min(len(ds), importNotes)] {
		if e.Pos.IsValid() {
			d.Notes = append(d.Notes, lang.Note{Pos: e.Pos, Msg: e.Msg})
		}
	}
	return d
}

// inputMemoryFactor is how many times its size a file takes once parsed
// and built (the parser alone keeps about 18 times the text), to bound
// input files by the memory limit as well as by limits.MaxFileSize.
const inputMemoryFactor = 32

// maxFileSize is limits.MaxFileSize; tests lower it.
var maxFileSize int64 = limits.MaxFileSize

// ReadInput reads a user's input file: a machine file, an import, a file to
// format or convert. Only regular files are read (a device such as
// /dev/zero would never end, a FIFO would block), and only up to
// limits.MaxFileSize and what the memory limit (maxMemory bytes, or
// limits.Default() when ≤ 0) allows for its parsed form; the error names
// the figure and the limit. The path Stdin ("-") reads standard input.
func ReadInput(path string, maxMemory int64) ([]byte, error) {
	if path == Stdin {
		return readStdin(maxMemory)
	}
	st, err := os.Stat(path)
	if err != nil {
		return nil, inputError(path, err)
	}
	if _, err := inputLimit(path, st, maxMemory); err != nil {
		return nil, err
	}
	// O_NONBLOCK: should a FIFO replace the file after Stat, opening it
	// must not wait for a writer; it is then refused by the second check.
	f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, inputError(path, err)
	}
	defer f.Close()
	if st, err = f.Stat(); err != nil {
		return nil, inputError(path, err)
	}
	limit, err := inputLimit(path, st, maxMemory)
	if err != nil {
		return nil, err
	}
	// Read into room for the size Stat gave and one byte more, which
	// stays empty unless the file has grown: a bytes.Buffer would double
	// its room for the end-of-file read, and take three times the file.
	data := make([]byte, min(st.Size(), limit)+1)
	n, err := io.ReadFull(f, data)
	switch {
	case err == io.EOF || err == io.ErrUnexpectedEOF:
		return data[:n], nil
	case err != nil:
		return nil, inputError(path, err)
	}
	// The file grew while it was read; the limit holds for the rest.
	buf := bytes.NewBuffer(data)
	if _, err := buf.ReadFrom(io.LimitReader(f, limit+1-int64(n))); err != nil {
		return nil, inputError(path, err)
	}
	if int64(buf.Len()) > limit {
		return nil, fmt.Errorf("%s grew while being read, past the limit of %s", path, limits.FormatSize(limit))
	}
	return buf.Bytes(), nil
}

// inputError names the file once: "m.machine: permission denied", not
// "open m.machine: permission denied".
func inputError(path string, err error) error {
	if errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("%s: no such file", path)
	}
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return fmt.Errorf("%s: %v", path, pe.Err)
	}
	return fmt.Errorf("%s: %v", path, err)
}

// inputLimit refuses what is not a regular file or is too large, and
// returns how many bytes may be read.
func inputLimit(path string, st fs.FileInfo, maxMemory int64) (int64, error) {
	if !st.Mode().IsRegular() {
		return 0, fmt.Errorf("%s is %s, not a regular file", path, fileKind(st.Mode()))
	}
	size := st.Size()
	if size > maxFileSize {
		return 0, fmt.Errorf("%s is %s; an input file may be at most %s", path, limits.FormatSize(size), limits.FormatSize(maxFileSize))
	}
	if err := limits.Check(fmt.Sprintf("reading %s (%s)", path, limits.FormatSize(size)), limits.Mul(size, inputMemoryFactor), maxMemory); err != nil {
		return 0, err
	}
	return min(maxFileSize, limits.Or(maxMemory)/inputMemoryFactor), nil
}

func fileKind(m fs.FileMode) string {
	switch {
	case m.IsDir():
		return "a directory"
	case m&fs.ModeNamedPipe != 0:
		return "a named pipe (FIFO)"
	case m&fs.ModeSocket != 0:
		return "a socket"
	case m&fs.ModeCharDevice != 0:
		return "a character device"
	case m&fs.ModeDevice != 0:
		return "a block device"
	}
	return "a special file"
}
