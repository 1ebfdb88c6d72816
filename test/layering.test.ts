// The layering, read from the import statements of every source file (docs/architecture.md draws it).
// The shared shelves stand in one order, each importing only the shelves before it; programs stand on
// the shelves and never on each other, except for a program's published facts module; inside a program
// its own layers keep their order too. A new import that breaks a rule fails here, naming the file.
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from './helpers/run.ts';

/** The shared shelves, lowest first: each may import only the shelves before it. */
const SHELVES = [
  'builders/lib',
  'builders/contract',
  'builders/domain',
  'builders/upstreams',
  'builders/render',
  'builders/datasets',
];
const below = (shelf: string) => SHELVES.slice(0, SHELVES.indexOf(shelf));

/**
 * What each program may import besides itself, Node's built-ins and packages. A program in a folder of
 * another (`test/demo/` in `tools/`, `gateway/worker/` in `gateway/`) is judged by its own rule: a file
 * belongs to the longest program folder that holds it (programOf).
 */
const PROGRAMS: Record<string, string[]> = {
  'builders/build': [...SHELVES, 'builders/cli/commands.ts'],
  gateway: [...SHELVES],
  // builders/cli/main.ts embeds the site's identity (site/site.json) as the CLI's defaults; the CLI draws a
  // dataset with the picture module of its folder, reached by the dataset's id alone.
  'builders/cli': [...SHELVES, 'site/site.json'],
  // The simulated upstreams are shared by the tests, the demo and the benchmark; the gateway's
  // node-flags.ts is the gateway's published facts module (how every program starts it).
  'test/demo': [...SHELVES, 'test/fakes', 'gateway/node-flags.ts'],
  'test/bench': [...SHELVES, 'test/fakes', 'gateway/node-flags.ts'],
  'test/fakes': [...SHELVES],
  // The gateway as a Cloudflare Worker: the gateway's runtime-neutral core, and on Node (its bundle step)
  // the gateway's own reading of dist/, its OpenAPI document and its codec, so the Worker's table is Node's;
  // and its reading of TRUST_PROXY, for start:edge's local front door (whose CF-Connecting-IP is believed).
  'gateway/worker': [
    ...SHELVES,
    'gateway/core',
    'gateway/http/static-files.ts',
    'gateway/http/openapi-document.ts',
    'gateway/http/node-codec.ts',
    'gateway/quota/ip-ranges.ts',
  ],
  // The build's helpers (bundle.mjs, node-floor.cjs, payload-types.mjs) and the tests' (npm-together.mjs,
  // the screenshot): nothing of the project.
  'builders/tools': [],
  'test/tools': [],
  // The home page's script redraws the charts with the very functions the build drew them with: each
  // dataset's view module, reached by the dataset's id alone.
  site: ['builders/lib', 'builders/contract', 'builders/domain', 'builders/render', 'builders/datasets/*/view.ts'],
};

/**
 * A dataset's view modules (builders/render/dataset-view.ts), reached by the page script and the CLI: browser-safe
 * and dependency-free, they stand on the shelves below datasets/ but for upstreams/ (and on the views of
 * their own folder), and import no package and no Node module.
 */
const VIEW_MODULES = ['builders/datasets/*/view.ts', 'builders/datasets/*/picture.ts'];
/** A folder's payload rule (`rule.ts`: the pure `(upstream answer, now) → payload`), which its views draw with. */
const isRule = (file: string) => within(file, 'builders/datasets/*/rule.ts') && file.split('/').length === 4;
/** A folder's generated payload types (npm run generate:types): declarations only, which its views may name. */
const isPayloadTypes = (file: string) =>
  within(file, 'builders/datasets/*/payload-types.ts') && file.split('/').length === 4;
const VIEWS_STAND_ON = ['builders/lib', 'builders/contract', 'builders/domain', 'builders/render'];

