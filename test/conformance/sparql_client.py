"""Asks an mcp-ld /sparql endpoint each query of a manifest in every result format through SPARQLWrapper, and prints
the answers in one comparable form (run by test/conformance/sparql.test.ts, one process for every query):

    python3 sparql_client.py ENDPOINT MANIFEST.json

MANIFEST is {"queries": [{"name", "form", "sparql"}]}. Prints {"answers": [{"name", "format", "rows"|"boolean"|"ntriples"}]}:
rows as sorted lists of {variable: N-Triples term}, CSV rows as plain values (CSV has no types), graphs as the sorted
N-Triples lines of the graph SPARQLWrapper's convert() gives (the test queries give no blank nodes).
"""
import csv
import io
import json
import sys

import rdflib
from rdflib.query import Result
from SPARQLWrapper import CSV, JSON, JSONLD, N3, RDFXML, TSV, TURTLE, XML, SPARQLWrapper

# Keep literals as written (rdflib would write "…912Z"^^xsd:dateTime back as "…912000+00:00").
rdflib.NORMALIZE_LITERALS = False

# SPARQL 1.1 CSV/TSV results are defined for SELECT only: ASK is asked as JSON and XML.
SOLUTION_FORMATS = {"SELECT": [JSON, XML, CSV, TSV], "ASK": [JSON, XML]}
GRAPH_FORMATS = [RDFXML, TURTLE, N3, JSONLD]


def n3(term):
    return None if term is None else term.n3()


def ask(endpoint, query, fmt):
    client = SPARQLWrapper(endpoint)
    client.setQuery(query["sparql"])
    if fmt == JSONLD:
        # SPARQLWrapper 1.8.5 refuses JSON-LD unless the old rdflib-jsonld plugin is installed, which rdflib 6 has
        # built in (a bug of the client, not of the endpoint): ask for it with the Accept header it would send.
        client.addCustomHttpHeader("Accept", "application/ld+json,application/x-json+ld")
    else:
        client.setReturnFormat(fmt)
    answer = {"name": query["name"], "format": fmt}
    result = client.query()
    if query["form"] in ("CONSTRUCT", "DESCRIBE"):
        if fmt == JSONLD:
            # ... and its convert() as well: rdflib parses the body.
            graph = rdflib.Graph().parse(data=result.response.read().decode("utf-8"), format="json-ld")
        else:
            graph = result.convert()
        if not isinstance(graph, rdflib.Graph):  # SPARQLWrapper gives some formats as text
            graph = rdflib.Graph().parse(data=graph if isinstance(graph, str) else graph.decode("utf-8"), format={N3: "n3", TURTLE: "turtle", JSONLD: "json-ld"}.get(fmt, "xml"))
        answer["ntriples"] = sorted(f"{s.n3()} {p.n3()} {o.n3()} ." for s, p, o in graph)
        return answer
    if fmt == JSON:
        data = result.convert()
        if query["form"] == "ASK":
            answer["boolean"] = data["boolean"]
        else:
            answer["rows"] = sorted(json.dumps({k: rdflib_term(v).n3() for k, v in b.items()}, sort_keys=True) for b in data["results"]["bindings"])
        return answer
    body = result.response.read()
    if fmt == CSV:
        rows = list(csv.reader(io.StringIO(body.decode("utf-8"))))
        answer["plainRows"] = sorted(json.dumps(dict(zip(rows[0], row)), sort_keys=True) for row in rows[1:])
        return answer
    parsed = Result.parse(io.BytesIO(body), format={XML: "xml", TSV: "tsv"}[fmt])  # SPARQLWrapper's convert() gives DOM or text
    if query["form"] == "ASK":
        answer["boolean"] = bool(parsed.askAnswer)
    else:
        answer["rows"] = sorted(json.dumps({str(k): v.n3() for k, v in row.asdict().items()}, sort_keys=True) for row in parsed)
    return answer


def rdflib_term(binding):
    if binding["type"] == "uri":
        return rdflib.URIRef(binding["value"])
    if binding["type"] == "bnode":
        return rdflib.BNode(binding["value"])
    return rdflib.Literal(binding["value"], lang=binding.get("xml:lang"), datatype=binding.get("datatype"))


def main():
    endpoint = sys.argv[1]
    with open(sys.argv[2], encoding="utf-8") as manifest:
        queries = json.load(manifest)["queries"]
    answers = []
    for query in queries:
        for fmt in SOLUTION_FORMATS.get(query["form"], GRAPH_FORMATS):
            try:
                answers.append(ask(endpoint, query, fmt))
            except Exception as error:
                answers.append({"name": query["name"], "format": fmt, "error": f"{type(error).__name__}: {error}"[:2000]})
    json.dump({"answers": answers}, sys.stdout)


if __name__ == "__main__":
    main()
