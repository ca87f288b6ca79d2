package results

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"unicode"
)

// Study is the identity of a sweep: everything on its command line that
// shapes its output (the command, the machine, the format, the flags and
// the --set and --arg axes), but not how it is run (workers, memory, the
// shard). A shard's output starts with it, as a line of its own (Line),
// so that merge joins only shards of one study; the whole sweep's output
// has none. The machine is identified by its text (MachineHash), not by
// where it was read: the same file at another path is the same study, a
// file changed at the same path another.
type Study struct {
	// ID is a short hash of the rest, the machine's path left out, to
	// tell studies apart at a glance.
	ID      string `json:"parasol_study"`
	Command string `json:"command"`
	// Machine is the machine as the command line gave it (a path or
	// std:NAME), shown but not compared when MachineHash is known.
	Machine string `json:"machine"`
	// MachineHash identifies the machine's text (eval.Machine.SourceHash):
	// its file's and its imports'. Empty in a study printed before shards
	// carried it, whose machine is then compared by its path.
	MachineHash string `json:"machine_hash,omitempty"`
	Format      string `json:"format"`
	// Flags are the flags given other than the axes, by name, each with
	// its value as the flag prints it.
	Flags []Flag `json:"flags"`
	// Axes are the --set and --arg axes, in command-line order.
	Axes []Flag `json:"axes"`
}

// Flag is a flag of a Study: its name without dashes and its value.
type Flag struct {
	Name  string `json:"flag"`
	Value string `json:"value"`
}

// NewStudy is the Study of a sweep, its ID computed; flags are sorted by
// name, axes kept in order. machineHash identifies the machine's text
// (eval.Machine.SourceHash); format is the --format value (json, csv or
// text).
func NewStudy(command, machine, machineHash, format string, flags, axes []Flag) *Study {
	s := &Study{Command: command, Machine: machine, MachineHash: machineHash, Format: format, Flags: flags, Axes: axes}
	if s.Flags == nil {
		s.Flags = []Flag{}
	}
	if s.Axes == nil {
		s.Axes = []Flag{}
	}
	identity := s.commandLine()
	if machineHash != "" {
		// The same study wherever its machine's file is.
		identity = s.commandLineOf("=" + machineHash)
	}
	sum := sha256.Sum256([]byte(identity))
	s.ID = hex.EncodeToString(sum[:6])
	return s
}

// studyComment starts a study line in a text or CSV output.
const studyComment = "# parasol study "

// studyJSON starts a study line in a JSON output.
const studyJSON = `{"parasol_study":`

// Line is the study as the first line of a shard's output in format:
// a JSON object in JSON lines, else a comment with the machine's hash and
// the command line, "# parasol study ID, machine HASH: parasol sweep
// MACHINE --flag=value …".
func (s *Study) Line(format string) string {
	if format == "json" {
		var b bytes.Buffer
		enc := json.NewEncoder(&b)
		enc.SetEscapeHTML(false)
		_ = enc.Encode(s) // strings only: it cannot fail
		return b.String()
	}
	id := s.ID
	if s.MachineHash != "" {
		id += studyMachine + s.MachineHash
	}
	return studyComment + id + ": " + s.commandLine() + "\n"
}

// studyMachine stands between a study line's ID and its machine's hash.
const studyMachine = ", machine "

// commandLine is "parasol COMMAND MACHINE --format=F --flag=value …", the
// values quoted where they would not read back as one word.
func (s *Study) commandLine() string { return s.commandLineOf(quoteWord(s.Machine)) }

// commandLineOf is commandLine with machine in the machine's place.
func (s *Study) commandLineOf(machine string) string {
	var b strings.Builder
	b.WriteString("parasol " + s.Command + " " + machine + " --format=" + quoteWord(s.Format))
	for _, f := range append(append([]Flag{}, s.Flags...), s.Axes...) {
		b.WriteString(" --" + f.Name + "=" + quoteWord(f.Value))
	}
	return b.String()
}

// quoteWord is v, or v as a Go string literal when it is empty or holds
// a space, a quote or a character that does not print.
func quoteWord(v string) string {
	if v == "" || strings.ContainsFunc(v, func(r rune) bool { return unicode.IsSpace(r) || r == '"' || !unicode.IsPrint(r) }) {
		return strconv.Quote(v)
	}
	return v
}

// isStudyLine reports whether line is a study line (Study.Line).
func isStudyLine(line []byte) bool {
	return bytes.HasPrefix(line, []byte(studyJSON)) || bytes.HasPrefix(line, []byte(studyComment))
}

