// The independent RDF, SPARQL and OWL tools of the conformance tests (test/conformance/), from Debian's packages:
// rapper (raptor2-utils), rdflib and SPARQLWrapper (python3-rdflib, python3-sparqlwrapper), the OWL API
// (libowlapi-java, with a JDK for javac). Where one is missing the conformance tests skip LOUDLY on a developer
// machine and fail in CI (CI=true or MCPLD_TEST_CONFORMANCE=1, which .ci/run sets after installing them), as the
// Virtuoso tests do.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

/** Whether the conformance tests must run (and fail when a tool is missing) rather than skip. */
function conformanceRequired(): boolean {
  return process.env['CI'] === 'true' || process.env['MCPLD_TEST_CONFORMANCE'] === '1';
}

export function hasCommand(command: string): boolean {
  return spawnSync('sh', ['-c', `command -v ${command}`], { stdio: 'ignore' }).status === 0;
}

/**
 * A Python 3 that imports every module given: `python3` on the PATH, else Debian's /usr/bin/python3 (where the
 * python3-* packages install, when the PATH's python3 is another one, e.g. pyenv's).
 */
export function pythonWith(modules: readonly string[]): string | undefined {
  for (const candidate of ['python3', '/usr/bin/python3']) {
    const probe = spawnSync(candidate, ['-c', `import ${modules.join(', ')}`], { stdio: 'ignore', timeout: 30_000 });
    if (probe.status === 0) return candidate;
  }
  return undefined;
}

const javaDir = '/usr/share/java';
/** slf4j bindings and bridges that must not be on the class path together (independent-rdf-tools.md). */
const conflictingJars =
  /log4j-over-slf4j|slf4j-log4j12|slf4j-jdk14|slf4j-jcl|slf4j-simple|maven3-slf4j-provider|slf4j-migrator|jcl-over-slf4j|jul-to-slf4j/;

/** The class path of Debian's jars with the OWL API on it (undefined: libowlapi-java, java or javac is missing). */
export function owlApiClassPath(): string | undefined {
  if (!hasCommand('java') || !hasCommand('javac') || !existsSync(path.join(javaDir, 'owlapi-distribution.jar')))
    return undefined;
  return readdirSync(javaDir)
    .filter((jar) => jar.endsWith('.jar') && !conflictingJars.test(jar))
    .map((jar) => path.join(javaDir, jar))
    .join(':');
}

/**
 * The class path that runs Apache Jena's riot from Debian's jars (libapache-jena-java), or undefined without them or
 * a JDK's `jar`. Jena's shaded Xerces looks for its message files at `xerces/impl/msg/` and
 * `xerces/impl/xpath/regex/` while the jar has them under `org/apache/jena/ext/`: without both, every riot run dies
 * in an ExceptionInInitializerError ("internal error" in XSSimpleTypeDecl.applyFacets1). They are copied out once,
 * into a folder of their own that heads the class path.
 */
export function jenaClassPath(): string | undefined {
  const jena = path.join(javaDir, 'jena-core.jar');
  if (!hasCommand('java') || !hasCommand('jar') || !existsSync(jena) || !existsSync(path.join(javaDir, 'jena-arq.jar')))
    return undefined;
  const fix = path.join(tmpdir(), 'mcp-ld-jena-xerces-messages');
  if (!existsSync(path.join(fix, 'xerces', 'impl', 'xpath', 'regex', 'message.properties'))) {
    const shaded = path.join(fix, 'org', 'apache', 'jena', 'ext', 'xerces', 'impl');
    mkdirSync(fix, { recursive: true });
    const extract = spawnSync(
      'jar',
      ['xf', jena, 'org/apache/jena/ext/xerces/impl/msg', 'org/apache/jena/ext/xerces/impl/xpath/regex'],
      { cwd: fix, stdio: 'ignore' },
    );
    if (extract.status !== 0) return undefined;
    mkdirSync(path.join(fix, 'xerces', 'impl', 'xpath'), { recursive: true });
    spawnSync('cp', ['-r', path.join(shaded, 'msg'), path.join(fix, 'xerces', 'impl', 'msg')]);
    spawnSync('cp', ['-r', path.join(shaded, 'xpath', 'regex'), path.join(fix, 'xerces', 'impl', 'xpath', 'regex')]);
  }
  const jars = readdirSync(javaDir)
    .filter((jar) => jar.endsWith('.jar') && !conflictingJars.test(jar) && !/^jena-core-\d/.test(jar))
    .map((jar) => path.join(javaDir, jar));
  return [fix, ...jars].join(':');
}

/**
 * In a `before` hook: skips the suite with a loud message when something it needs is missing, or throws under CI.
 * `missing` names what is absent and the Debian package that gives it.
 */
export function requireTools(context: Mocha.Context, missing: readonly string[]): void {
  if (missing.length === 0) return;
  const message = `conformance tools missing: ${missing.join('; ')} (apt-get install them, as .ci/run does)`;
  if (conformanceRequired()) throw new Error(message);
  console.warn(`\n  !!! SKIPPED: ${message}\n`);
  context.skip();
}
