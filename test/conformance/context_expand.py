"""Expands raw MCP messages with their message contexts by rdflib's JSON-LD parser and prints each graph as N-Triples.

Run by test/conformance/portable-contexts.test.ts, one process for the whole set (rdflib's start-up is most of its
cost):

    python3 context_expand.py DOCUMENTS.json

DOCUMENTS is {"documents": [{"name": ..., "document": <a raw MCP message with "@context" set to its message
context, inlined>}]}. Prints one JSON object: {"rdflib": version, "graphs": [{"name", "ntriples", "error"}]}: the
triples rdflib's own JSON-LD 1.1 parser (independent of jsonld.js) reads, as N-Triples lines; blank nodes keep
rdflib's labels (the test compares graphs up to blank node names).
"""
import json
import sys

import rdflib

# rdflib rewrites literals into its own canonical forms (2026-01-01T00:00:00.138Z as …138000+00:00) unless told not to.
rdflib.NORMALIZE_LITERALS = False


def expand(document):
    graph = rdflib.Graph()
    graph.parse(data=json.dumps(document), format="json-ld")
    return [line for line in graph.serialize(format="nt").splitlines() if line.strip()]


def main():
    with open(sys.argv[1], encoding="utf-8") as source:
        documents = json.load(source)["documents"]
    graphs = []
    for entry in documents:
        try:
            graphs.append({"name": entry["name"], "ntriples": expand(entry["document"])})
        except Exception as error:  # a document rdflib refuses is a finding, reported, not a crash of the whole set
            graphs.append({"name": entry["name"], "ntriples": [], "error": f"{type(error).__name__}: {error}"[:2000]})
    json.dump({"rdflib": rdflib.__version__, "graphs": graphs}, sys.stdout)


if __name__ == "__main__":
    main()
