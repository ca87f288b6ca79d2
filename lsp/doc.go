// Package lsp is Parasol's language server: `parasol lsp` speaks the
// Language Server Protocol over a stream (standard input and output) so
// that an editor shows, as the user types, what the command line would
// say of a .machine file.
//
// The server holds no knowledge of the language of its own. Diagnostics
// are eval.InspectFile's, the ones `parasol check` prints, run on the
// editor's text (open documents shadow the files on disk, for imports
// too); hover evaluates through the loaded eval.Machine and reads the
// schema's documentation (eval.FieldOf, eval.IndexDoc); completion offers
// the schema's fields, the registry's words, the standard machines, the
// machine's names and lang's units; formatting is the formatter the
// command line uses (Options.Format); symbols, definitions and references
// are read from the parser's AST, and semantic tokens from the parser's
// scanner (parser.Tokens, over lang's token tables). Parasol I files are
// parsed into the same AST, so they get diagnostics, hover and symbols as
// modern files do.
//
// The protocol's types and method dispatch are github.com/tliron/glsp's
// (protocol 3.16), and the JSON-RPC framing (Content-Length headers) is
// github.com/sourcegraph/jsonrpc2's, the library glsp itself is built on;
// Serve runs glsp's handler on a jsonrpc2 connection over any reader and
// writer, so a test drives the server over pipes exactly as an editor
// does over standard input and output.
//
// Requests are handled one at a time, in the order they arrive: a hover
// that follows an edit sees the edit. Checking a document for its
// diagnostics runs beside them (check.go), one check a document at a
// time, the latest text next, so that a slow check does not hold up a
// hover; its diagnostics are published in the order of the texts. Each
// document's parse and loaded machines are made once per version.
package lsp
