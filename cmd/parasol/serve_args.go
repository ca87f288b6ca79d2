package main

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strings"

	"github.com/parasol-lang/parasol/lang"
)

// A requestKey is one key a request to a served command may hold: a
// positional argument of the command's usage line or one of its flags.
type requestKey struct {
	name string
	// word is the argument's word in the usage line (MACHINE), "" for a
	// flag.
	word string
	flag *flag.Flag
	kind flagKind
}

// flagKind is the JSON a key takes.
type flagKind int

const (
	kindString  flagKind = iota // a string, or a number given as one
	kindBool                    // a switch: true or false
	kindInt                     // a whole number
	kindNumber                  // a number
	kindStrings                 // a list of strings (a repeated flag, or EXPR...)
)

// kindOf is the JSON a flag takes, from the type of its value: a switch,
// a number, a repeatable flag (its value a slice) or a string.
func kindOf(f *flag.Flag) flagKind {
	if b, ok := f.Value.(interface{ IsBoolFlag() bool }); ok && b.IsBoolFlag() {
		return kindBool
	}
	v := reflect.ValueOf(f.Value)
	for v.Kind() == reflect.Pointer {
		v = v.Elem()
	}
	switch v.Kind() {
	case reflect.Int, reflect.Int64, reflect.Uint, reflect.Uint64:
		return kindInt
	case reflect.Float64:
		return kindNumber
	case reflect.Slice:
		return kindStrings
	}
	return kindString
}

// takesFile reports whether a flag's value names a file (its usage says
// FILE): one the command reads or writes, which a request may give only
// under serve --allow-files.
func takesFile(f *flag.Flag) bool {
	name, _ := flag.UnquoteUsage(f)
	return name == "FILE"
}

// requestKeys are the keys of a request to c, in the order of the usage
// line's arguments and then of the flags' names: each argument by its word
// in lower case ("machine", and "exprs" for the repeated EXPR...), each
// flag by its name, or by "--NAME" when an argument has its name (run's
// --program beside its PROGRAM). The flags the server sets are left out.
func requestKeys(c *command) []requestKey {
	fs := newFlagSet(c.name)
	c.flags(&env{}, fs)
	var keys []requestKey
	words, repeat := usageWords(c.args)
	args := map[string]bool{}
	for i, w := range words {
		k := requestKey{name: strings.ToLower(w), word: w, kind: kindString}
		if repeat && i == len(words)-1 {
			k.name += "s"
			k.kind = kindStrings
		}
		args[k.name] = true
		keys = append(keys, k)
	}
	fs.VisitAll(func(f *flag.Flag) {
		if _, ok := serverFlags[f.Name]; ok {
			return
		}
		k := requestKey{name: f.Name, flag: f, kind: kindOf(f)}
		if args[k.name] {
			k.name = "--" + k.name
		}
		keys = append(keys, k)
	})
	return keys
}

// commandLine is the command line of c that a request's body stands for:
// its flags as --NAME=VALUE, then --json, then "--" and its arguments, so
// that no argument is read as a flag.
func (s *server) commandLine(c *command, body map[string]any) ([]string, error) {
	keys := requestKeys(c)
	byName := map[string]requestKey{}
	var names []string
	for _, k := range keys {
		byName[k.name] = k
		names = append(names, k.name)
	}
	given := make([]string, 0, len(body))
	for name := range body {
		given = append(given, name)
	}
	sort.Strings(given)
	var flags []string
	args := map[string][]string{}
	for _, name := range given {
		k, ok := byName[name]
		if !ok && strings.HasPrefix(name, "--") {
			k, ok = byName[name[2:]] // "--op" as well as "op"
		}
		if !ok {
			if why, ok := serverFlags[strings.TrimPrefix(name, "--")]; ok {
				return nil, keyError(http.StatusBadRequest, name, "key %q: %s", name, why)
			}
			return nil, keyError(http.StatusBadRequest, name, "/v1/%s has no key %q%s; it takes %s", c.name, name, lang.DidYouMean(name, names), strings.Join(names, ", "))
		}
		values, err := keyValues(k, body[name])
		if err != nil {
			return nil, keyError(http.StatusBadRequest, name, "key %q: %v", name, err)
		}
		if k.flag != nil && takesFile(k.flag) && !s.opts.allowFiles {
			return nil, keyError(http.StatusForbidden, name, "key %q names a file for the server to read or write, which it does only when started with --allow-files", name)
		}
		if k.kind == kindString || k.kind == kindStrings {
			for _, v := range values {
				if err := s.mayRead(v); err != nil {
					return nil, keyError(http.StatusForbidden, name, "key %q: %v", name, err)
				}
			}
		}
		if k.flag == nil {
			args[k.name] = values
			continue
		}
		for _, v := range values {
			flags = append(flags, "--"+k.flag.Name+"="+v)
		}
	}
	cmdline := append(flags, "--json", "--")
	var missing string
	for _, k := range keys {
		if k.flag != nil {
			break // the arguments come first
		}
		v, ok := args[k.name]
		switch {
		case !ok && missing == "":
			missing = k.name
		case ok && missing != "":
			return nil, keyError(http.StatusBadRequest, k.name, "key %q needs %q: /v1/%s's arguments are %s", k.name, missing, c.name, strings.Join(argNames(keys), ", "))
		}
		cmdline = append(cmdline, v...)
	}
	return cmdline, nil
}

