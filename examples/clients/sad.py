#!/usr/bin/env python3
"""A SAD evaluator's view of a machine, through parasol serve.

Parasol I gave its SAD evaluator a machine's parameters through function
calls; this is those calls in Python, answered by a running
`parasol serve` (standard library only):

    parasol serve &
    python3 examples/clients/sad.py

    p = Parasol("http://127.0.0.1:7878")
    p.param("std:sun-pool", "processor(sparc).createjob")  # a field or param (SI units)
    p.index("std:xmp64", "diameter")                 # a derived index
    p.cost("std:xmp64", "MPI.send(1KB, 0, 5)")       # a primitive's cost, in seconds
    p.cost("std:xmp64", "MPI.barrier()", sets=["h_off=400ns"])
    p.query("sim", machine="std:xmp64", op="transpose", size="1KB")

Every call is one POST /v1/COMMAND whose keys are the command line's
flags; the answer is what `parasol COMMAND --json` prints.
"""

import argparse
import json
import sys
import urllib.error
import urllib.request


class ParasolError(Exception):
    """An error parasol reported: the first diagnostic, as file:line:col: message."""

    def __init__(self, status, errors):
        self.status, self.errors = status, errors
        e = errors[0] if errors else {}
        where = ":".join(str(e[k]) for k in ("file", "line", "col") if e.get(k))
        super().__init__(f"{status}: {where + ': ' if where else ''}{e.get('message', '')}")


class Parasol:
    """A client of parasol serve at url."""

    def __init__(self, url="http://127.0.0.1:7878", timeout=60):
        self.url, self.timeout = url.rstrip("/"), timeout

    def query(self, command, **keys):
        """POST /v1/COMMAND with keys (the command's flags and arguments);
        returns the JSON objects it answers, one per line."""
        req = urllib.request.Request(
            f"{self.url}/v1/{command}",
            data=json.dumps(keys).encode(),
            headers={"Content-Type": "application/json"},
        )
        try:
            with urllib.request.urlopen(req, timeout=self.timeout) as resp:
                return [json.loads(line) for line in resp.read().splitlines() if line]
        except urllib.error.HTTPError as err:
            lines = [json.loads(line) for line in err.read().splitlines() if line]
            raise ParasolError(err.code, [l["error"] for l in lines if "error" in l]) from None

    def value(self, machine, expr, sets=()):
        """The value of an expression and its unit (SI base units)."""
        v = self.query("eval", machine=machine, set=list(sets), exprs=[expr])[0]
        return v["value"], v["unit"]

    def param(self, machine, path, sets=()):
        """A field or param: processor(1).createjob, topology(100).link(0).linkspeed."""
        return self.value(machine, path, sets)[0]

    def index(self, machine, name, sets=()):
        """A derived index: diameter, avgdist, bisection, nodes, links, maxtotalspeed."""
        return self.value(machine, name, sets)[0]

    def cost(self, machine, call, sets=()):
        """A primitive's cost in seconds: MPI.send(1KB, 0, 5)."""
        return self.value(machine, call, sets)[0]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--url", default="http://127.0.0.1:7878", help="where parasol serve listens")
    args = ap.parse_args()
    p = Parasol(args.url)
    queries = [
        ("std:xmp64", "nodes", ()),
        ("std:xmp64", "diameter", ()),
        ("std:xmp64", "MPI.send(1KB, 0, 5)", ()),
        ("std:xmp64", "MPI.barrier()", ("h_off=400ns",)),
        ("std:sun-pool", "processor(sparc).createjob", ()),
    ]
    try:
        for machine, expr, sets in queries:
            value, unit = p.value(machine, expr, sets)
            print(f"{machine} {expr} = {json.dumps(value)} {unit}")
        p.value("std:xmp64", "MPI.barier()")  # a typo, to show an error
    except ParasolError as err:
        print(f"parasol: {err}", file=sys.stderr)
    except urllib.error.URLError as err:
        sys.exit(f"sad.py: no parasol serve at {args.url}: {err.reason}")


if __name__ == "__main__":
    main()
