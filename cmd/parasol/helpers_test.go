package main

import (
	"bytes"
	"encoding/xml"
	"errors"
	"io"
	"os"
	"strings"
	"testing"

	"github.com/parasol-lang/parasol/parser"
)

// clip shortens s to its first 2,000 bytes for a failure message.
func clip(s string) string {
	if len(s) > 2000 {
		return s[:2000] + "…"
	}
	return s
}

// requireFormatted fails unless the file is as parasol fmt leaves it.
func requireFormatted(t *testing.T, path string) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	f, err := parser.ParseFile(path, string(data))
	if err != nil {
		t.Fatal(err)
	}
	if want, err := formatChecked(f); err != nil || want != string(data) {
		t.Errorf("%s is not formatted (parasol fmt -d shows how): %v", path, err)
	}
}

// runInProcess runs parasol with args and returns its standard output.
func runInProcess(t *testing.T, args ...string) []byte {
	t.Helper()
	var out, errOut bytes.Buffer
	e := &env{stdin: strings.NewReader(""), stdout: &out, stderr: &errOut}
	if code := run(e, args); code != 0 {
		t.Fatalf("parasol %s: exit status %d: %s", strings.Join(args, " "), code, errOut.String())
	}
	return out.Bytes()
}

// svgTexts returns every text element of an SVG file, failing the test if
// the file is not well-formed XML.
func svgTexts(t *testing.T, path string) map[string]bool {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	dec := xml.NewDecoder(bytes.NewReader(data))
	texts := map[string]bool{}
	inText := false
	for {
		tok, err := dec.Token()
		if errors.Is(err, io.EOF) {
			return texts
		}
		if err != nil {
			t.Fatalf("%s is not well-formed XML: %v", path, err)
		}
		switch tok := tok.(type) {
		case xml.StartElement:
			inText = tok.Name.Local == "text"
		case xml.CharData:
			if inText {
				texts[strings.TrimSpace(string(tok))] = true
			}
		case xml.EndElement:
			inText = false
		}
	}
}

// runParasol runs the command line args in this process on the real
// standard streams and returns the exit code (testscript's `exec parasol`).
func runParasol(args []string) int {
	e := &env{stdin: os.Stdin, stdout: os.Stdout, stderr: os.Stderr, isTerminal: false}
	return run(e, args)
}
