package main

import (
	"bufio"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/chzyer/readline"
	"github.com/parasol-lang/parasol/eval"
	"github.com/parasol-lang/parasol/lang"
	"github.com/parasol-lang/parasol/parser"
	"github.com/parasol-lang/parasol/registry"
)

// replRuns are the command-line commands the REPL runs on its machine, in
// the order :help lists them, with the form :help gives: the command's
// arguments but MACHINE, which is the machine loaded here. Their flags,
// --help and completion are the commands' own.
var replRuns = []replRun{
	{"sim", "[flags]", "simulate an operation", true},
	{"route", "[flags] SRC DST", "show a route (--check: check the routing)", false},
	{"compare", "PRIMITIVE", "its analytic beside its simulated cost", true},
	{"run", "[flags] PROGRAM", "run a program (a file, a name, or statements)", true},
	{"sweep", "[flags]", "simulate or compare over a cross product", true},
	{"draw", "[flags]", "print the topology as a Graphviz graph", false},
}

// replRun is a command the REPL runs: :NAME ARGS, as parasol NAME.
type replRun struct {
	name, args, summary string
	plot                bool // :plot draws its last result
}

// replRunNamed is the command the REPL runs as :name, or nil.
func replRunNamed(name string) *replRun {
	for i := range replRuns {
		if replRuns[i].name == name {
			return &replRuns[i]
		}
	}
	return nil
}

// replForms are the :forms of the commands the REPL runs, those :plot draws
// when plot is set, in a list: ":sim, :compare, :run or :sweep".
func replForms(plot bool, conj string) string {
	var forms []string
	for _, c := range replRuns {
		if c.plot || !plot {
			forms = append(forms, ":"+c.name)
		}
	}
	return listWords(forms, conj)
}

// fill breaks a paragraph of :help into lines of at most 75 characters.
func fill(text string) string {
	var b strings.Builder
	line := 0
	for _, w := range strings.Fields(text) {
		switch {
		case line == 0:
		case line+1+utf8.RuneCountInString(w) > 75:
			b.WriteByte('\n')
			line = 0
		default:
			b.WriteByte(' ')
			line++
		}
		b.WriteString(w)
		line += utf8.RuneCountInString(w)
	}
	return b.String()
}

// replHelp is what :help prints.
func replHelp() string {
	var runs strings.Builder
	for _, c := range replRuns {
		fmt.Fprintf(&runs, "  %-22s %s, as parasol %s\n", ":"+c.name+" "+c.args, c.summary, c.name)
	}
	return fmt.Sprintf(`Type an expression to evaluate it, or a definition to add it:
  processor(1).createjob        a field          PVM.send(1KB, 0, 5)   a primitive
  x = 2 * h_in                  a new value      f(n) = n * 10ns       a function
  diameter  avgdist  bisection  nodes  links  maxtotalspeed            derived indexes
%s
Commands:
  :load FILE [MACHINE]   load a machine file (or std:NAME)
  :set PATH=VALUE        override a value: a virtual machine (e.g. :set delta=2us)
  :fields [PREFIX]       list fields and their values
  :machine               show which machine is loaded
%s  :plot FILE             draw the last %s to FILE
                         (.svg or .png): it runs again with --plot FILE, same seed
  :help                  this text
  :quit                  leave (also Ctrl-D)
%s
When input is not a terminal (a script: parasol repl < session.txt), the
exit status is that of the first entry that failed: 1 for an error in an
entry (an expression, a definition, a file), 2 for a :command misused (an
unknown command or flag, a missing argument), 3 when a :sim or :compare
deadlocked or :route --check found a cycle or an unrouted pair.`,
		fill("Input that is not complete (an open bracket, a trailing operator) continues on the next line. Tab completes names, and the flags of "+replForms(false, "and")+"."),
		runs.String(), replForms(true, "or"),
		fill(replForms(false, "and")+" take the command's flags (:sim --help lists them) and run on the machine loaded here, with every definition and :set of the session; MACHINE is left out."))
}

