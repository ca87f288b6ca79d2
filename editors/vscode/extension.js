// The Parasol extension's client: it starts the language server,
// `parasol lsp`, for .machine files and leaves the rest to
// vscode-languageclient (diagnostics, hover, completion, definitions,
// references, formatting, symbols). Highlighting is the TextMate grammar
// of syntaxes/, contributed by package.json.
'use strict';

const vscode = require('vscode');
const { LanguageClient } = require('vscode-languageclient/node');

let client;

// serverOptions is how the server is started: the configured binary with
// the lsp command, speaking the protocol on its standard input and output.
function serverOptions(config) {
	const args = ['lsp'];
	const maxMemory = config.get('server.maxMemory');
	if (maxMemory) {
		args.push('--max-memory', maxMemory);
	}
	return { command: config.get('server.path') || 'parasol', args };
}

function activate(context) {
	const config = vscode.workspace.getConfiguration('parasol');
	client = new LanguageClient('parasol', 'Parasol', serverOptions(config), {
		documentSelector: [{ language: 'parasol' }],
	});
	context.subscriptions.push(client);
	return client.start();
}

function deactivate() {
	return client ? client.stop() : undefined;
}

module.exports = { activate, deactivate, serverOptions };
