package main

import (
	"strconv"
	"strings"
)

// openAPI is the OpenAPI 3.1 document of the server's endpoints, made from
// the command table: each served command's arguments and flags are its
// request's properties (requestKeys), so the document cannot describe a
// key the server does not take, nor miss one.
func openAPI(o serveOptions) map[string]any {
	paths := map[string]any{}
	errorResponse := func(why string) map[string]any {
		return map[string]any{"description": why, "content": map[string]any{
			"application/json": map[string]any{"schema": map[string]any{"$ref": "#/components/schemas/Error"}}}}
	}
	for _, name := range servedCommands {
		c := commandNamed(name)
		props := map[string]any{}
		var required []string
		for _, k := range requestKeys(c) {
			p := keySchema(k)
			if k.flag == nil {
				p["description"] = "the " + k.word + " argument of parasol " + name
				required = append(required, k.name)
			} else {
				desc := k.flag.Usage
				if takesFile(k.flag) {
					desc += " (refused unless the server runs with --allow-files)"
				}
				p["description"] = desc
				if d := defaultValue(k); d != nil {
					p["default"] = d
				}
			}
			props[k.name] = p
		}
		req := map[string]any{"type": "object", "properties": props, "additionalProperties": false}
		if len(required) > 0 {
			req["required"] = required
		}
		paths["/v1/"+name] = map[string]any{"post": map[string]any{
			"operationId": name,
			"summary":     c.summary,
			"description": "Answers what `parasol " + name + " --json` prints for the flags and arguments the request's keys give (JSON lines: one object, or one per expression or diagnostic).\n\n" + strings.TrimSpace(c.doc),
			"requestBody": map[string]any{"required": true, "content": map[string]any{
				"application/json": map[string]any{"schema": req}}},
			"responses": map[string]any{
				"200": map[string]any{"description": "what parasol " + name + " --json prints", "content": map[string]any{
					"application/json":     map[string]any{"schema": map[string]any{"type": "object"}},
					"application/x-ndjson": map[string]any{"schema": map[string]any{"type": "string"}}}},
				"400": errorResponse("bad input: an unknown key or a bad value, or an error in the machine, an expression or a program (the command line's JSON errors, one per line)"),
				"403": errorResponse("a file outside the server's working directory, or a flag that names a file, without serve --allow-files"),
				"408": errorResponse("the request ran longer than serve --timeout"),
				"413": errorResponse("the request body is larger than serve --max-body"),
				"422": errorResponse("the simulation deadlocked (the cycle is reported)"),
				"503": errorResponse("serve --max-concurrent requests are running already; try again"),
			},
		}}
	}
	diag := map[string]any{"type": "object", "required": []string{"message"}, "properties": map[string]any{
		"file": str(), "line": integer(), "col": integer(), "message": str(), "severity": str(),
		"end_line": integer(), "end_col": integer(), "expr": str(),
		"notes": map[string]any{"type": "array", "items": map[string]any{"type": "object"}},
	}}
	return map[string]any{
		"openapi": "3.1.0",
		"info": map[string]any{
			"title":   "Parasol query server",
			"version": version(),
			"description": "parasol serve: the command line's queries over HTTP. Each POST /v1/COMMAND answers exactly what `parasol COMMAND --json` prints. " +
				"There is no authentication: anyone who can reach the server can make it compute and read the files it may read.",
		},
		"servers": []any{map[string]any{"url": "http://" + o.addr}},
		"paths":   paths,
		"components": map[string]any{"schemas": map[string]any{
			"Error": map[string]any{"type": "object", "properties": map[string]any{"error": diag, "warning": diag}},
		}},
	}
}

func str() map[string]any     { return map[string]any{"type": "string"} }
func integer() map[string]any { return map[string]any{"type": "integer"} }

// keySchema is the JSON schema of a request key's value.
func keySchema(k requestKey) map[string]any {
	switch k.kind {
	case kindBool:
		return map[string]any{"type": "boolean"}
	case kindInt:
		return map[string]any{"type": []string{"integer", "string"}}
	case kindNumber:
		return map[string]any{"type": []string{"number", "string"}}
	case kindStrings:
		return map[string]any{"type": []string{"array", "string"}, "items": map[string]any{"type": []string{"string", "number"}}}
	}
	// A number is taken as its text: "size": 4096, "load": 0.2.
	return map[string]any{"type": []string{"string", "number"}}
}

// defaultValue is a flag's default as JSON of its kind, or nil when it
// has none to state (an empty string, an empty list).
func defaultValue(k requestKey) any {
	d := k.flag.DefValue
	switch k.kind {
	case kindBool:
		return d == "true"
	case kindInt, kindNumber:
		if n, err := strconv.ParseFloat(d, 64); err == nil {
			return n
		}
	case kindStrings:
		return nil
	}
	if d == "" || d == "[]" {
		return nil
	}
	return d
}