// replCmd is parasol repl.
var replCmd = &command{
	name:    "repl",
	summary: "interactive prompt",
	args:    "[MACHINE]",
	doc: `
Repl starts an interactive prompt over a machine (a file or std:NAME), or an
empty machine. Expressions print their values; definitions extend the
machine; :sim, :route, :compare and :draw run those commands on it; :help
lists the commands. History is kept in ~/.parasol_history.

With input that is not a terminal the entries are read as a script, all of
them, and the exit status is that of the first that failed: 1 for an error
in an entry, 2 for a :command misused, 3 for a deadlock or a cyclic routing
(as parasol sim's and route's).`,
	flags: declareRepl,
}

// declareRepl declares repl's flags on fs and returns the function that runs it.
func declareRepl(e *env, fs *flag.FlagSet) func(pos []string) error {
	var mf machineFlags
	mf.register(fs, e)
	return func(pos []string) error {
		var err error
		if len(pos) > 1 {
			return argsError("parasol repl: at most one MACHINE")
		}
		r := &repl{env: e, out: e.stdout, errOut: e.stderr}
		if len(pos) == 1 {
			if r.m, err = mf.load(pos[0]); err != nil {
				return err
			}
			r.spec = pos[0]
		} else if r.m, err = eval.LoadSource("<repl>", `machine "repl" {}`); err != nil {
			return err
		}
		if f, ok := e.stdin.(*os.File); ok && isTerminal(f) && e.isTerminal {
			return r.interactive()
		}
		if err := r.script(e.stdin); err != nil {
			return err
		}
		if r.status != exitOK {
			return &exitError{code: r.status} // each failure is already printed
		}
		return nil
	}
}

type repl struct {
	m           *eval.Machine
	spec        string
	env         *env // for the commands the REPL runs
	out, errOut io.Writer
	status      int // the exit status of the first entry that failed
	specs       []compCommand
	last        *lastRun // for :plot
}

// interactive runs with line editing, history and completion.
func (r *repl) interactive() error {
	home, _ := os.UserHomeDir()
	rl, err := readline.NewEx(&readline.Config{
		Prompt:          "parasol> ",
		HistoryFile:     filepath.Join(home, ".parasol_history"),
		AutoComplete:    completer{r},
		InterruptPrompt: "^C",
		EOFPrompt:       ":quit",
	})
	if err != nil {
		return err
	}
	defer rl.Close()
	fmt.Fprintf(r.out, "Parasol %s — machine %q. Type :help for help.\n", version(), r.m.Name())
	var buf []string
	for {
		line, err := rl.Readline()
		if errors.Is(err, readline.ErrInterrupt) {
			buf = nil
			rl.SetPrompt("parasol> ")
			continue
		}
		if err != nil {
			return nil
		}
		text, done := r.collect(&buf, line)
		if !done {
			rl.SetPrompt("     ... ")
			continue
		}
		rl.SetPrompt("parasol> ")
		if r.handle(text) {
			return nil
		}
	}
}

// script reads entries from a non-terminal input, without prompts.
func (r *repl) script(in io.Reader) error {
	sc := bufio.NewScanner(in)
	sc.Buffer(make([]byte, 1<<20), 1<<26)
	var buf []string
	for sc.Scan() {
		text, done := r.collect(&buf, sc.Text())
		if !done {
			continue
		}
		if r.handle(text) {
			return nil
		}
	}
	if len(buf) > 0 {
		r.handle(strings.Join(buf, "\n"))
	}
	return sc.Err()
}

// collect adds a line to the pending entry and reports whether the entry is
// complete (the parser decides); a :command ends an unfinished entry.
func (r *repl) collect(buf *[]string, line string) (string, bool) {
	if len(*buf) > 0 && strings.HasPrefix(strings.TrimSpace(line), ":") {
		fmt.Fprintln(r.errOut, "(incomplete entry dropped)")
		r.fail(exitInput)
		*buf = nil
	}
	*buf = append(*buf, line)
	text := strings.Join(*buf, "\n")
	if parser.Incomplete(text) && !strings.HasPrefix(strings.TrimSpace(text), ":") {
		return "", false
	}
	*buf = nil
	return text, true
}

// fail records an entry's exit status; a script exits with the first.
func (r *repl) fail(code int) {
	if r.status == exitOK {
		r.status = code
	}
}

