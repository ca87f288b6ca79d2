package main

import (
	"flag"
	"fmt"
	"io"
	"regexp"
	"slices"
	"sort"
	"strings"
	"sync"

	"github.com/parasol-lang/parasol/eval"
	"github.com/parasol-lang/parasol/eval/fit"
	"github.com/parasol-lang/parasol/registry"
	"github.com/parasol-lang/parasol/runtime"
	"github.com/parasol-lang/parasol/stdlib"
)

// completionCmd is parasol completion.
var completionCmd = &command{
	name:    "completion",
	summary: "print a shell completion script for bash, zsh or fish",
	args:    "SHELL",
	doc: `
Completion prints a script that teaches SHELL (bash, zsh or fish) to
complete parasol's commands (and probe's serve and measure), their flags,
the values of --op, --routing, --switching and --format, std: machine
names, fit's models and file names. The script is made from the command
table, so it is complete for this version of parasol; print it again
after upgrading.

  bash   source <(parasol completion bash)          (in ~/.bashrc)
  zsh    source <(parasol completion zsh)           (in ~/.zshrc, after compinit)
         or: parasol completion zsh > "${fpath[1]}/_parasol"
  fish   parasol completion fish > ~/.config/fish/completions/parasol.fish`,
	flags: noFlags(runCompletion),
}

func runCompletion(e *env, pos []string) error {
	if len(pos) != 1 {
		return argsError("parasol completion: need one SHELL: %s", strings.Join(shells, ", "))
	}
	cmds := completionSpecs()
	switch pos[0] {
	case "bash":
		writeBash(e.stdout, cmds)
	case "zsh":
		writeZsh(e.stdout, cmds)
	case "fish":
		writeFish(e.stdout, cmds)
	default:
		return usageError("parasol completion: unknown shell %q; want %s", pos[0], strings.Join(shells, ", "))
	}
	return nil
}

var shells = []string{"bash", "zsh", "fish"}

// choices is a flag value with a fixed set of words, which completion
// offers (--format dot|svg).
type choices interface{ Choices() []string }

// choiceFlag is a string flag that accepts one of a fixed set of words.
type choiceFlag struct {
	value string
	words []string
}

func newChoiceFlag(def string, words ...string) *choiceFlag {
	return &choiceFlag{value: def, words: words}
}

func (c *choiceFlag) String() string {
	if c == nil {
		return ""
	}
	return c.value
}

func (c *choiceFlag) Set(s string) error {
	for _, w := range c.words {
		if s == w {
			c.value = s
			return nil
		}
	}
	return fmt.Errorf("%q is not one of %s", s, strings.Join(c.words, ", "))
}

func (c *choiceFlag) Choices() []string { return c.words }

// flagWords are the words completed after a flag of this name, from the
// registry that validates them; nil for a flag of any other name.
func flagWords(name string) []string {
	switch name {
	case "op":
		return runtime.Ops()
	case "routing":
		return registry.Routing.Names()
	case "switching":
		return registry.Switching.Names()
	case "arbitration":
		return registry.Arbitration.Names()
	}
	return nil
}

// argKind is what a positional argument completes to.
type argKind uint8

const (
	argNone    argKind = iota
	argMachine         // std:NAME or a file
	argFile
	argShell
	argModel // one of fit's named models
	argSub   // a subcommand (probe serve)
)

// argKindOf is what a capitalised word of a usage line completes to;
// words not listed (EXPR, SRC, PRIMITIVE) complete to nothing.
func argKindOf(word string) argKind {
	switch word {
	case "MACHINE":
		return argMachine
	case "FILE", "LEGACY", "PROGRAM", "DATA":
		return argFile
	case "SHELL":
		return argShell
	case "MODEL":
		return argModel
	}
	return argNone
}

// modelNames are fit's models, the words a MODEL argument completes to.
func modelNames() []string {
	var out []string
	for _, md := range fit.Models {
		out = append(out, md.Name)
	}
	return out
}

