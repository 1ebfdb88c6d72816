// Entry point of dist/cli.mjs (bundled by builders/build/cli-artifact.ts): the only place that touches process.
import { readdirSync, readFileSync } from 'node:fs';
import site from '../../site/site.json' with { type: 'json' };
import { errorLine } from './http.ts';
import { run } from './run.ts';
import type { SchemaSet } from './schema-check.ts';
import { repoUrl } from '../lib/repo-url.ts';

/**
 * The default site: the deployed SITE_URL, which builders/build/cli-artifact.ts bakes in (esbuild `define`).
 * Unbundled there is no build, so it is the committed site file's `siteUrl`, the default builders/lib/config.ts
 * also starts from. In cli.mjs the test folds to true and the site file is left out of the bundle.
 */
declare const __CLI_DEFAULT_BASE_URL__: string | undefined;
const DEFAULT_BASE_URL = typeof __CLI_DEFAULT_BASE_URL__ === 'string' ? __CLI_DEFAULT_BASE_URL__ : site.siteUrl;
/** The project's version (package.json), baked in the same way; an unbundled run is a development copy. */
declare const __CLI_VERSION__: string | undefined;
const VERSION = typeof __CLI_VERSION__ === 'string' ? __CLI_VERSION__ : 'development';

/**
 * The schemas documents are checked against, baked in the same way (builders/build/cli-artifact.ts); an
 * unbundled run reads the files under schemas/ (their descriptions do not change a check).
 */
declare const __CLI_SCHEMAS__: string | undefined;
const SCHEMAS: SchemaSet =
  typeof __CLI_SCHEMAS__ === 'string' ? (JSON.parse(__CLI_SCHEMAS__) as SchemaSet) : schemasFromFiles();

function schemasFromFiles(): SchemaSet {
  const dir = repoUrl('schemas/', import.meta.url);
  const schemas = readdirSync(dir)
    .filter((f) => f.endsWith('.schema.json'))
    .map((f) => JSON.parse(readFileSync(new URL(f, dir), 'utf8')) as { title: string });
  return Object.fromEntries(schemas.map((s) => [s.title, s]));
}

// `node cli.mjs writings | head` closes the pipe early: that is the reader's choice, not an error.
process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  if (error.code === 'EPIPE') process.exit(process.exitCode ?? 0);
  throw error;
});

run(
  process.argv.slice(2),
  {
    env: process.env,
    stdout: process.stdout,
    stderr: process.stderr,
    // Only `--watch` listens for Ctrl-C; every other command ends on its own.
    onInterrupt: (stop) => void process.once('SIGINT', stop),
    nodeVersion: process.version,
  },
  DEFAULT_BASE_URL,
  VERSION,
  SCHEMAS,
).then(
  (code) => {
    // exitCode, not exit(): let piped stdout drain before the process ends.
    process.exitCode = code;
  },
  (error: unknown) => {
    process.stderr.write(
      `cli.mjs: internal error: ${errorLine(error instanceof Error ? error.message : String(error))}\n`,
    );
    process.exitCode = 1;
  },
);
