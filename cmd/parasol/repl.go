package main

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/chzyer/readline"
	"github.com/parasol-lang/parasol/eval"
	"github.com/parasol-lang/parasol/parser"
	"github.com/parasol-lang/parasol/registry"
)

const replHelp = `Type an expression to evaluate it, or a definition to add it:
  processor(1).createjob        a field          PVM.send(1KB, 0, 5)   a primitive
  x = 2 * h_in                  a new value      f(n) = n * 10ns       a function
  diameter  avgdist  bisection  nodes  links  maxtotalspeed            derived indexes
Input that is not complete (an open bracket, a trailing operator) continues
on the next line. Tab completes names.
Commands:
  :load FILE [MACHINE]   load a machine file (or std:NAME)
  :set PATH=VALUE        override a value: a virtual machine (e.g. :set delta=2us)
  :fields [PREFIX]       list fields and their values
  :machine               show which machine is loaded
  :help                  this text
  :quit                  leave (also Ctrl-D)`

func runRepl(e *env, args []string) error {
	fs := newFlags(e, "repl", "[MACHINE]", `
Repl starts an interactive prompt over a machine (a file or std:NAME), or an
empty machine. Expressions print their values; definitions extend the
machine; :help lists the commands. History is kept in ~/.parasol_history.`)
	var mf machineFlags
	mf.register(fs)
	pos, err := parseInterspersed(fs, args)
	if err != nil {
		return err
	}
	if len(pos) > 1 {
		return usageError("parasol repl: at most one MACHINE\nUsage: parasol repl [MACHINE]")
	}
	r := &repl{out: e.stdout, errOut: e.stderr}
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
	return r.script(e.stdin)
}

type repl struct {
	m           *eval.Machine
	spec        string
	out, errOut io.Writer
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
	fmt.Fprintf(r.out, "Parasol %s — machine %q. Type :help for help.\n", version, r.m.Name())
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
		fmt.Fprintln(r.errOut, err)
		return false
	}
	if in.Expr != nil {
		v, err := r.m.EvalExpr(in.Expr)
		if err != nil {
			fmt.Fprintln(r.errOut, err)
			return false
		}
		uses, err := r.m.UsesExpr(in.Expr)
		if err != nil {
			fmt.Fprintln(r.errOut, err)
			return false
		}
		fmt.Fprintln(r.out, valueText(text, v, uses))
		return false
	}
	m, err := r.m.Extend(in.Stmts)
	if err != nil {
		fmt.Fprintln(r.errOut, err)
		return false
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
		fmt.Fprintln(r.out, replHelp)
	case ":load", ":l":
		file, name, _ := strings.Cut(arg, " ")
		name = strings.Trim(strings.TrimSpace(name), `"`)
		if file == "" {
			fmt.Fprintln(r.errOut, "usage: :load FILE [MACHINE]")
			return false
		}
		opts := []eval.Option{}
		if name != "" {
			opts = append(opts, eval.WithMachine(name))
		}
		m, err := eval.Load(file, opts...)
		if err != nil {
			fmt.Fprintln(r.errOut, err)
			return false
		}
		r.m, r.spec = m, file
		fmt.Fprintf(r.out, "loaded machine %q\n", m.Name())
	case ":set":
		s, err := eval.ParseSet(arg)
		if err != nil {
			fmt.Fprintln(r.errOut, "usage: :set PATH=VALUE, e.g. :set delta=2us")
			return false
		}
		s.Source = ":set"
		m, err := r.m.Derive(s)
		if err != nil {
			fmt.Fprintln(r.errOut, err)
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
		fmt.Fprintf(r.errOut, "unknown command %s; :help lists the commands\n", cmd)
	}
	return false
}

// completer completes the last word of the line from the machine's names
// and the REPL commands.
type completer struct{ r *repl }

func (c completer) Do(line []rune, pos int) ([][]rune, int) {
	head := string(line[:pos])
	start := strings.LastIndexAny(head, " \t(),+-*/^=<>") + 1
	word := head[start:]
	var cands []string
	if en, at, ok := enumAt(head); ok {
		// switching = wor…: the words the field takes, hyphens and all.
		start, word, cands = at, head[at:], en.Spellings()
	} else if start == 0 && strings.HasPrefix(word, ":") {
		cands = []string{":load ", ":set ", ":fields ", ":machine", ":help", ":quit"}
	} else {
		cands = c.r.m.Names()
		for _, g := range registry.Generators {
			cands = append(cands, g.Name+"(")
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
	en, ok := registry.Enums[lhs]
	if !ok {
		return nil, 0, false
	}
	at := eq + 1
	for at < len(head) && (head[at] == ' ' || head[at] == '\t') {
		at++
	}
	return en, at, true
}