// inputError prints an error in an entry; the session goes on.
func (r *repl) inputError(err error) {
	fmt.Fprintln(r.errOut, err)
	r.fail(exitInput)
}

// usage prints a :command misused; the session goes on.
func (r *repl) usage(format string, args ...any) {
	fmt.Fprintf(r.errOut, format+"\n", args...)
	r.fail(exitUsage)
}

// handle runs one entry; it reports whether the session should end. Errors
// are printed and the session goes on.
func (r *repl) handle(text string) (quit bool) {
	text = strings.TrimSpace(text)
	if text == "" || strings.HasPrefix(text, "#") || strings.HasPrefix(text, "//") {
		return false
	}
	if strings.HasPrefix(text, ":") {
		return r.command(text)
	}
	in, err := parser.ParseInput("<repl>", text)
	if err != nil {
		r.inputError(err)
		return false
	}
	if in.Expr != nil {
		v, err := r.m.EvalExpr(in.Expr)
		if err != nil {
			r.inputError(err)
			return false
		}
		uses, err := r.m.UsesExpr(in.Expr)
		if err != nil {
			r.inputError(err)
			return false
		}
		fmt.Fprintln(r.out, valueText(text, v, uses))
		return false
	}
	m, err := r.m.Extend(in.Stmts)
	if err != nil {
		r.inputError(err)
		return false
	}
	// A program is checked on the machine as it is defined, so that its
	// errors show here rather than at :run.
	for _, s := range in.Stmts {
		if p, ok := s.(*lang.Program); ok {
			prog, err := m.Program(p.Name)
			if err == nil {
				err = prog.Check(m)
			}
			if err != nil {
				r.inputError(err)
				return false
			}
			fmt.Fprintf(r.out, "program %s: run it with :run %s\n", p.Name, p.Name)
		}
	}
	r.m = m
	return false
}

func (r *repl) command(text string) bool {
	cmd, arg, _ := strings.Cut(text, " ")
	arg = strings.TrimSpace(arg)
	switch cmd {
	case ":quit", ":q", ":exit":
		return true
	case ":help", ":h":
		fmt.Fprintln(r.out, replHelp())
	case ":load", ":l":
		file, name, _ := strings.Cut(arg, " ")
		name = strings.Trim(strings.TrimSpace(name), `"`)
		if file == "" {
			r.usage("usage: :load FILE [MACHINE]")
			return false
		}
		opts := []eval.Option{}
		if name != "" {
			opts = append(opts, eval.WithMachine(name))
		}
		m, err := eval.Load(file, opts...)
		if err != nil {
			r.inputError(err)
			return false
		}
		r.m, r.spec = m, file
		fmt.Fprintf(r.out, "loaded machine %q\n", m.Name())
	case ":set":
		s, err := eval.ParseSet(arg)
		if err != nil {
			r.usage("usage: :set PATH=VALUE, e.g. :set delta=2us")
			return false
		}
		s.Source = ":set"
		m, err := r.m.Derive(s)
		if err != nil {
			r.inputError(err)
			return false
		}
		r.m = m
	case ":fields":
		for _, f := range r.m.Fields() {
			if !strings.HasPrefix(f.Path, arg) {
				continue
			}
			if f.Func {
				fmt.Fprintf(r.out, "%s(%s)\n", f.Path, strings.Join(f.Params, ", "))
			} else {
				fmt.Fprintf(r.out, "%s = %s\n", f.Path, f.Value)
			}
		}
	case ":machine":
		fmt.Fprintf(r.out, "machine %q", r.m.Name())
		if r.spec != "" {
			fmt.Fprintf(r.out, " from %s", r.spec)
		}
		fmt.Fprintln(r.out)
	default:
		name := strings.TrimPrefix(cmd, ":")
		if name == "plot" {
			r.plot(arg)
		} else if replRunNamed(name) != nil {
			r.runCommand(name, arg)
		} else {
			r.usage("unknown command %s; :help lists the commands", cmd)
		}
	}
	return false
}

