package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"testing"

	"github.com/parasol-lang/parasol/registry"
	"github.com/parasol-lang/parasol/runtime"
)

func completionScript(t *testing.T, shell string) string {
	t.Helper()
	var out bytes.Buffer
	e := &env{stdin: strings.NewReader(""), stdout: &out, stderr: &out}
	if code := run(e, []string{"completion", shell}); code != 0 {
		t.Fatalf("parasol completion %s: exit status %d: %s", shell, code, out.String())
	}
	return out.String()
}

func TestCompletionScriptsNameEveryCommandFlagAndRegisteredValue(t *testing.T) {
	specs := completionSpecs()
	if len(specs) != len(commands) {
		t.Fatalf("%d commands in the completion, %d in the table", len(specs), len(commands))
	}
	var words []string
	words = append(words, runtime.Ops()...)
	words = append(words, registry.Routing.Names()...)
	words = append(words, registry.Switching.Names()...)
	words = append(words, stdMachines()...)
	for _, shell := range shells {
		script := completionScript(t, shell)
		for _, c := range specs {
			if !strings.Contains(script, c.name) {
				t.Errorf("%s: command %s is missing", shell, c.name)
			}
			for _, f := range c.flags {
				name := f.spelling()
				if shell == "fish" {
					name = map[bool]string{true: "-s ", false: "-l "}[len(f.name) == 1] + f.name
				}
				if !strings.Contains(script, name) {
					t.Errorf("%s: flag %s of %s is missing", shell, name, c.name)
				}
			}
		}
		for _, w := range words {
			if !strings.Contains(script, w) {
				t.Errorf("%s: %s is missing", shell, w)
			}
		}
	}
	// Flags of every command are found, including ones added since.
	for _, c := range specs {
		if c.name == "sim" {
			var names []string
			for _, f := range c.flags {
				names = append(names, f.name)
			}
			for _, want := range []string{"op", "routing", "switching", "size", "json", "link-loads", "set"} {
				if !strings.Contains(" "+strings.Join(names, " ")+" ", " "+want+" ") {
					t.Errorf("sim's flags %v lack %s", names, want)
				}
			}
		}
	}
}

func TestUsageLinesGivePositionalArguments(t *testing.T) {
	tests := []struct {
		usage  string
		args   []argKind
		repeat bool
	}{
		{" [flags] MACHINE EXPR...", []argKind{argMachine, argNone}, true},
		{" [-w | -l | -d] FILE...", []argKind{argFile}, true},
		{" [flags] MACHINE --op OP", []argKind{argMachine}, false},
		{" [flags] MACHINE SRC DST | --check [flags] MACHINE", []argKind{argMachine, argNone, argNone}, false},
		{" [MACHINE]", []argKind{argMachine}, false},
		{" LEGACY", []argKind{argFile}, false},
		{" SHELL", []argKind{argShell}, false},
		{" [flags] MODEL DATA | --free A,B [flags] MACHINE FUNCTION DATA", []argKind{argModel, argFile}, false},
		{" ", nil, false},
	}
	for _, tt := range tests {
		args, repeat := usageArgs(tt.usage)
		if !reflect.DeepEqual(args, tt.args) || repeat != tt.repeat {
			t.Errorf("usageArgs(%q) = %v, %v; want %v, %v", tt.usage, args, repeat, tt.args, tt.repeat)
		}
	}
}

// completionCases are command lines (the cursor at the end) and what the
// shells should offer, in any order; a file of each kind is in the
// working directory.
var completionCases = []struct {
	line string
	want []string
}{
	{"parasol dr", []string{"draw"}},
	{"parasol sim --op tr", []string{"transpose", "treebarrier"}},
	{"parasol sim std:xmp64 --routing ec", []string{"ecube"}},
	{"parasol sim --switching w", []string{"wormhole"}},
	{"parasol draw std:xmp64 --format ", []string{"dot", "svg"}},
	{"parasol completion ", []string{"bash", "fish", "zsh"}},
	{"parasol fmt -", []string{"-d", "-l", "-w"}},
	{"parasol draw std:xmp64 --sim-result res", []string{"result.json"}},
	{"parasol check ma", []string{"machine.machine"}},
	{"parasol fit l", []string{"linear", "loggp"}},
	{"parasol fit --relative k", []string{"k123", "k45"}},
	{"parasol probe ", []string{"measure", "serve"}},
	{"parasol probe measure --ho", []string{"--hostfile"}},
	{"parasol probe serve --li", []string{"--listen"}},
}

