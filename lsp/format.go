package lsp

import (
	"fmt"

	protocol "github.com/tliron/glsp/protocol_3_16"
)

// format is the document formatted by Options.Format, as one edit of the
// whole text (none when it is formatted already). A document that does
// not parse, or is in the Parasol I format, is an error saying so.
func (s *server) format(d *document) ([]protocol.TextEdit, error) {
	if d.file == nil {
		return nil, fmt.Errorf("%s does not parse; formatting needs a file without syntax errors (see the diagnostics)", d.path)
	}
	if d.file.Legacy {
		return nil, fmt.Errorf("%s is in the Parasol I format; convert it with: parasol import %s", d.path, d.path)
	}
	out, err := s.opts.Format(d.file)
	if err != nil {
		return nil, err
	}
	if out == d.text {
		return []protocol.TextEdit{}, nil
	}
	return []protocol.TextEdit{{Range: d.lines.span(d.text, 0, len(d.text)), NewText: out}}, nil
}
