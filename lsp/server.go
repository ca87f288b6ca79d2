package lsp

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/url"
	"path/filepath"
	"runtime/debug"
	"strings"

	"github.com/parasol-lang/parasol/eval"
	"github.com/parasol-lang/parasol/lang"
	"github.com/sourcegraph/jsonrpc2"
	"github.com/tliron/glsp"
	protocol "github.com/tliron/glsp/protocol_3_16"
)

// Options configures a server.
type Options struct {
	// Format formats a parsed file for textDocument/formatting: the
	// command line's checked formatter (parse again, same meaning). Nil
	// leaves formatting unadvertised.
	Format func(*lang.File) (string, error)
	// MaxMemory bounds what checking and loading a document may allocate
	// (eval.WithMaxMemory); 0 is the default limit.
	MaxMemory int64
	// Version is the server's version, told to the client.
	Version string
}

// server is one connection's state: its options and open documents.
type server struct {
	opts Options
	docs map[protocol.DocumentUri]*document
	// notify sends a notification to the client.
	notify func(method string, params any)
	// lastGood are each document's machines as last loaded: completion
	// while the text is being typed (and does not load) offers their names.
	lastGood map[protocol.DocumentUri]map[string]*eval.Machine
	checks   checks
}

// Serve runs the language server on one connection, reading requests
// from r and writing responses and notifications to w, until the client
// sends exit, r ends or ctx is cancelled.
func Serve(ctx context.Context, r io.Reader, w io.Writer, opts Options) error {
	s := &server{opts: opts, docs: map[protocol.DocumentUri]*document{}, lastGood: map[protocol.DocumentUri]map[string]*eval.Machine{}}
	h := s.handler()
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	// Notifications are sent from the request loop and from the checks
	// running beside it; they wait until the connection is made.
	ready := make(chan struct{})
	var conn *jsonrpc2.Conn
	s.notify = func(method string, params any) {
		<-ready
		conn.Notify(ctx, method, params) //nolint:errcheck // a closed connection ends Serve
	}
	defer s.checks.wait()
	conn = jsonrpc2.NewConn(ctx, jsonrpc2.NewBufferedStream(stream{r, w}, jsonrpc2.VSCodeObjectCodec{}),
		jsonrpc2.HandlerWithError(func(ctx context.Context, c *jsonrpc2.Conn, req *jsonrpc2.Request) (result any, err error) {
			defer func() {
				// A bug answers one request with an error, not the
				// editor's whole session with a crash.
				if p := recover(); p != nil {
					result, err = nil, &jsonrpc2.Error{Code: jsonrpc2.CodeInternalError,
						Message: fmt.Sprintf("parasol lsp: internal error in %s: %v\n%s", req.Method, p, debug.Stack())}
				}
			}()
			gc := &glsp.Context{Method: req.Method, Notify: s.notify}
			if req.Params != nil {
				gc.Params = *req.Params
			}
			if req.Method == protocol.MethodExit {
				s.checks.wait() // what was opened before exit is published
				cancel()
				return nil, nil
			}
			res, validMethod, validParams, err := h.Handle(gc)
			switch {
			case !validMethod:
				return nil, &jsonrpc2.Error{Code: jsonrpc2.CodeMethodNotFound, Message: "method not supported: " + req.Method}
			case !validParams:
				msg := "invalid parameters of " + req.Method
				if err != nil {
					msg += ": " + err.Error()
				}
				return nil, &jsonrpc2.Error{Code: jsonrpc2.CodeInvalidParams, Message: msg}
			case err != nil:
				return nil, &jsonrpc2.Error{Code: jsonrpc2.CodeInvalidRequest, Message: err.Error()}
			}
			return res, nil
		}))
	close(ready)
	select {
	case <-ctx.Done():
		if err := conn.Close(); err != nil && !errors.Is(err, jsonrpc2.ErrClosed) {
			return err
		}
		return nil
	case <-conn.DisconnectNotify():
		return nil // the client closed the stream: the session is over
	}
}