// parseStudy reads a study line back.
func parseStudy(line []byte) (*Study, error) {
	if bytes.HasPrefix(line, []byte(studyJSON)) {
		var s Study
		dec := json.NewDecoder(bytes.NewReader(line))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&s); err != nil {
			return nil, err
		}
		return NewStudy(s.Command, s.Machine, s.MachineHash, s.Format, s.Flags, s.Axes), nil
	}
	rest := strings.TrimSuffix(strings.TrimPrefix(string(line), studyComment), "\n")
	id, rest, ok := strings.Cut(rest, ": parasol ")
	if !ok {
		return nil, fmt.Errorf("want %q", studyComment+"ID, machine HASH: parasol COMMAND MACHINE --flag=value …")
	}
	_, hash, _ := strings.Cut(id, studyMachine)
	words, err := splitStudyWords(rest)
	if err != nil {
		return nil, err
	}
	if len(words) < 3 || !strings.HasPrefix(words[2], "--format=") {
		return nil, fmt.Errorf("want COMMAND MACHINE --format=FORMAT after \"parasol\"")
	}
	var flags, axes []Flag
	for _, w := range words[3:] {
		name, value, ok := strings.Cut(strings.TrimPrefix(w, "--"), "=")
		if !ok || !strings.HasPrefix(w, "--") {
			return nil, fmt.Errorf("%q: want --flag=value", w)
		}
		if name == "set" || name == "arg" {
			axes = append(axes, Flag{name, value})
		} else {
			flags = append(flags, Flag{name, value})
		}
	}
	return NewStudy(words[0], words[1], hash, strings.TrimPrefix(words[2], "--format="), flags, axes), nil
}

// splitStudyWords splits a study's command line at its spaces, reading
// each quoted value (quoteWord) back.
func splitStudyWords(s string) ([]string, error) {
	var out []string
	for s != "" {
		var w strings.Builder
		for s != "" && s[0] != ' ' {
			if s[0] != '"' {
				w.WriteByte(s[0])
				s = s[1:]
				continue
			}
			q, err := strconv.QuotedPrefix(s)
			if err != nil {
				return nil, fmt.Errorf("%.40q: a value's quotes do not close", s)
			}
			v, _ := strconv.Unquote(q)
			w.WriteString(v)
			s = s[len(q):]
		}
		out = append(out, w.String())
		s = strings.TrimPrefix(s, " ")
	}
	return out, nil
}

// ReadStudy reads the study of a sweep's output, read from name: its
// first line's, nil when the output is not a shard's (a whole sweep's,
// or a shard's printed before shards carried their study). A study line
// further on (shards' outputs joined by cat) must be the same study;
// defaults are as Diff's.
func ReadStudy(name string, data []byte, defaults map[string]string) (*Study, error) {
	var first *Study
	for n, rest := 1, data; len(rest) > 0; n++ {
		line := rest
		if i := bytes.IndexByte(rest, '\n'); i >= 0 {
			line, rest = rest[:i+1], rest[i+1:]
		} else {
			rest = nil
		}
		if !isStudyLine(line) {
			continue
		}
		s, err := parseStudy(line)
		if err != nil {
			return nil, fmt.Errorf("%s:%d: not a study line: %v", name, n, err)
		}
		if first == nil {
			if n > 1 {
				return nil, fmt.Errorf("%s:%d: a study line after points of no study", name, n)
			}
			first = s
		} else if a, b, differ := first.Diff(s, defaults); differ {
			return nil, fmt.Errorf("%s:1 is a sweep of %s, %s:%d of %s: not shards of one sweep", name, a, name, n, b)
		}
	}
	return first, nil
}

// Diff names the first difference between two studies: the command, the
// machine (its text, or its path when a study has no MachineHash), the
// format, the flags in the order of their names, then the axes. a and b
// say what each study has there ("--op randperm", "--op send (the
// default)", "the default --size", "machine m.machine (text 3f2a9c1b2d4e)");
// defaults are the command's flags' default values, by name, for a study
// that leaves a flag at its default (nil: unnamed). differ is false for
// one study.
func (s *Study) Diff(o *Study, defaults map[string]string) (a, b string, differ bool) {
	switch {
	case s.Command != o.Command:
		return "parasol " + s.Command, "parasol " + o.Command, true
	case s.MachineHash != "" && o.MachineHash != "":
		if s.MachineHash != o.MachineHash {
			// Say it is the text that differs, at one path or two.
			return "machine " + s.Machine + " (text " + s.MachineHash + ")", "machine " + o.Machine + " (text " + o.MachineHash + ")", true
		}
	case s.Machine != o.Machine:
		return "machine " + s.Machine, "machine " + o.Machine, true
	}
	if s.Format != o.Format {
		return "--format " + s.Format, "--format " + o.Format, true
	}
	value := func(flags []Flag, name string) (string, bool) {
		for _, f := range flags {
			if f.Name == name {
				return f.Value, true
			}
		}
		return "", false
	}
	var names []string
	for _, f := range append(append([]Flag{}, s.Flags...), o.Flags...) {
		names = append(names, f.Name)
	}
	// The first name in order at which the two differ.
	first := ""
	for _, n := range names {
		va, oka := value(s.Flags, n)
		vb, okb := value(o.Flags, n)
		if (va != vb || oka != okb) && (first == "" || n < first) {
			first = n
		}
	}
	if first != "" {
		describe := func(flags []Flag) string {
			if v, ok := value(flags, first); ok {
				return "--" + first + " " + v
			}
			if d, ok := defaults[first]; ok && d != "" {
				return "--" + first + " " + d + " (the default)"
			}
			return "the default --" + first
		}
		return describe(s.Flags), describe(o.Flags), true
	}
	axes := func(axes []Flag) string {
		if len(axes) == 0 {
			return "no --set or --arg axis"
		}
		var w []string
		for _, f := range axes {
			w = append(w, "--"+f.Name+" "+f.Value)
		}
		return strings.Join(w, " ")
	}
	if !slices.Equal(s.Axes, o.Axes) {
		return axes(s.Axes), axes(o.Axes), true
	}
	return "", "", false
}