// runCommand runs a command-line command with its own flags, validation
// and output on the session's machine, which stands in for its MACHINE.
func (r *repl) runCommand(name, arg string) {
	words, err := splitWords(arg)
	if err != nil {
		r.usage(":%s: %v", name, err)
		return
	}
	for _, w := range words {
		if w == eval.Stdin || strings.HasSuffix(w, "="+eval.Stdin) {
			r.usage(":%s: - (standard input) is the REPL's own input here; give a file", name)
			return
		}
	}
	e := *r.env
	e.stdin, e.stdout, e.stderr, e.session, e.sessionSource = strings.NewReader(""), r.out, r.errOut, r.m, r.spec
	err = commandNamed(name).exec(&e, name, append([]string{sessionMachine}, words...))
	if errors.Is(err, flag.ErrHelp) {
		fmt.Fprintf(r.out, "\nIn the REPL, :%s runs on the machine loaded here: MACHINE is left out.\n", name)
		return
	}
	code := report(&e, words, err)
	var x *exitError
	if code == exitUsage && errors.As(err, &x) && strings.Contains(x.msg, "MACHINE") {
		fmt.Fprintf(r.errOut, "(in the REPL, MACHINE is the machine loaded here and is left out: :%s [flags] …)\n", name)
	}
	if code != exitOK {
		r.fail(code)
	}
	if code != exitUsage && replRunNamed(name).plot {
		r.last = &lastRun{name: name, arg: arg, m: r.m, spec: r.spec}
	}
}

// lastRun is the last :sim, :compare, :run or :sweep, for :plot.
type lastRun struct {
	name, arg string
	m         *eval.Machine // the session's machine when it ran
	spec      string
}

// plot draws the last plottable command's result to a file by running it
// again with --plot: its seed is in its flags (or the default), so the
// result drawn is the one printed.
func (r *repl) plot(arg string) {
	words, err := splitWords(arg)
	if err != nil || len(words) != 1 {
		r.usage("usage: :plot FILE (.svg or .png): draws the last %s", replForms(true, "or"))
		return
	}
	if r.last == nil {
		r.usage(":plot: nothing to draw yet: run %s first", replForms(true, "or"))
		return
	}
	if err := checkPlotFile("repl", words[0]); err != nil {
		r.usage(":plot: %v", strings.TrimPrefix(err.Error(), "parasol repl: "))
		return
	}
	l := r.last
	saved, savedSpec, savedOut := r.m, r.spec, r.out
	r.m, r.spec, r.out = l.m, l.spec, io.Discard
	r.runCommand(l.name, l.arg+" --plot "+shellQuote(words[0]))
	r.m, r.spec, r.out, r.last = saved, savedSpec, savedOut, l
	if _, err := os.Stat(words[0]); err == nil {
		fmt.Fprintf(r.out, "drew :%s %s to %s\n", l.name, l.arg, words[0])
	}
}

// sessionMachine is the MACHINE argument with which the REPL runs a
// command: machineFlags.load gives it the session's machine (env.session).
// No file is named so: it holds a NUL.
const sessionMachine = "\x00session"

// fromSession is machineFlags.load in the REPL: the session's machine
// with the command's --topology and --set overrides.
func (mf *machineFlags) fromSession(m *eval.Machine) (*eval.Machine, error) {
	if mf.machine != "" {
		return nil, usageError("--machine has no file to choose from in the REPL; load one with :load FILE NAME")
	}
	if mf.topology != "" {
		var err error
		if m, err = mf.topologyUsage(m.OnTopology(mf.topology)); err != nil {
			return nil, err
		}
	}
	if len(mf.sets) == 0 {
		return m, nil
	}
	return m.Derive(mf.sets...)
}

// splitWords splits a :command's arguments as a shell would: spaces
// separate, single quotes keep everything, double quotes keep everything
// but \\ and \", and a backslash outside quotes keeps the next character.
func splitWords(s string) ([]string, error) {
	var words []string
	var w strings.Builder
	inWord := false
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == ' ' || c == '\t':
			if inWord {
				words = append(words, w.String())
				w.Reset()
				inWord = false
			}
			continue
		case c == '\'':
			j := strings.IndexByte(s[i+1:], '\'')
			if j < 0 {
				return nil, fmt.Errorf("unterminated ' quote")
			}
			w.WriteString(s[i+1 : i+1+j])
			i += 1 + j
		case c == '"':
			i++
			for ; i < len(s) && s[i] != '"'; i++ {
				if s[i] == '\\' && i+1 < len(s) && (s[i+1] == '"' || s[i+1] == '\\') {
					i++
				}
				w.WriteByte(s[i])
			}
			if i == len(s) {
				return nil, fmt.Errorf("unterminated \" quote")
			}
		case c == '\\' && i+1 < len(s):
			i++
			w.WriteByte(s[i])
		default:
			w.WriteByte(c)
		}
		inWord = true
	}
	if inWord {
		words = append(words, w.String())
	}
	return words, nil
}

