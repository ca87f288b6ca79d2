package lsp

import (
	"sync"

	protocol "github.com/tliron/glsp/protocol_3_16"
)

// Checking a document is what `parasol check` does, which for a large
// machine (its networks built, its routing checked for deadlock) takes
// longer than a keystroke. It runs beside the request loop, so that hover
// and completion answer meanwhile, one check a document at a time: an
// edit made while its document is being checked waits, and only the
// latest of those waiting is checked next. What a check finds is
// published unless a newer text is waiting or the document was closed,
// so the editor never shows the diagnostics of an older text after those
// of a newer one.
type checks struct {
	mu      sync.Mutex
	running map[protocol.DocumentUri]bool
	waiting map[protocol.DocumentUri]check
	closed  map[protocol.DocumentUri]bool
	wg      sync.WaitGroup
}

// check is one document's text to check, with the open documents' texts
// when it was made.
type check struct {
	d    *document
	open map[string]string
}

// start checks d, now or once its document's running check ends.
func (c *checks) start(s *server, d *document, open map[string]string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.running == nil {
		c.running, c.waiting, c.closed = map[protocol.DocumentUri]bool{}, map[protocol.DocumentUri]check{}, map[protocol.DocumentUri]bool{}
	}
	delete(c.closed, d.uri)
	if c.running[d.uri] {
		c.waiting[d.uri] = check{d, open}
		return
	}
	c.running[d.uri] = true
	c.wg.Add(1)
	go c.run(s, check{d, open})
}

// run checks documents until none of its document waits.
func (c *checks) run(s *server, k check) {
	defer c.wg.Done()
	for {
		ds := k.d.diagnose(k.open)
		c.mu.Lock()
		next, newer := c.waiting[k.d.uri]
		if !newer && !c.closed[k.d.uri] {
			// Sent under the lock, so that close's empty list, sent
			// under it too, comes after.
			v := protocol.UInteger(max(k.d.version, 0))
			s.notify(protocol.ServerTextDocumentPublishDiagnostics, protocol.PublishDiagnosticsParams{URI: k.d.uri, Version: &v, Diagnostics: ds})
		}
		if !newer {
			delete(c.running, k.d.uri)
			c.mu.Unlock()
			return
		}
		delete(c.waiting, k.d.uri)
		c.mu.Unlock()
		k = next
	}
}

// close forgets a closed document's checks and clears its diagnostics.
func (c *checks) close(s *server, uri protocol.DocumentUri) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.closed == nil {
		c.closed = map[protocol.DocumentUri]bool{}
	}
	c.closed[uri] = true
	delete(c.waiting, uri)
	s.notify(protocol.ServerTextDocumentPublishDiagnostics, protocol.PublishDiagnosticsParams{URI: uri, Diagnostics: []protocol.Diagnostic{}})
}

// wait waits for the checks running to end.
func (c *checks) wait() { c.wg.Wait() }