/** Layers inside a program, lowest first: a layer may import only the layers before it, never the program's top. */
const INNER: Record<string, string[]> = {
  // The runtime-neutral core (its quota, its HTTP rules, its routes, then its top, core/gateway.ts), then
  // what only Node needs: the quota's stores and client identity, the socket-level HTTP parts.
  gateway: [
    'gateway/core/quota.ts',
    'gateway/core/http',
    'gateway/core/routes',
    'gateway/core',
    'gateway/quota',
    'gateway/http',
  ],
  'builders/build': [
    'builders/build/artifact.ts',
    'builders/build/pictures',
    'builders/build/content',
    'builders/build/discovery',
    'builders/build/pages',
  ],
};

const RULES: Record<string, string[]> = {
  ...Object.fromEntries(SHELVES.map((s) => [s, below(s)])),
  ...PROGRAMS,
};
const FOLDERS = Object.keys(RULES);

interface Import {
  file: string;
  specifier: string;
  /** The imported file relative to the repository root, for relative specifiers. */
  target: string | undefined;
}

function sourceFiles(dir: string): string[] {
  return readdirSync(join(ROOT, dir), { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && /\.(ts|mts|mjs)$/.test(e.name))
    .map((e) => relative(ROOT, join(e.parentPath, e.name)));
}

/**
 * Static imports and re-exports (`import … from`, `import '…'`, `export … from`) and dynamic `import('…')`,
 * and a dynamic import of a template (`import(`./datasets/${id}/view.ts`)`), whose every `${…}` stands for
 * one path segment, `*`, as esbuild bundles it.
 */
const IMPORT = /(?:\bfrom\s+|\bimport\s*\(?\s*)(['"])([^'"]+)\1|\bimport\s*\(\s*`([^`]+)`/g;

function importsOf(file: string): Import[] {
  const text = readFileSync(join(ROOT, file), 'utf8').replace(/^\s*(\/\/.*|\/?\*.*)$/gm, '');
  return [...text.matchAll(IMPORT)].map((m) => {
    const specifier = m[3] === undefined ? m[2]! : m[3].replace(/\$\{[^}]*\}/g, '*');
    const target = specifier.startsWith('.') ? relative(ROOT, resolve(ROOT, dirname(file), specifier)) : undefined;
    return { file, specifier, target };
  });
}

const topFolder = (path: string) => path.split('/')[0]!;
/** The shelf or program a file belongs to: the longest of FOLDERS that holds it. */
const programOf = (path: string) =>
  FOLDERS.filter((f) => path === f || path.startsWith(f + '/')).sort((a, b) => b.length - a.length)[0];
/** `path` is `place` or inside it; a `*` of either matches one path segment (or stands for any, in a template). */
const within = (path: string, place: string) => {
  if (path === place || path.startsWith(place + '/')) return true;
  const a = path.split('/');
  const b = place.split('/');
  return a.length >= b.length && b.every((seg, i) => seg === '*' || a[i] === '*' || seg === a[i]);
};
const isView = (file: string) => VIEW_MODULES.some((v) => within(file, v) && file.split('/').length === 4);
/** The shelf a file stands in, or undefined. */
const shelfOf = (path: string) => SHELVES.find((s) => within(path, s));
const ALL = FOLDERS.filter((f) => !FOLDERS.some((g) => g !== f && within(f, g)))
  .flatMap(sourceFiles)
  .flatMap(importsOf);

describe('layering', () => {
  it('finds the imports it judges (the reader is not blind)', () => {
    expect(ALL.some((i) => i.file === 'gateway/server.ts' && i.target === 'builders/lib/config.ts')).toBe(true);
    expect(ALL.some((i) => i.file === 'test/demo/main.ts' && i.target === 'test/fakes/upstreams.ts')).toBe(true);
    expect(ALL.filter((i) => i.target !== undefined).length).toBeGreaterThan(200);
  });

  it('the shelves are folders of builders/, in this order: lib, contract, domain, upstreams, render, datasets', () => {
    expect(SHELVES.every((s) => sourceFiles(s).length > 0)).toBe(true);
    // The order docs/architecture.md gives, row by row ("| 1 | `lib/` | …").
    const doc = readFileSync(join(ROOT, 'docs/architecture.md'), 'utf8');
    const rows = [...doc.matchAll(/^\| (\d+) \| `([\w/-]+)\/` \|/gm)].map((m) => `${m[1]} ${m[2]}`);
    expect(rows).toEqual(SHELVES.map((shelf, i) => `${i + 1} ${shelf}`));
    // The order the imports follow: each shelf above the first stands on one before it, none on one after.
    const stands = (from: string, to: string) =>
      ALL.some((i) => shelfOf(i.file) === from && i.target !== undefined && shelfOf(i.target) === to);
    for (const [i, shelf] of SHELVES.entries()) {
      if (i > 0)
        expect(
          below(shelf).some((lower) => stands(shelf, lower)),
          shelf,
        ).toBe(true);
      for (const higher of SHELVES.slice(i + 1))
        expect(stands(shelf, higher), `${shelf} imports ${higher}`).toBe(false);
    }
  });

  it.each(FOLDERS)('%s/ imports only from what it stands on', (folder) => {
    const allowed = [folder, ...RULES[folder]!];
    const wrong = ALL.filter((i) => programOf(i.file) === folder && i.target !== undefined)
      .filter((i) => !allowed.some((place) => within(i.target!, place)))
      .map((i) => `${i.file} imports ${i.specifier}`);
    expect(wrong).toEqual([]);
  });

  it("a dataset's view modules stand only on lib, contract, domain and render, and import no package or Node module", () => {
    const views = sourceFiles('builders/datasets').filter(isView);
    expect(views).toEqual(
      expect.arrayContaining(['builders/datasets/market/view.ts', 'builders/datasets/streak/picture.ts']),
    );
    const wrong = ALL.filter((i) => views.includes(i.file))
      .filter((i) =>
        i.target === undefined
          ? true
          : !VIEWS_STAND_ON.some((place) => within(i.target!, place)) &&
            !(
              (isView(i.target) || isRule(i.target) || isPayloadTypes(i.target)) &&
              dirname(i.target) === dirname(i.file)
            ),
      )
      .map((i) => `${i.file} imports ${i.specifier}`);
    expect(wrong).toEqual([]);
  });

  it('the page script reaches datasets/ only through its view modules, by template', () => {
    const reach = ALL.filter((i) => within(i.file, 'site') && i.target !== undefined)
      .filter((i) => within(i.target!, 'builders/datasets'))
      .map((i) => `${i.file} imports ${i.target}`);
    expect(reach).toEqual(['site/scripts/preview.ts imports builders/datasets/*/view.ts']);
  });

  it('tsconfig.json type-checks exactly the folders that hold the sources', () => {
    const config = JSON.parse(readFileSync(join(ROOT, 'tsconfig.json'), 'utf8')) as { include: string[] };
    const folders = config.include.filter((f) => f !== '*.ts');
    expect(folders.filter((f) => !existsSync(join(ROOT, f)))).toEqual([]);
    expect([...new Set(FOLDERS.map(topFolder)), 'test'].filter((f) => !folders.includes(f))).toEqual([]);
  });

  it.each(Object.keys(INNER))('inside %s/, each layer imports only the layers before it', (program) => {
    const layers = INNER[program]!;
    const layerOf = (path: string) => layers.findIndex((l) => within(path, l));
    const wrong = ALL.filter((i) => i.target !== undefined && layerOf(i.file) >= 0 && within(i.target, program))
      .filter((i) => {
        const to = layerOf(i.target!);
        // The program's top (main, server, request handler) may import any layer; a layer may not import it.
        return to === -1 ? true : to > layerOf(i.file);
      })
      .map((i) => `${i.file} imports ${i.specifier}`);
    expect(wrong).toEqual([]);
  });

  it('no product folder holds more than 16 modules directly', () => {
    const crowded = FOLDERS.flatMap((f) => [f, ...(INNER[f] ?? []).filter((l) => !l.endsWith('.ts'))])
      .map((dir) => ({ dir, n: sourceFiles(dir).filter((f) => dirname(f) === dir).length }))
      .filter(({ n }) => n > 16);
    expect(crowded).toEqual([]);
  });

  it('the root holds what the design card names, and each entry is named on the architecture map', () => {
    const tracked = execFileSync('git', ['ls-files'], { cwd: ROOT, encoding: 'utf8' }).split('\n').filter(Boolean);
    const root = [...new Set(tracked.map(topFolder))].filter((e) => !e.startsWith('.'));
    // The card's entries, the gateway it describes, docs/, and the files every Node project has.
    const CARD = ['package.json', 'tsconfig.json', 'builders', 'schemas', 'site', 'test', 'README.md', 'gateway'];
    const EVERY_NODE_PROJECT = ['package-lock.json', 'LICENSE', 'vitest.config.ts', 'docs'];
    expect(root.filter((e) => ![...CARD, ...EVERY_NODE_PROJECT].includes(e))).toEqual([]);
    const map = readFileSync(join(ROOT, 'docs/architecture.md'), 'utf8');
    const named = (entry: string) => map.includes(`\`${entry}\``) || map.includes(`\`${entry}/\``);
    expect(root.filter((e) => !named(e))).toEqual([]);
  });

  it('nothing outside test/ imports test/', () => {
    const wrong = ALL.filter((i) => i.target !== undefined && !within(i.file, 'test') && within(i.target, 'test')).map(
      (i) => `${i.file} imports ${i.specifier}`,
    );
    expect(wrong).toEqual([]);
  });

  it("the gateway's core is runtime-neutral: nothing it runs imports node:*, and it never names Buffer", () => {
    // Everything the core evaluates (its files and the project files they import, but for type-only
    // imports, which no runtime loads) must run in a Worker as on Node (docs/architecture.md#the-gateways-core).
    const core = sourceFiles('gateway/core');
    expect(core.length).toBeGreaterThan(10);
    const valueImports = (file: string) => {
      const text = readFileSync(join(ROOT, file), 'utf8').replace(/^\s*(\/\/.*|\/?\*.*)$/gm, '');
      return [
        ...text.matchAll(
          /\b(?:import|export)\s+(?!type\b)[^'";]*?from\s+(['"])([^'"]+)\1|\bimport\s*\(?\s*(['"])([^'"]+)\3/g,
        ),
      ].map((m) => m[2] ?? m[4]!);
    };
    const seen = new Set<string>();
    const wrong: string[] = [];
    const visit = (file: string) => {
      if (seen.has(file)) return;
      seen.add(file);
      for (const specifier of valueImports(file)) {
        if (specifier.startsWith('node:')) wrong.push(`${file} imports ${specifier}`);
        else if (specifier.startsWith('.')) {
          const target = relative(ROOT, resolve(ROOT, dirname(file), specifier));
          if (/\.(ts|mts|mjs)$/.test(target)) visit(target);
        }
      }
    };
    core.forEach(visit);
    expect(seen.has('builders/upstreams/single-flight.ts')).toBe(true);
    expect(wrong).toEqual([]);
    const code = (f: string) => readFileSync(join(ROOT, f), 'utf8').replace(/^\s*(\/\/.*|\/?\*.*)$/gm, '');
    const buffers = core.filter((f) => /\bBuffer\b/.test(code(f)));
    expect(buffers).toEqual([]);
  });

  it("the gateway's program carries no builder: no esbuild, marked, yaml or sanitize-html among everything it imports", () => {
    const seen = new Set<string>();
    const packages = new Set<string>();
    const visit = (file: string) => {
      if (seen.has(file)) return;
      seen.add(file);
      for (const i of importsOf(file)) {
        if (i.target === undefined) packages.add(i.specifier);
        else if (/\.(ts|mts|mjs)$/.test(i.target)) visit(i.target);
      }
    };
    visit('gateway/main.ts');
    expect(seen.has('gateway/server.ts')).toBe(true);
    expect([...seen].filter((f) => !within(f, 'gateway') && shelfOf(f) === undefined)).toEqual([]);
    expect([...seen].filter((f) => programOf(f) === 'gateway/worker')).toEqual([]);
    expect([...packages].filter((p) => ['esbuild', 'marked', 'yaml', 'sanitize-html', 'entities'].includes(p))).toEqual(
      [],
    );
  });
});
