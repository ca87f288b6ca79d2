package main

import (
	"context"
	"flag"
	"strings"

	"github.com/parasol-lang/parasol/lsp"
)

// lspCmd is parasol lsp.
var lspCmd = &command{
	name:    "lsp",
	summary: "the language server for editors (Language Server Protocol on stdin/stdout)",
	args:    "[flags]",
	doc: `
Lsp runs Parasol's language server: it speaks the Language Server Protocol
(JSON-RPC with Content-Length headers) on standard input and output, for an
editor to start. It is not meant to be run by hand. As a file is typed it
publishes the diagnostics 'parasol check' would print (errors and
warnings with their ranges; a "did you mean" comes with a quick fix that
applies it), and it answers:
  hover           a field's value with its unit and the schema's type,
                  unit and documentation; a primitive call's expression and,
                  for constant arguments, its cost; a derived index's value
  completion      fields of the block, the words a field takes (switching,
                  routing, …), standard machines after import "std:, the
                  machine's params, functions and primitives, units
  definition, references
                  params, functions, primitives, processor and switch types,
                  topologies, machines (extends) and imports
  formatting      what 'parasol fmt' prints
  document symbols
                  machines, params, functions, processors, topologies,
                  model sections, programs
  semantic tokens keywords, numbers with units, strings, comments, and
                  names as what they are: functions, fields, the words a
                  field takes
Parasol I files get diagnostics, hover and symbols too (their highlighting
is the editors' grammars', editors/vscode and editors/vim).

Editors start it as the command 'parasol lsp': editors/nvim has a Neovim
configuration and editors/vscode a VS Code extension. To see it answer,
pipe a request in:
  printf 'Content-Length: 58\r\n\r\n{"jsonrpc":"2.0","id":1,"method":"initialize","params":{}}' | parasol lsp`,
	flags: declareLSP,
}

// declareLSP declares lsp's flags on fs and returns the function that runs it.
func declareLSP(e *env, fs *flag.FlagSet) func(args []string) error {
	maxMemory := memoryFlag()
	fs.Var(&maxMemory, "max-memory", maxMemoryUsage)
	return func(args []string) error {
		if len(args) > 0 {
			return argsError("parasol lsp: takes no arguments, got %s (an editor starts it and speaks the protocol on stdin and stdout)", strings.Join(args, " "))
		}
		return lsp.Serve(context.Background(), e.stdin, e.stdout, lsp.Options{
			Format: formatChecked, MaxMemory: maxMemory.bytes(), Version: version(),
		})
	}
}
