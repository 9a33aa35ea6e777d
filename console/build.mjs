// Builds the web console into dist/console: index.html, and assets/ with the bundled scripts (the SPARQL editor,
// YASGUI, in a chunk of its own loaded by the Query view only), the console's styles and YASGUI's. Everything the page
// needs is here: the service serves these files and nothing is fetched from elsewhere. Run by `npm run build`.
import { build } from 'esbuild';
import { copyFileSync, mkdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.dirname(fileURLToPath(import.meta.url));
const out = path.join(root, '..', 'dist', 'console');
const assets = path.join(out, 'assets');
const yasgui = path.join(root, '..', 'node_modules', '@zazuko', 'yasgui', 'build', 'yasgui.min.css');

rmSync(out, { recursive: true, force: true });
mkdirSync(assets, { recursive: true });
await build({
  entryPoints: { console: path.join(root, 'src', 'main.ts') },
  outdir: assets,
  bundle: true,
  splitting: true,
  format: 'esm',
  target: 'es2020',
  minify: true,
  sourcemap: true,
  chunkNames: 'chunk-[hash]',
  legalComments: 'linked',
  logLevel: 'warning',
});
await build({ entryPoints: { console: path.join(root, 'styles.css') }, outdir: assets, bundle: true, minify: true, logLevel: 'warning' });
copyFileSync(yasgui, path.join(assets, 'yasgui.css'));
copyFileSync(path.join(root, 'index.html'), path.join(out, 'index.html'));