type compFlag struct {
	name, help string
	value      bool     // takes a value
	words      []string // its values, when they are a fixed set
	file       bool     // its value is a file name
}

type compCommand struct {
	name, summary string
	flags         []compFlag
	args          []argKind // positional arguments in order
	repeat        bool      // the last one repeats (FILE...)
	subs          []string  // the subcommands, for argSub
}

// completionSpecs reads every command's flags and arguments from its
// declaration, so that a new command or flag needs no change to the
// scripts.
func completionSpecs() []compCommand {
	var out []compCommand
	for _, c := range commands {
		cc := compCommand{name: c.name, summary: c.summary}
		for _, sub := range c.subs {
			cc.subs = append(cc.subs, sub.name)
			cc.addFlags(sub, c.name+" "+sub.name)
		}
		if c.subs != nil {
			cc.args = []argKind{argSub}
		} else {
			cc.addFlags(c, c.name)
			cc.args, cc.repeat = usageArgs(" " + c.args)
		}
		sort.Slice(cc.flags, func(i, j int) bool { return cc.flags[i].name < cc.flags[j].name })
		cc.flags = slices.CompactFunc(cc.flags, func(a, b compFlag) bool { return a.name == b.name })
		out = append(out, cc)
	}
	return out
}

// addFlags adds the flags c (called path) declares to cc.
func (cc *compCommand) addFlags(c *command, path string) {
	fs := newFlagSet(path)
	c.flags(&env{}, fs)
	fs.VisitAll(func(f *flag.Flag) { cc.flags = append(cc.flags, newCompFlag(f)) })
}

// spelling is how the flag is written: -w for a one-letter flag, --json
// for a longer one (the flag package takes either).
func (f compFlag) spelling() string {
	if len(f.name) == 1 {
		return "-" + f.name
	}
	return "--" + f.name
}

func newCompFlag(f *flag.Flag) compFlag {
	placeholder, usage := flag.UnquoteUsage(f)
	cf := compFlag{name: f.Name, help: shortHelp(usage)}
	if b, ok := f.Value.(interface{ IsBoolFlag() bool }); ok && b.IsBoolFlag() {
		return cf
	}
	cf.value = true
	switch {
	case flagWords(f.Name) != nil:
		cf.words = flagWords(f.Name)
	case placeholder == "FILE":
		cf.file = true
	}
	if c, ok := f.Value.(choices); ok {
		cf.words = c.Choices()
	}
	return cf
}

// shortHelp is the start of a flag's usage, short enough for a menu.
func shortHelp(usage string) string {
	for _, sep := range []string{": ", "; ", " (", ", e.g.", ", "} {
		if i := strings.Index(usage, sep); i > 0 {
			usage = usage[:i]
		}
	}
	if r := []rune(usage); len(r) > 60 {
		usage = string(r[:59]) + "…"
	}
	return usage
}