// stream joins a reader and a writer into the connection jsonrpc2 reads
// and writes; closing it closes whichever of them can be closed.
type stream struct {
	io.Reader
	io.Writer
}

func (s stream) Close() error {
	if c, ok := s.Reader.(io.Closer); ok {
		c.Close()
	}
	if c, ok := s.Writer.(io.Closer); ok {
		return c.Close()
	}
	return nil
}

// handler declares the methods the server answers; glsp decodes their
// parameters and derives the capabilities from which are set.
func (s *server) handler() *protocol.Handler {
	h := &protocol.Handler{}
	h.Initialize = func(_ *glsp.Context, _ *protocol.InitializeParams) (any, error) {
		caps := h.CreateServerCapabilities()
		full := protocol.TextDocumentSyncKindFull
		caps.TextDocumentSync = &protocol.TextDocumentSyncOptions{OpenClose: &protocol.True, Change: &full}
		caps.CompletionProvider = &protocol.CompletionOptions{TriggerCharacters: []string{".", ":", `"`}}
		caps.SemanticTokensProvider = legend()
		caps.CodeActionProvider = &protocol.CodeActionOptions{CodeActionKinds: []protocol.CodeActionKind{protocol.CodeActionKindQuickFix}}
		version := s.opts.Version
		return protocol.InitializeResult{Capabilities: caps,
			ServerInfo: &protocol.InitializeResultServerInfo{Name: "parasol", Version: &version}}, nil
	}
	h.Initialized = func(*glsp.Context, *protocol.InitializedParams) error { return nil }
	h.Shutdown = func(*glsp.Context) error {
		// The diagnostics of every text received are sent before the
		// answer, so that a client that stops at it has them all.
		s.checks.wait()
		return nil
	}
	h.SetTrace = func(*glsp.Context, *protocol.SetTraceParams) error { return nil }
	h.WorkspaceDidChangeConfiguration = func(*glsp.Context, *protocol.DidChangeConfigurationParams) error { return nil }
	h.TextDocumentDidOpen = func(_ *glsp.Context, p *protocol.DidOpenTextDocumentParams) error {
		s.open(p.TextDocument.URI, p.TextDocument.Version, p.TextDocument.Text)
		return nil
	}
	h.TextDocumentDidChange = func(_ *glsp.Context, p *protocol.DidChangeTextDocumentParams) error {
		d := s.docs[p.TextDocument.URI]
		if d == nil {
			return fmt.Errorf("%s is not open", p.TextDocument.URI)
		}
		text := d.text
		for _, c := range p.ContentChanges {
			switch c := c.(type) {
			case protocol.TextDocumentContentChangeEventWhole:
				text = c.Text
			case protocol.TextDocumentContentChangeEvent:
				// Full sync is advertised; a client that sends a range
				// anyway is followed.
				ls := lineStarts(text)
				a, b := text, ""
				if c.Range != nil {
					a, b = text[:ls.offset(text, c.Range.Start)], text[ls.offset(text, c.Range.End):]
					text = a + c.Text + b
				} else {
					text = c.Text
				}
			}
		}
		s.open(p.TextDocument.URI, p.TextDocument.Version, text)
		return nil
	}
	h.TextDocumentDidSave = func(*glsp.Context, *protocol.DidSaveTextDocumentParams) error { return nil }
	h.TextDocumentDidClose = func(_ *glsp.Context, p *protocol.DidCloseTextDocumentParams) error {
		delete(s.docs, p.TextDocument.URI)
		s.checks.close(s, p.TextDocument.URI)
		return nil
	}
	h.TextDocumentHover = func(_ *glsp.Context, p *protocol.HoverParams) (*protocol.Hover, error) {
		d, err := s.doc(p.TextDocument.URI)
		if err != nil {
			return nil, err
		}
		return s.hover(d, d.lines.offset(d.text, p.Position)), nil
	}
	h.TextDocumentCompletion = func(_ *glsp.Context, p *protocol.CompletionParams) (any, error) {
		d, err := s.doc(p.TextDocument.URI)
		if err != nil {
			return nil, err
		}
		return s.complete(d, d.lines.offset(d.text, p.Position)), nil
	}
	h.TextDocumentDefinition = func(_ *glsp.Context, p *protocol.DefinitionParams) (any, error) {
		d, err := s.doc(p.TextDocument.URI)
		if err != nil {
			return nil, err
		}
		return s.definition(d, d.lines.offset(d.text, p.Position)), nil
	}
	h.TextDocumentReferences = func(_ *glsp.Context, p *protocol.ReferenceParams) ([]protocol.Location, error) {
		d, err := s.doc(p.TextDocument.URI)
		if err != nil {
			return nil, err
		}
		return s.references(d, d.lines.offset(d.text, p.Position), p.Context.IncludeDeclaration), nil
	}
	h.TextDocumentDocumentSymbol = func(_ *glsp.Context, p *protocol.DocumentSymbolParams) (any, error) {
		d, err := s.doc(p.TextDocument.URI)
		if err != nil {
			return nil, err
		}
		return d.symbols(), nil
	}
	h.TextDocumentCodeAction = func(_ *glsp.Context, p *protocol.CodeActionParams) (any, error) {
		d, err := s.doc(p.TextDocument.URI)
		if err != nil {
			return nil, err
		}
		return codeActions(d, p.Context.Diagnostics), nil
	}
	h.TextDocumentSemanticTokensFull = func(_ *glsp.Context, p *protocol.SemanticTokensParams) (*protocol.SemanticTokens, error) {
		d, err := s.doc(p.TextDocument.URI)
		if err != nil {
			return nil, err
		}
		return d.semanticTokens(), nil
	}
	if s.opts.Format != nil {
		h.TextDocumentFormatting = func(_ *glsp.Context, p *protocol.DocumentFormattingParams) ([]protocol.TextEdit, error) {
			d, err := s.doc(p.TextDocument.URI)
			if err != nil {
				return nil, err
			}
			return s.format(d)
		}
	}
	return h
}

