package lsp

import (
	"path/filepath"
	"strings"
	"testing"
)

// Every request at the start of every word of every example file, and
// of every tenth word of the standard machines (and of each with a line
// cut off halfway, as while typing), is answered
// without an error: hover, completion, definition, references, symbols,
// semantic tokens, formatting.
func TestEveryExampleAnswersEveryRequest(t *testing.T) {
	files, _ := filepath.Glob("../examples/*.machine")
	progs, _ := filepath.Glob("../examples/programs/*.machine")
	files = append(files, progs...)
	if len(files) < 8 {
		t.Fatalf("found %d example files", len(files))
	}
	// The standard machines too, at every tenth word: they are larger.
	std, _ := filepath.Glob("../stdlib/machines/*.machine")
	if len(std) < 10 {
		t.Fatalf("found %d standard machines", len(std))
	}
	stride := map[string]int{}
	for _, f := range std {
		stride[f] = 10
	}
	files = append(files, std...)
	if testing.Short() {
		files = files[:3]
	}
	c := start(t)
	c.initialize()
	requests := 0
	for _, f := range files {
		uri, text := fixture(t, filepath.Join("..", f))
		versions := []string{text}
		if mid := strings.Index(text[len(text)/2:], "\n"); mid > 0 {
			cut := len(text)/2 + mid/2
			versions = append(versions, text[:cut]+text[cut+mid/2:])
		}
		every := max(stride[f], 1)
		for v, body := range versions {
			if v == 0 {
				c.open(uri, body)
			} else {
				c.change(uri, body, v+1)
			}
			doc := map[string]any{"textDocument": map[string]any{"uri": uri}}
			c.call("textDocument/documentSymbol", doc, nil)
			c.call("textDocument/semanticTokens/full", doc, nil)
			// Formatting refuses a file cut halfway or in the Parasol I
			// format, with a message; it never fails inside.
			if err := c.try("textDocument/formatting", map[string]any{"textDocument": map[string]any{"uri": uri},
				"options": map[string]any{"tabSize": 4, "insertSpaces": false}}, nil); err != nil && strings.Contains(err.Error(), "internal error") {
				t.Errorf("%s: formatting: %v", f, err)
			}
			ls := lineStarts(body)
			words := 0
			for i := 0; i < len(body); i++ {
				if !isWordByte(body[i]) || i > 0 && isWordByte(body[i-1]) {
					continue
				}
				if words++; words%every != 0 {
					continue
				}
				p := ls.position(body, i)
				pos := position{Line: int(p.Line), Character: int(p.Character)}
				c.hover(uri, pos)
				c.call("textDocument/completion", at(uri, pos), nil)
				c.call("textDocument/definition", at(uri, pos), nil)
				c.call("textDocument/references", map[string]any{"textDocument": map[string]any{"uri": uri},
					"position": pos, "context": map[string]any{"includeDeclaration": true}}, nil)
				requests += 4
			}
		}
	}
	if requests < 1000 {
		t.Errorf("only %d requests made", requests)
	}
}