var (
	bracketed = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`\[[^\]]*\]`) })
	argWord   = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^\[?([A-Z]+)(\.\.\.)?\]?$`) })
)

// usageArgs reads the positional arguments from a usage line's arguments
// ("[flags] MACHINE EXPR...", "[-w | -l | -d] FILE..."), as usageWords
// finds them, as what each completes to.
func usageArgs(s string) (args []argKind, repeat bool) {
	words, repeat := usageWords(s)
	for _, w := range words {
		args = append(args, argKindOf(w))
	}
	return args, repeat
}

// usageWords are the positional arguments of a usage line's arguments:
// capitalised words outside brackets, or alone in them ([MACHINE]), up to
// the first alternative; a word after a flag is its value, not an
// argument. repeat is whether the last one may be repeated (EXPR...).
func usageWords(s string) (words []string, repeat bool) {
	s = bracketed().ReplaceAllStringFunc(s, func(b string) string {
		if argWord().MatchString(b) {
			return b
		}
		return ""
	})
	s, _, _ = strings.Cut(s, " | ")
	afterFlag := false
	for _, w := range strings.Fields(s) {
		if strings.HasPrefix(w, "-") {
			afterFlag = true
			continue
		}
		if afterFlag {
			afterFlag = false
			continue
		}
		m := argWord().FindStringSubmatch(w)
		if m == nil {
			continue
		}
		words = append(words, m[1])
		repeat = m[2] != ""
	}
	return words, repeat
}

// stdMachines are the standard machines as MACHINE arguments; libraries
// of definitions (std:models), which hold no machine, are left out.
func stdMachines() []string {
	var out []string
	for _, n := range stdlib.MachineNames() {
		if names, err := eval.MachineNames("std:" + n); err == nil && len(names) == 0 {
			continue
		}
		out = append(out, "std:"+n)
	}
	return out
}

// writeBash prints a bash completion function that needs no
// bash-completion package: it reads the word under the cursor from
// COMP_LINE itself, so std:NAME and --flag=VALUE complete although ':'
// and '=' break words in bash.
func writeBash(w io.Writer, cmds []compCommand) {
	fmt.Fprintf(w, `# bash completion for parasol %s, made by: parasol completion bash
# Load it with: source <(parasol completion bash)

# _parasol_words CUR WORDS [PREFIX] replies with PREFIX+WORD for each of
# WORDS that makes a word starting with CUR, less the part of CUR that bash
# has split off as words of their own (up to its last ':' or '=').
_parasol_words() {
	local cur=$1 word split=""
	case $cur in
	*[:=]*) [[ $COMP_WORDBREAKS == *[:=]* ]] && split=${cur%%"${cur##*[:=]}"} ;;
	esac
	local IFS=$' \t\n'
	for word in $2; do
		word=$3$word
		[[ $word == "$cur"* ]] && COMPREPLY+=("${word#"$split"}")
	done
}

_parasol_files() {
	local IFS=$'\n'
	COMPREPLY+=($(compgen -f -- "$1"))
	compopt -o filenames 2>/dev/null
}

