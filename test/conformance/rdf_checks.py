"""Parses every serialization of a set of captures with rdflib and compares it with the capture's N-Quads.

Run by test/conformance/formats.test.ts, one process for the whole set (rdflib's start-up is most of its cost):

    python3 rdf_checks.py MANIFEST.json

MANIFEST is {"captures": [{"name": ..., "nquads": path, "formats": {"trig": path, "turtle": path, ...}}]}. Prints one
JSON object: {"results": [{"name", "format", "parsed", "triples", "isomorphic", "detail"}]}. Datasets (N-Quads, TriG,
JSON-LD) are compared graph by graph (rdflib.compare.isomorphic per named graph and for the default graph); triple
formats (Turtle, RDF/XML) against the merge of the N-Quads' graphs, which is what mcp-ld writes there.

Known bug of rdflib 6.1.1 (not of mcp-ld): its N-Quads parser decodes the escape `\\\\n` (a backslash, then `n`) as a
backslash and a newline. The reference N-Quads are therefore read as TriG, one `GRAPH { triple }` block per line:
N-Quads terms are TriG terms, and rdflib's Turtle/TriG parser decodes escapes correctly.
"""
import json
import re
import sys

import rdflib
from rdflib.compare import isomorphic

DATASET_FORMATS = {"nquads": "nquads", "trig": "trig", "jsonld": "json-ld"}
TRIPLE_FORMATS = {"turtle": "turtle", "rdfxml": "xml"}

# The last term of an N-Quads line, when it is a graph label: `<iri> .` or `_:label .` after the object.
TERM = r'(?:<[^>]*>|_:\S+|"(?:[^"\\]|\\.)*"(?:@[A-Za-z0-9-]+|\^\^<[^>]*>)?)'
QUAD = re.compile(r'^\s*(' + TERM + r')\s+(<[^>]*>)\s+(' + TERM + r')\s*(<[^>]*>|_:\S+)?\s*\.\s*$')


def read_nquads(path):
    """The N-Quads file as an rdflib dataset, read line by line through rdflib's TriG parser (see the module doc)."""
    blocks = []
    with open(path, encoding="utf-8") as lines:
        for number, line in enumerate(lines, 1):
            if line.strip() == "" or line.lstrip().startswith("#"):
                continue
            match = QUAD.match(line)
            if match is None:
                raise ValueError(f"{path}:{number}: not an N-Quads line: {line[:200]}")
            subject, predicate, obj, graph = match.groups()
            triple = f"{subject} {predicate} {obj} ."
            blocks.append(f"GRAPH {graph} {{ {triple} }}" if graph else f"{{ {triple} }}")
    dataset = rdflib.ConjunctiveGraph()
    dataset.parse(data="\n".join(blocks), format="trig")
    return dataset


def graphs_of(dataset):
    """{graph name (or '' for the default graph): rdflib.Graph}, non-empty graphs only."""
    found = {}
    for context in dataset.contexts():
        if len(context) == 0:
            continue
        name = "" if context.identifier == dataset.default_context.identifier else str(context.identifier)
        graph = found.setdefault(name, rdflib.Graph())
        for triple in context:
            graph.add(triple)
    return found


def merged(dataset):
    graph = rdflib.Graph()
    for s, p, o, _ in dataset.quads((None, None, None, None)):
        graph.add((s, p, o))
    return graph


def compare_dataset(reference, other):
    ours, theirs = graphs_of(reference), graphs_of(other)
    if set(ours) != set(theirs):
        return False, f"graphs differ: only in N-Quads {sorted(set(ours) - set(theirs))[:3]}, only here {sorted(set(theirs) - set(ours))[:3]}"
    for name in sorted(ours):
        if not isomorphic(ours[name], theirs[name]):
            a, b = ours[name], theirs[name]
            return False, f"graph <{name}> not isomorphic ({len(a)} triples in N-Quads, {len(b)} here)"
    return True, f"{len(ours)} graphs isomorphic"


def check(capture):
    results = []
    reference = read_nquads(capture["nquads"])
    # rdflib's own N-Quads parser too: that it parses (its decoding bug aside, the counts agree).
    own = rdflib.ConjunctiveGraph()
    own.parse(capture["nquads"], format="nquads")
    results.append({"name": capture["name"], "format": "nquads", "parsed": True, "triples": len(own), "isomorphic": len(own) == len(reference), "detail": "parsed by rdflib's N-Quads parser"})
    whole = merged(reference)
    for fmt, path in sorted(capture["formats"].items()):
        entry = {"name": capture["name"], "format": fmt, "parsed": False, "triples": 0, "isomorphic": False, "detail": ""}
        try:
            if fmt in DATASET_FORMATS:
                parsed = rdflib.ConjunctiveGraph()
                parsed.parse(path, format=DATASET_FORMATS[fmt])
                entry["parsed"], entry["triples"] = True, len(parsed)
                entry["isomorphic"], entry["detail"] = compare_dataset(reference, parsed)
            else:
                parsed = rdflib.Graph()
                parsed.parse(path, format=TRIPLE_FORMATS[fmt])
                entry["parsed"], entry["triples"] = True, len(parsed)
                entry["isomorphic"] = isomorphic(whole, parsed)
                entry["detail"] = f"{len(whole)} triples in the merged N-Quads, {len(parsed)} here"
        except Exception as error:  # a parse error is a finding, reported, not a crash of the whole set
            entry["detail"] = f"{type(error).__name__}: {error}"[:2000]
        results.append(entry)
    return results


def main():
    with open(sys.argv[1], encoding="utf-8") as manifest:
        captures = json.load(manifest)["captures"]
    results = [entry for capture in captures for entry in check(capture)]
    json.dump({"rdflib": rdflib.__version__, "results": results}, sys.stdout)


if __name__ == "__main__":
    main()
