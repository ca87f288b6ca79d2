package main

import (
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
			line := "parasol " + name + rest
			c, path := commandNamed(name), name
			if c == nil {
				t.Errorf("%s: no command %s", line, name)
				continue
			}
			words, err := splitWords(strings.ReplaceAll(rest, "$i", "0"))
			if err != nil {
				t.Errorf("%s: %v", line, err)
				continue
			}
			for i, w := range words {
				if strings.ContainsAny(w[:1], "|>&;") {
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
			if _, err = parseInterspersed(fs, words); err != nil {
				t.Errorf("%s: %v", line, err)
			}
			examples++
		}
	}
	if examples < 30 {
		t.Errorf("found %d examples in the help texts; the pattern has stopped matching them", examples)
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