_parasol() {
	COMPREPLY=()
	local line=${COMP_LINE:0:COMP_POINT}
	local -a words
	read -r -a words <<<"$line"
	local cur=""
	if [[ $line != *[[:space:]] && ${#words[@]} -gt 0 ]]; then
		cur=${words[${#words[@]}-1]}
		unset 'words[${#words[@]}-1]'
	fi
	if ((${#words[@]} <= 1)); then
		_parasol_words "$cur" %s
		return
	fi
	local cmd=${words[1]} flags="" valued="" args="" repeat="" subs=""
	case $cmd in
`, version(), shellQuote(strings.Join(commandNames(cmds), " ")))
	for _, c := range cmds {
		var flags, valued []string
		for _, f := range c.flags {
			flags = append(flags, f.spelling())
			if f.value {
				valued = append(valued, f.name)
			}
		}
		fmt.Fprintf(w, "\t%s) flags=%s valued=%s args=%s repeat=%t subs=%s ;;\n", c.name,
			shellQuote(strings.Join(flags, " ")), shellQuote(" "+strings.Join(valued, " ")+" "),
			shellQuote(argString(c.args)), c.repeat, shellQuote(strings.Join(c.subs, " ")))
	}
	fmt.Fprint(w, `	*) return ;;
	esac
	# A flag's value: --op=VALUE or -op=VALUE, or a word after --op.
	local prev=${words[${#words[@]}-1]} flag="" prefix="" value=""
	if [[ $cur == -*=* ]]; then
		flag=${cur%%=*} prefix=${cur%%=*}= value=${cur#*=}
	elif [[ $prev == -* && $prev != *=* ]]; then
		flag=$prev value=$cur
	fi
	flag=${flag#-}
	flag=${flag#-}
	if [[ -n $flag && $valued == *" $flag "* ]]; then
		case $cmd:$flag in
`)
	for _, c := range cmds {
		for _, f := range c.flags {
			switch {
			case f.words != nil:
				fmt.Fprintf(w, "\t\t%s:%s) _parasol_words \"$cur\" %s \"$prefix\" ;;\n", c.name, f.name, shellQuote(strings.Join(f.words, " ")))
			case f.file:
				fmt.Fprintf(w, "\t\t%s:%s) _parasol_files \"$value\" ;;\n", c.name, f.name)
			}
		}
	}
	fmt.Fprintf(w, `		esac
		return
	fi
	if [[ $cur == -* ]]; then
		_parasol_words "$cur" "$flags"
		return
	fi
	# Which positional argument this is: flags and their values do not count.
	local i n=0 word
	for ((i = 2; i < ${#words[@]}; i++)); do
		word=${words[i]#-}
		word=${word#-}
		case ${words[i]} in
		--) ;;
		-*=*) ;;
		-*) [[ $valued == *" $word "* ]] && ((i++)) ;;
		*) ((n++)) ;;
		esac
	done
	local -a kinds=($args)
	local kind=${kinds[n]}
	if [[ -z $kind && $repeat == true && ${#kinds[@]} -gt 0 ]]; then
		kind=${kinds[${#kinds[@]}-1]}
	fi
	case $kind in
	machine)
		_parasol_words "$cur" %s
		[[ $cur == std:* ]] || _parasol_files "$cur"
		;;
	file) _parasol_files "$cur" ;;
	shell) _parasol_words "$cur" %s ;;
	model) _parasol_words "$cur" %s ;;
	sub) _parasol_words "$cur" "$subs" ;;
	esac
}
complete -F _parasol parasol
`, shellQuote(strings.Join(stdMachines(), " ")), shellQuote(strings.Join(shells, " ")), shellQuote(strings.Join(modelNames(), " ")))
}

func commandNames(cmds []compCommand) []string {
	var names []string
	for _, c := range cmds {
		names = append(names, c.name)
	}
	return names
}

func (k argKind) String() string {
	return [...]string{"none", "machine", "file", "shell", "model", "sub"}[k]
}

func argString(args []argKind) string {
	var s []string
	for _, a := range args {
		s = append(s, a.String())
	}
	return strings.Join(s, " ")
}

// shellQuote quotes s for sh, bash, zsh and fish alike.
func shellQuote(s string) string {
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// zshEscape escapes the characters _arguments and _describe give meaning
// to inside a description or value.
func zshEscape(s string) string {
	return strings.NewReplacer(`\`, `\\`, `[`, `\[`, `]`, `\]`, `:`, `\:`, `'`, `'\''`).Replace(s)
}

func writeZsh(w io.Writer, cmds []compCommand) {
	fmt.Fprintf(w, `#compdef parasol
# zsh completion for parasol %s, made by: parasol completion zsh
# Load it with: source <(parasol completion zsh)   (after compinit)
# or save it as _parasol in a directory of $fpath.

_parasol_machines() {
	local -a std
	std=(%s)
	_alternative 'std:standard machine:compadd -a std' 'files:machine file:_files'
}

_parasol() {
	local -a commands
	commands=(
`, version(), strings.Join(quoteAllShell(stdMachines()), " "))
	for _, c := range cmds {
		fmt.Fprintf(w, "\t\t'%s:%s'\n", zshEscape(c.name), zshEscape(c.summary))
	}
	fmt.Fprint(w, `	)
	if ((CURRENT == 2)); then
		_describe -t commands 'parasol command' commands
		return
	fi
	local cmd=$words[2]
	shift words
	((CURRENT--))
	case $cmd in
`)
	for _, c := range cmds {
		fmt.Fprintf(w, "\t%s)\n\t\t_arguments -S", c.name)
		for _, f := range c.flags {
			spec := f.spelling()
			if f.value {
				spec += "="
			}
			spec += "[" + zshEscape(f.help) + "]"
			switch {
			case f.words != nil:
				var ws []string
				for _, x := range f.words {
					ws = append(ws, zshEscape(x))
				}
				spec += ":" + zshEscape(f.name) + ":(" + strings.Join(ws, " ") + ")"
			case f.file:
				spec += ":file:_files"
			case f.value:
				spec += ":" + zshEscape(f.name) + ": "
			}
			fmt.Fprintf(w, " \\\n\t\t\t'%s'", spec)
		}
		for i, a := range c.args {
			n := fmt.Sprint(i + 1)
			if c.repeat && i == len(c.args)-1 {
				n = "*"
			}
			fmt.Fprintf(w, " \\\n\t\t\t'%s:%s'", n, zshAction(a, c.subs))
		}
		fmt.Fprint(w, "\n\t\t;;\n")
	}
	fmt.Fprintf(w, `	esac
}

if [[ $funcstack[1] == _parasol ]]; then
	_parasol "$@"
else
	compdef _parasol parasol
fi
`)
}

func zshAction(a argKind, subs []string) string {
	switch a {
	case argMachine:
		return "machine:_parasol_machines"
	case argFile:
		return "file:_files"
	case argShell:
		return "shell:(" + strings.Join(shells, " ") + ")"
	case argModel:
		return "model:(" + strings.Join(modelNames(), " ") + ")"
	case argSub:
		return "subcommand:(" + strings.Join(subs, " ") + ")"
	}
	return "argument: "
}

func quoteAllShell(ss []string) []string {
	out := make([]string, len(ss))
	for i, s := range ss {
		out[i] = shellQuote(s)
	}
	return out
}

func writeFish(w io.Writer, cmds []compCommand) {
	fmt.Fprintf(w, "# fish completion for parasol %s, made by: parasol completion fish\n", version())
	fmt.Fprint(w, "# Save it as ~/.config/fish/completions/parasol.fish\n\n")
	fmt.Fprint(w, "complete -c parasol -f\n")
	for _, c := range cmds {
		fmt.Fprintf(w, "complete -c parasol -n __fish_use_subcommand -a %s -d %s\n", c.name, shellQuote(c.summary))
	}
	for _, c := range cmds {
		cond := shellQuote("__fish_seen_subcommand_from " + c.name)
		for _, f := range c.flags {
			opt := "-l"
			if len(f.name) == 1 {
				opt = "-s"
			}
			line := fmt.Sprintf("complete -c parasol -n %s %s %s", cond, opt, f.name)
			switch {
			case f.words != nil:
				line += " -x -a " + shellQuote(strings.Join(f.words, " "))
			case f.file:
				line += " -r -F"
			case f.value:
				line += " -x"
			}
			fmt.Fprintf(w, "%s -d %s\n", line, shellQuote(f.help))
		}
		kinds := map[argKind]bool{}
		for _, a := range c.args {
			kinds[a] = true
		}
		if kinds[argMachine] {
			fmt.Fprintf(w, "complete -c parasol -n %s -F -a %s\n", cond, shellQuote(strings.Join(stdMachines(), " ")))
		} else if kinds[argFile] {
			fmt.Fprintf(w, "complete -c parasol -n %s -F\n", cond)
		}
		if kinds[argShell] {
			fmt.Fprintf(w, "complete -c parasol -n %s -a %s\n", cond, shellQuote(strings.Join(shells, " ")))
		}
		if kinds[argModel] {
			fmt.Fprintf(w, "complete -c parasol -n %s -a %s\n", cond, shellQuote(strings.Join(modelNames(), " ")))
		}
		if kinds[argSub] {
			fmt.Fprintf(w, "complete -c parasol -n %s -a %s\n", shellQuote("__fish_seen_subcommand_from "+c.name+"; and not __fish_seen_subcommand_from "+strings.Join(c.subs, " ")), shellQuote(strings.Join(c.subs, " ")))
		}
	}
}
