package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// helpExample is a command line in a help text: indented, or after do,
// $( or <(, so that prose naming a command ('parasol merge') is not one.
var helpExample = regexp.MustCompile(`(?m)(^\s+|\bdo |\$\(|<\()parasol ([a-z]+)(.*)$`)

// Every example in a command's help runs a command of the table with flags
// it declares (the flags are parsed, the command is not run).
func TestHelpExamplesUseDeclaredFlags(t *testing.T) {
	examples := 0
	var docs []string
	for _, c := range commands {
		docs = append(docs, c.doc)
		for _, s := range c.subs {
			docs = append(docs, s.doc)
		}
	}
	for _, doc := range docs {
		for _, m := range helpExample.FindAllStringSubmatch(doc, -1) {
			name, rest := m[2], m[3]
			if m[1] != "do " && strings.TrimSpace(m[1]) != "" {
				rest, _, _ = strings.Cut(rest, ")") // $(parasol …)
			}
			if err := parseExample(name, rest); err != nil {
				t.Errorf("parasol %s%s: %v", name, rest, err)
			}
			examples++
		}
	}
	if examples < 30 {
		t.Errorf("found %d examples in the help texts; the pattern has stopped matching them", examples)
	}
}

// parseExample parses the flags of the example command line "parasol
// NAME REST" with the flags its command declares, stopping at the
// shell's | > & ; (the command is not run).
func parseExample(name, rest string) error {
	c, path := commandNamed(name), name
	if c == nil {
		return fmt.Errorf("no command %s", name)
	}
	words, err := splitWords(strings.ReplaceAll(rest, "$i", "0"))
	if err != nil {
		return err
	}
	for i, w := range words {
		if strings.ContainsAny(w[:1], "|>&;#") {
			words = words[:i] // the shell's, not parasol's
			break
		}
	}
	if c.subs != nil {
		for _, s := range c.subs {
			if len(words) > 0 && s.name == words[0] {
				c, path, words = s, path+" "+s.name, words[1:]
			}
		}
	}
	fs := newFlagSet(path)
	c.flags(&env{}, fs)
	_, err = parseInterspersed(fs, words)
	return err
}