// completer completes the last word of the line from the machine's names
// and the REPL commands, and the flags of the commands the REPL runs.
type completer struct{ r *repl }

func (c completer) Do(line []rune, pos int) ([][]rune, int) {
	head := string(line[:pos])
	start := strings.LastIndexAny(head, " \t(),+-*/^=<>") + 1
	word := head[start:]
	var cands []string
	if cmd, ok := c.r.commandAt(head); ok {
		start = strings.LastIndexAny(head, " \t") + 1
		word = head[start:]
		cands = cmd.complete(head[:start], word)
	} else if en, at, ok := enumAt(head); ok {
		// switching = wor…: the words the field takes, hyphens and all.
		start, word, cands = at, head[at:], en.Spellings()
	} else if start == 0 && strings.HasPrefix(word, ":") {
		cands = []string{":load ", ":set ", ":fields ", ":machine", ":help", ":quit", ":plot "}
		for _, c := range replRuns {
			cands = append(cands, ":"+c.name+" ")
		}
	} else {
		cands = c.r.m.Names()
		for _, g := range registry.Generators {
			cands = append(cands, g.Name+"(")
		}
		for _, kw := range lang.Keywords() {
			if k, _ := lang.Keyword(kw); k != lang.Declaration { // the words of an expression
				cands = append(cands, kw)
			}
		}
	}
	var out [][]rune
	sort.Strings(cands)
	for _, n := range cands {
		if strings.HasPrefix(n, word) && n != word {
			out = append(out, []rune(n[len(word):]))
		}
	}
	return out, len(word)
}

// commandAt finds the command the REPL runs whose arguments the line is
// in (":sim --op tr").
func (r *repl) commandAt(head string) (*compCommand, bool) {
	name, _, ok := strings.Cut(strings.TrimLeft(head, " \t"), " ")
	if !ok || replRunNamed(strings.TrimPrefix(name, ":")) == nil {
		return nil, false
	}
	if r.specs == nil {
		r.specs = completionSpecs()
	}
	for i := range r.specs {
		if ":"+r.specs[i].name == name {
			return &r.specs[i], true
		}
	}
	return nil, false
}

// complete offers a command's flags for a word starting with -, and the
// words a flag takes (--op, --routing, --format) after it.
func (cc *compCommand) complete(before, word string) []string {
	fields := strings.Fields(before)
	if len(fields) > 1 && !strings.HasPrefix(word, "-") {
		prev := strings.TrimLeft(fields[len(fields)-1], "-")
		for _, f := range cc.flags {
			if f.name == prev && f.value {
				return f.words
			}
		}
	}
	if !strings.HasPrefix(word, "-") {
		return nil
	}
	var out []string
	for _, f := range cc.flags {
		out = append(out, f.spelling()+" ")
	}
	return out
}

// enumAt finds an enumerated field being given a value at the end of a
// line ("routing = short-q", "topology(t).switching=w") and where its word
// starts.
func enumAt(head string) (*registry.Enum, int, bool) {
	eq := strings.LastIndexByte(head, '=')
	if eq < 0 || strings.ContainsAny(strings.TrimLeft(head[eq+1:], " \t"), " \t(),+*/^<>") {
		return nil, 0, false
	}
	lhs := strings.TrimSpace(head[:eq])
	if i := strings.LastIndexAny(lhs, " \t.("); i >= 0 {
		lhs = lhs[i+1:]
	}
	en, ok := registry.EnumOf(lhs)
	if !ok {
		return nil, 0, false
	}
	at := eq + 1
	for at < len(head) && (head[at] == ' ' || head[at] == '\t') {
		at++
	}
	return en, at, true
}