// doc is the open document at uri.
func (s *server) doc(uri protocol.DocumentUri) (*document, error) {
	d := s.docs[uri]
	if d == nil {
		return nil, fmt.Errorf("%s is not open (the client sends textDocument/didOpen first)", uri)
	}
	return d, nil
}

// open records a document's new text and publishes its diagnostics.
func (s *server) open(uri protocol.DocumentUri, version protocol.Integer, text string) {
	d := newDocument(uri, version, text, s)
	s.docs[uri] = d
	s.publish(d)
	// The open documents that import this one are checked again: what
	// they say may have changed with it.
	for _, o := range s.docs {
		if o != d && o.imports(d.path) {
			s.publish(o)
		}
	}
}

// publish checks a document beside the request loop and sends its
// diagnostics (checks.start).
func (s *server) publish(d *document) {
	open := map[string]string{}
	for _, o := range s.docs {
		open[filepath.Clean(o.path)] = o.text
	}
	s.checks.start(s, d, open)
}

func ptr[T any](v T) *T { return &v }

// uriPath is the file a URI names: its path for a file: URI, the URI
// itself for any other (an unsaved buffer), which names no file on disk.
func uriPath(uri protocol.DocumentUri) string {
	u, err := url.Parse(uri)
	if err != nil || u.Scheme != "file" {
		return uri
	}
	return filepath.FromSlash(u.Path)
}

// pathURI is the file: URI of a path.
func pathURI(path string) protocol.DocumentUri {
	if strings.Contains(path, "://") || strings.HasPrefix(path, "std:") {
		return path
	}
	if abs, err := filepath.Abs(path); err == nil {
		path = abs
	}
	return (&url.URL{Scheme: "file", Path: filepath.ToSlash(path)}).String()
}