// The README's examples (the command lines of its code blocks, after the
// table of commands) parse with the flags they name: the README's
// --size 32..64KB*2 is refused now that a range ends at its end (issue
// 26), and so would the example be.
func TestReadmeExamplesUseDeclaredFlags(t *testing.T) {
	text, err := os.ReadFile(filepath.Join("..", "..", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	command := regexp.MustCompile(`^(?:\$ )?parasol ([a-z]+)(.*)$`)
	examples, inCode := 0, false
	for i, line := range strings.Split(string(text), "\n") {
		if strings.HasPrefix(line, "```") {
			inCode = !inCode
			continue
		}
		m := command.FindStringSubmatch(line)
		// The table of commands names placeholders in capitals and
		// brackets, not values: "parasol sim MACHINE --op OP [flags]".
		if !inCode || m == nil || strings.Contains(line, "[") && strings.Contains(line, "]  ") {
			continue
		}
		if strings.Contains(line, "MACHINE") || strings.Contains(line, "FILE") {
			continue
		}
		if err := parseExample(m[1], m[2]); err != nil {
			t.Errorf("README.md:%d: %s: %v", i+1, line, err)
		}
		examples++
	}
	if examples < 20 {
		t.Errorf("found %d examples in README.md; the pattern has stopped matching them", examples)
	}
}

func TestListWords(t *testing.T) {
	for _, tt := range []struct {
		words []string
		want  string
	}{
		{nil, ""},
		{[]string{"a"}, "a"},
		{[]string{"a", "b"}, "a or b"},
		{[]string{"a", "b", "c"}, "a, b or c"},
	} {
		if got := listWords(tt.words, "or"); got != tt.want {
			t.Errorf("listWords(%q) = %q; want %q", tt.words, got, tt.want)
		}
	}
}

// A command's arguments refused are followed by the usage line of its
// declaration, as they were when each command wrote its own; of a command
// of several forms (fit, route), the form's.
func TestArgumentErrorsEndWithTheDeclaredUsageLine(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"check"}, "parasol check: no files given\nUsage: parasol check FILE...\n"},
		{[]string{"eval", "x"}, "parasol eval: need a MACHINE and at least one EXPR\nUsage: parasol eval [flags] MACHINE EXPR...\n"},
		{[]string{"import"}, "parasol import: need exactly one file\nUsage: parasol import LEGACY\n"},
		{[]string{"compare", "x"}, "parasol compare: need MACHINE and PRIMITIVE\nUsage: parasol compare [flags] MACHINE PRIMITIVE\n"},
		{[]string{"completion"}, "parasol completion: need one SHELL: bash, zsh, fish\nUsage: parasol completion SHELL\n"},
		{[]string{"draw", "a", "b"}, "parasol draw: need exactly one MACHINE\nUsage: parasol draw [flags] MACHINE\n"},
		{[]string{"fmt"}, "parasol fmt: no files given (- reads standard input)\nUsage: parasol fmt [-w | -l | -d] FILE...\n"},
		{[]string{"merge"}, "parasol merge: need the FILES a sharded sweep wrote\nUsage: parasol merge FILES…\n"},
		{[]string{"probe", "serve", "x"}, "parasol probe serve: unexpected argument \"x\"\nUsage: parasol probe serve [--listen ADDR] [--max-memory SIZE]\n"},
		{[]string{"probe", "measure", "h"}, "parasol probe measure: need at least two hosts\nUsage: parasol probe measure [flags] HOST... | --hostfile FILE\n"},
		{[]string{"repl", "a", "b"}, "parasol repl: at most one MACHINE\nUsage: parasol repl [MACHINE]\n"},
		{[]string{"run", "x"}, "parasol run: need MACHINE and PROGRAM\nUsage: parasol run [flags] MACHINE PROGRAM\n"},
		{[]string{"sim"}, "parasol sim: need exactly one MACHINE\nUsage: parasol sim [flags] MACHINE --op OP\n"},
		{[]string{"sweep"}, "parasol sweep: need exactly one MACHINE\nUsage: parasol sweep [flags] MACHINE --op OP | --compare PRIMITIVE | --run PROGRAM\n"},
		{[]string{"version", "x"}, "parasol version: takes no arguments, got x\nUsage: parasol version\n"},
		// A command of several forms gives the form used.
		{[]string{"fit", "linear"}, "parasol fit: need MODEL and DATA (or --free with MACHINE FUNCTION DATA)\nUsage: parasol fit [flags] MODEL DATA\n"},
		{[]string{"fit", "--free", "a", "m.machine"}, "parasol fit: with --free, need MACHINE FUNCTION DATA\nUsage: parasol fit --free A,B,... [flags] MACHINE FUNCTION DATA\n"},
		{[]string{"route", "std:xmp64", "1"}, "parasol route: need MACHINE SRC DST\nUsage: parasol route [flags] MACHINE SRC DST\n"},
		{[]string{"route", "--check"}, "parasol route --check: need exactly one MACHINE\nUsage: parasol route --check [flags] MACHINE\n"},
	} {
		var out, errOut bytes.Buffer
		e := &env{stdin: strings.NewReader(""), stdout: &out, stderr: &errOut}
		if code := run(e, c.args); code != 2 || errOut.String() != c.want || out.Len() != 0 {
			t.Errorf("parasol %s: exit status %d, stderr %q, stdout %q; want 2, %q and nothing", strings.Join(c.args, " "), code, errOut.String(), out.String(), c.want)
		}
	}
}

// Usage lines come from the command table: no error of the commands
// writes one by hand ("…\nUsage: parasol route [flags] MACHINE SRC DST"),
// which drifts from the declaration; an error asks for the declared line
// with argsError, or formArgsError for one form of several.
func TestNoUsageLineIsWrittenByHand(t *testing.T) {
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for i, line := range strings.Split(string(data), "\n") {
			if strings.Contains(line, `\nUsage: parasol`) {
				t.Errorf("%s:%d: a usage line written by hand: %s", f, i+1, strings.TrimSpace(line))
			}
		}
	}
	// A form is the alternative of the declaration holding its word.
	c := &command{name: "x", args: "[flags] A B | --y [flags] C"}
	for form, want := range map[string]string{"": "Usage: parasol x [flags] A B | --y [flags] C", "A": "Usage: parasol x [flags] A B", "--y": "Usage: parasol x --y [flags] C", "Z": "Usage: parasol x [flags] A B | --y [flags] C"} {
		if got := c.usageLine("x", form); got != want {
			t.Errorf("usageLine(%q) = %q, want %q", form, got, want)
		}
	}
}
