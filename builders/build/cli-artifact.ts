// dist/cli.mjs: the CLI (builders/cli/main.ts) bundled into one file that imports nothing but Node's built-ins,
// so that `curl -O <site>/cli.mjs && node cli.mjs` works with no install, with the deployed SITE_URL baked
// in as its default site and the schemas under schemas/ baked in for its checks (builders/cli/schema-check.ts).
// The CLI's path constants come from builders/contract/service.ts and builders/contract/pages.ts, which import nothing;
// test/cli.test.ts checks the bundle's imports and size.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import * as esbuild from 'esbuild';
import { DISCOVERY, type SchemaName, type ServiceTables } from '../contract/service.ts';
import { DEFAULT_SERVICE } from '../datasets/registry.ts';
import { loadSchemas, type JsonSchema } from '../contract/schemas.ts';
import type { Artifact, BuildContext } from './artifact.ts';
import { repoUrl } from '../lib/repo-url.ts';

// Both builders/build/cli-artifact.ts and its bundle .build/build.mjs sit one folder below the repository root.
const ENTRY = fileURLToPath(repoUrl('builders/cli/main.ts', import.meta.url));
const VERSION = (JSON.parse(readFileSync(repoUrl('package.json', import.meta.url), 'utf8')) as { version: string })
  .version;

export async function renderCli(ctx: BuildContext): Promise<Artifact[]> {
  return [
    {
      file: DISCOVERY.cli.file,
      body: await bundleCli(ctx.config.siteUrl, ctx.service),
    },
  ];
}

/** Keywords that only describe (builders/cli/schema-check.ts ANNOTATIONS, `$id` kept for `$ref`): left out of cli.mjs. */
const DESCRIPTIVE = new Set(['$schema', 'title', 'description', 'examples', 'default', '$comment']);

/** A schema without its descriptions; the names under `properties` are members, never dropped. */
export function compactSchema(node: unknown, members = false): unknown {
  if (Array.isArray(node)) return node.map((n) => compactSchema(n));
  if (node === null || typeof node !== 'object') return node;
  return Object.fromEntries(
    Object.entries(node)
      .filter(([key]) => members || !DESCRIPTIVE.has(key))
      .map(([key, value]) => [key, compactSchema(value, !members && key === 'properties')]),
  );
}

/** The documents no command reads (status.json and its badge): their schemas stay out of cli.mjs. */
const NOT_READ_BY_CLI = new Set<SchemaName>(['Status', 'StatusBadge']);

/** Every schema a command reads, by title, compact: what cli.mjs checks documents against. */
export function cliSchemas(schemas: Map<string, JsonSchema> = loadSchemas()): Record<string, Record<string, unknown>> {
  return Object.fromEntries(
    [...schemas]
      .filter(([title]) => !NOT_READ_BY_CLI.has(title as SchemaName))
      .map(([title, schema]) => [title, compactSchema(schema) as Record<string, unknown>]),
  );
}

export async function bundleCli(
  defaultBaseUrl: string,
  service: ServiceTables = DEFAULT_SERVICE,
  schemas = cliSchemas(loadSchemas(service)),
): Promise<string> {
  const define = {
    __CLI_DEFAULT_BASE_URL__: JSON.stringify(defaultBaseUrl),
    __CLI_VERSION__: JSON.stringify(VERSION),
    // The deployment's datasets: their routes and commands (builders/cli/deployment.ts).
    __CLI_SERVICE__: JSON.stringify(
      JSON.stringify({
        // What the CLI reads of a dataset (its command, route and schema): the rest stays out of cli.mjs.
        resources: service.resources.map(({ id, title, schema, contentType, v1, alias, command, cardOrder }) => ({
          id,
          title,
          schema,
          contentType,
          v1,
          alias,
          command,
          cardOrder,
        })),
      }),
    ),
    // A string of JSON, parsed once at start: a JSON literal is also the cheapest form for V8 to load.
    __CLI_SCHEMAS__: JSON.stringify(JSON.stringify(schemas)),
  };
  // One bundle per distinct input in a process: the tests build the site dozens of times with the same
  // deployment, and each bundle is an esbuild run of its own.
  const key = JSON.stringify(define);
  let bundled = BUNDLES.get(key);
  if (bundled === undefined) {
    bundled = bundleWith(define, defaultBaseUrl);
    BUNDLES.set(key, bundled);
    bundled.catch(() => BUNDLES.delete(key));
  }
  return bundled;
}

const BUNDLES = new Map<string, Promise<string>>();

/**
 * A dataset's own upstream (`datasets/<id>/source.ts`, docs/architecture.md#add-a-dataset) is for the
 * programs that fetch; the CLI only reads the site. Each such module is replaced by a stub whose every
 * export refuses, so that its clients and their packages (htmlparser2, octokit) stay out of cli.mjs.
 */
const NO_DATASET_SOURCES: esbuild.Plugin = {
  name: 'no-dataset-sources',
  setup(build) {
    build.onLoad({ filter: /[\\/]datasets[\\/][^\\/]+[\\/]source\.ts$/ }, async (args) => {
      const names = [...readFileSync(args.path, 'utf8').matchAll(/^export (?:(?:async )?function|const) (\w+)/gm)].map(
        (m) => m[1],
      );
      return {
        contents: names
          .map((name) => `export function ${name}() { throw new Error('cli.mjs fetches no upstream'); }`)
          .join('\n'),
        loader: 'js',
      };
    });
  },
};

async function bundleWith(define: Record<string, string>, defaultBaseUrl: string): Promise<string> {
  const result = await esbuild.build({
    entryPoints: [ENTRY],
    bundle: true,
    platform: 'node',
    format: 'esm',
    // `node cli.mjs` after a download: the oldest Node with a global fetch is the floor.
    target: 'node18',
    write: false,
    // Readable when someone opens the downloaded file; whitespace only is the bulk of what minify saves.
    minifyWhitespace: true,
    minifySyntax: true,
    legalComments: 'none',
    charset: 'utf8',
    define,
    banner: {
      js:
        '#!/usr/bin/env node\n// cli.mjs: read-only command-line client of ' +
        defaultBaseUrl +
        '. Run: node cli.mjs --help',
    },
    logLevel: 'silent',
    plugins: [NO_DATASET_SOURCES],
  });
  const file = result.outputFiles[0];
  if (!file) throw new Error('esbuild produced no cli.mjs');
  return file.text;
}
