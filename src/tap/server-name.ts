// The name of a recorded server when nobody gave one (`--server NAME`): the name the server gives itself
// (`serverInfo` in its answer to initialize or server/discover, or in a 2026-07-28 result's `_meta`), else the
// name of what the tap ran (the npm package, Python module, script's package or container image) or the URL the
// proxy forwards to. The recorder decides at the server's first answer: one that names no server never will.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { isJsonObject, type JsonObject } from '../core/json.js';
import { implementationName, serverInfoOf } from '../lift/server-info.js';

/** Whether a message from the server is an answer (a JSON-RPC response or error), the point at which to decide. */
export function isAnswer(msg: JsonObject): boolean {
  return 'id' in msg && ('result' in msg || 'error' in msg);
}

/** The name an answer gives its server, if it gives one. */
export function serverInfoName(msg: JsonObject): string | undefined {
  const result = msg['result'];
  if (!isJsonObject(result)) return undefined;
  for (const from of ['serverInfo', '_meta'] as const) {
    const name = implementationName(serverInfoOf(result, from));
    if (name) return name;
  }
  return undefined;
}

/** The options of `docker run` and `podman run` that take a value (the image is the first word after them). */
const containerRunOptions = [
  '-e',
  '--env',
  '--env-file',
  '-v',
  '--volume',
  '--mount',
  '--name',
  '-p',
  '--publish',
  '--network',
  '-w',
  '--workdir',
  '-u',
  '--user',
  '--entrypoint',
  '-l',
  '--label',
  '--platform',
];

/** Runners whose first argument (after their own options and subcommand) is what they run. */
/** Per runner: its subcommands that run something, its options that take a value, the options whose value names
 *  what it runs, and those that run code given inline (then the runner itself is the best name there is). */
const runners: Record<string, { subcommands?: string[]; valued?: string[]; named?: string[]; inline?: string[] }> = {
  npx: { valued: ['--registry', '--cache', '--userconfig'], named: ['-p', '--package'] },
  npm: { subcommands: ['exec', 'x'], valued: ['--registry', '--cache', '--userconfig'], named: ['-p', '--package'] },
  pnpm: { subcommands: ['dlx', 'exec'], named: ['--package'] },
  yarn: { subcommands: ['dlx'], named: ['-p', '--package'] },
  bunx: { named: ['-p', '--package'] },
  bun: { subcommands: ['x', 'run'] },
  uvx: { valued: ['--python', '--with', '--index-url'], named: ['--from'] },
  uv: {
    subcommands: ['run', 'tool'],
    valued: ['--python', '--with', '--directory', '--project', '--index-url'],
    named: ['--from'],
  },
  pipx: { subcommands: ['run'], valued: ['--python', '--pip-args'], named: ['--spec'] },
  node: {
    valued: ['-r', '--require', '--import', '--loader', '--env-file'],
    inline: ['-e', '--eval', '-p', '--print'],
  },
  nodejs: {
    valued: ['-r', '--require', '--import', '--loader', '--env-file'],
    inline: ['-e', '--eval', '-p', '--print'],
  },
  deno: { subcommands: ['run'], valued: ['--config', '--import-map'] },
  tsx: {},
  'ts-node': {},
  python: { named: ['-m'], inline: ['-c'] },
  python3: { named: ['-m'], inline: ['-c'] },
  py: { named: ['-m'], inline: ['-c'] },
  docker: { subcommands: ['run'], valued: containerRunOptions },
  podman: { subcommands: ['run'], valued: containerRunOptions },
  env: {},
};

/** What a command line runs, as a server name: `npx -y @modelcontextprotocol/server-memory@1.2` →
 *  `@modelcontextprotocol/server-memory`, `python -m mcp_server_time` → `mcp_server_time`, `node build/index.js` →
 *  the name in the script's package.json, `docker run -i --rm mcp/github` → `mcp/github`. */
export function serverNameOfCommand(command: string, args: readonly string[], cwd = process.cwd()): string {
  const words = [command, ...args];
  let at = 0;
  let runsImage = false;
  while (at < words.length) {
    const name = path.basename(words[at]!).replace(/\.(exe|cmd)$/i, '');
    const runner = runners[name];
    if (!runner) break;
    runsImage = name === 'docker' || name === 'podman';
    at += 1;
    if (runner.subcommands?.includes(words[at] ?? '')) {
      at += 1;
      if (words[at - 1] === 'tool' && words[at] === 'run') at += 1; // uv tool run
    }
    for (; at < words.length && words[at]!.startsWith('-'); at += 1) {
      const [flag, inline] = words[at]!.split('=', 2) as [string, string | undefined];
      if (runner.named?.includes(flag)) return packageName(inline ?? words[at + 1] ?? command);
      if (runner.inline?.includes(flag)) return name;
      if (inline === undefined && runner.valued?.includes(flag)) at += 1;
    }
    // `env A=1 B=2 cmd`: the assignments are not what it runs.
    while (at < words.length && /^[A-Za-z_][A-Za-z0-9_]*=/.test(words[at]!)) at += 1;
  }
  const what = words[at] ?? command;
  if (!runsImage && looksLikeFile(what)) return scriptName(path.resolve(cwd, what));
  return packageName(what);
}

/** An npm, PyPI or image spec without its version or tag (`name@1.2`, `@scope/name@latest`, `image:tag`, `pkg==1`). */
function packageName(spec: string): string {
  const at = spec.indexOf('@', 1);
  let name = at > 0 ? spec.slice(0, at) : spec;
  name = name.replace(/(==|>=|<=|~=).*$/, '');
  const colon = name.lastIndexOf(':');
  if (colon > name.lastIndexOf('/')) name = name.slice(0, colon);
  return name || spec;
}

function looksLikeFile(word: string): boolean {
  return word.includes('/') || word.includes('\\') ? !word.startsWith('@') : /\.(m?[jt]s|cjs|py)$/.test(word);
}

/** A script is named by the package.json it belongs to, else by its own name (or its folder's, for an index.js). */
function scriptName(file: string): string {
  for (let dir = path.dirname(file); ; dir = path.dirname(dir)) {
    const manifest = path.join(dir, 'package.json');
    if (existsSync(manifest)) {
      try {
        const name = (JSON.parse(readFileSync(manifest, 'utf8')) as { name?: unknown }).name;
        if (typeof name === 'string' && name !== '') return name;
      } catch {
        // a package.json that does not parse names nothing
      }
    }
    if (path.dirname(dir) === dir) break;
  }
  const base = path.basename(file).replace(/\.[^.]+$/, '');
  if (!['index', 'main', 'server', 'cli', '__main__'].includes(base)) return base;
  const folders = path
    .dirname(file)
    .split(path.sep)
    .filter((part) => part && !['dist', 'build', 'src', 'lib', 'out', 'bin'].includes(part));
  return folders.at(-1) ?? base;
}