func completionDir(t *testing.T) string {
	dir := t.TempDir()
	for _, f := range []string{"machine.machine", "result.json"} {
		if err := os.WriteFile(filepath.Join(dir, f), nil, 0o666); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func TestBashCompletesCommandsFlagsValuesAndMachines(t *testing.T) {
	bash, err := exec.LookPath("bash")
	if err != nil {
		t.Skip("no bash")
	}
	dir := completionDir(t)
	script := filepath.Join(dir, "parasol.bash")
	if err := os.WriteFile(script, []byte(completionScript(t, "bash")), 0o666); err != nil {
		t.Fatal(err)
	}
	cases := append(completionCases[:len(completionCases):len(completionCases)], []struct {
		line string
		want []string
	}{
		// Bash splits words at ':' and '=': only the part after them is
		// replaced.
		{"parasol sim std:xm", []string{"xmp64"}},
		{"parasol sim --op=xmp", []string{"xmp-transpose"}},
		// The positional argument after a flag's value is still the MACHINE.
		{"parasol sim --op send std:c104", []string{"c104-chain"}},
		{"parasol sim std:xmp64 ", nil},
	}...)
	for _, c := range cases {
		cmd := exec.Command(bash, "--norc", "--noprofile", "-c", `source "$1"; COMP_LINE=$2; COMP_POINT=${#2}; _parasol; printf '%s\n' "${COMPREPLY[@]}"`, "bash", script, c.line)
		cmd.Dir = dir
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("%q: %v: %s", c.line, err, out)
		}
		if got := sortedLines(string(out)); !reflect.DeepEqual(got, c.want) {
			t.Errorf("bash completes %q to %q, want %q", c.line, got, c.want)
		}
	}
}

func TestFishCompletesCommandsFlagsValuesAndMachines(t *testing.T) {
	fish, err := exec.LookPath("fish")
	if err != nil {
		t.Skip("no fish")
	}
	dir := completionDir(t)
	script := filepath.Join(dir, "parasol.fish")
	if err := os.WriteFile(script, []byte(completionScript(t, "fish")), 0o666); err != nil {
		t.Fatal(err)
	}
	cases := append(completionCases[:len(completionCases):len(completionCases)], struct {
		line string
		want []string
	}{"parasol sim std:xm", []string{"std:xmp64"}})
	for _, c := range cases {
		cmd := exec.Command(fish, "--no-config", "-c", `source $argv[1]; complete -C $argv[2] | string replace -r '\t.*' ''; true`, script, c.line)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "HOME="+dir, "XDG_CONFIG_HOME="+dir, "XDG_DATA_HOME="+dir)
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("%q: %v: %s", c.line, err, out)
		}
		if got := sortedLines(string(out)); !reflect.DeepEqual(got, c.want) {
			t.Errorf("fish completes %q to %q, want %q", c.line, got, c.want)
		}
	}
}

func TestZshCompletionIsValidZsh(t *testing.T) {
	zsh, err := exec.LookPath("zsh")
	if err != nil {
		t.Skip("no zsh")
	}
	dir := t.TempDir()
	script := filepath.Join(dir, "_parasol")
	if err := os.WriteFile(script, []byte(completionScript(t, "zsh")), 0o666); err != nil {
		t.Fatal(err)
	}
	// Loaded after compinit, the script defines its functions and
	// registers them for parasol.
	cmd := exec.Command(zsh, "-f", "-c", `autoload -U compinit && compinit -u -d "$2/zcompdump" && source "$1" && whence -w _parasol _parasol_machines && print $_comps[parasol]`, "zsh", script, dir)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	if want := "_parasol: function\n_parasol_machines: function\n_parasol\n"; string(out) != want {
		t.Errorf("zsh says %q, want %q", out, want)
	}
}

func TestCompletionRefusesUnknownShells(t *testing.T) {
	for _, args := range [][]string{{"completion"}, {"completion", "tcsh"}, {"completion", "bash", "zsh"}} {
		var out bytes.Buffer
		e := &env{stdin: strings.NewReader(""), stdout: &out, stderr: &out}
		if code := run(e, args); code != exitUsage {
			t.Errorf("parasol %s: exit status %d, want %d", strings.Join(args, " "), code, exitUsage)
		}
	}
}

func sortedLines(s string) []string {
	var out []string
	for _, l := range strings.Split(strings.TrimSpace(s), "\n") {
		if l != "" {
			out = append(out, l)
		}
	}
	if out == nil {
		return nil
	}
	sort.Strings(out)
	return out
}