// argNames are the names of the keys that are arguments, in order.
func argNames(keys []requestKey) []string {
	var names []string
	for _, k := range keys {
		if k.flag == nil {
			names = append(names, fmt.Sprintf("%q", k.name))
		}
	}
	return names
}

// keyValues are a key's JSON value as the command line's words: a switch
// "true" or "false", a number as written, a string, each of a list.
func keyValues(k requestKey, v any) ([]string, error) {
	if list, ok := v.([]any); ok {
		if k.kind != kindStrings {
			return nil, fmt.Errorf("takes one value, not a list")
		}
		var words []string
		for _, x := range list {
			w, err := keyValues(requestKey{kind: kindString}, x)
			if err != nil {
				return nil, err
			}
			words = append(words, w...)
		}
		return words, nil
	}
	switch v := v.(type) {
	case bool:
		if k.kind != kindBool {
			return nil, fmt.Errorf("takes a %s, not true or false", kindName(k.kind))
		}
		return []string{fmt.Sprint(v)}, nil
	case json.Number:
		if k.kind == kindBool {
			return nil, fmt.Errorf("takes true or false, not %s", v)
		}
		return []string{v.String()}, nil
	case string:
		if k.kind == kindBool {
			return nil, fmt.Errorf("takes true or false, not %q", v)
		}
		return []string{v}, nil
	}
	return nil, fmt.Errorf("takes a %s, not %s", kindName(k.kind), jsonText(v))
}

// kindName is what a key of kind k takes, in words.
func kindName(k flagKind) string {
	switch k {
	case kindBool:
		return "boolean"
	case kindInt:
		return "whole number"
	case kindNumber:
		return "number"
	case kindStrings:
		return "string or list of strings"
	}
	return "string"
}

// jsonText is a decoded JSON value written back, for an error.
func jsonText(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	return lang.Excerpt(string(b))
}

// mayRead refuses a value naming a file outside the working directory
// (symbolic links followed), unless the server runs with --allow-files,
// and standard input ("-") always: the server's is not the client's. A
// value that names no file (an expression, a program's statements,
// std:NAME, a name) passes: the command decides what it means.
func (s *server) mayRead(v string) error {
	if v == "-" {
		return fmt.Errorf(`"-" would read the server's standard input; send the text's file name instead`)
	}
	if s.opts.allowFiles {
		return nil
	}
	if _, err := os.Lstat(v); err != nil {
		return nil
	}
	abs, err := filepath.Abs(v)
	if err == nil {
		abs, err = filepath.EvalSymlinks(abs)
	}
	if err == nil {
		var rel string
		if rel, err = filepath.Rel(s.wd, abs); err == nil && filepath.IsLocal(rel) {
			return nil
		}
	}
	return fmt.Errorf("%s is outside the server's working directory, %s: the server reads files only inside it unless started with --allow-files", v, s.wd)
}

// keyError is a request refused for its key named key, which the error
// is placed at.
func keyError(status int, key, format string, args ...any) *requestError {
	return &requestError{status: status, msg: fmt.Sprintf(format, args...), key: key}
}

// keyOffset is the offset of the key named key in the JSON object data,
// the first of its name, or -1.
func keyOffset(data []byte, key string) int {
	dec := json.NewDecoder(bytes.NewReader(data))
	if _, err := dec.Token(); err != nil { // {
		return -1
	}
	for dec.More() {
		off := int(dec.InputOffset())
		tok, err := dec.Token()
		if err != nil {
			return -1
		}
		if tok == key {
			// The offset is where the decoder stood: before the comma
			// and the space that lead to the key.
			return off + bytes.IndexByte(data[off:], '"')
		}
		var value json.RawMessage
		if err := dec.Decode(&value); err != nil {
			return -1
		}
	}
	return -1
}
