// The layering, read from the import statements of every source file: programs stand on core/ and never
// on each other, core/ stands on nothing above it, and tools never stand on the tests. A new import that
// breaks a rule fails here, naming the file and the import.
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from './helpers/run.ts';

/** Which top-level folders each folder may import from (besides itself, Node's built-ins and packages). */
const MAY_IMPORT: Record<string, string[]> = {
  core: [],
  builders: ['core'],
  gateway: ['core'],
  // cli/main.ts embeds the site's identity (site/site.json) as the CLI's defaults.
  cli: ['core', 'site'],
  // The simulated upstreams are shared by the tests, the demo and the benchmark.
  demo: ['core', 'fakes'],
  bench: ['core', 'fakes'],
  fakes: ['core'],
  tools: [],
  // The home page's script redraws the charts with the very functions the build drew them with.
  site: ['core', 'builders'],
};
const FOLDERS = Object.keys(MAY_IMPORT);

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

/** Static imports and re-exports (`import … from`, `import '…'`, `export … from`) and dynamic `import('…')`. */
const IMPORT = /(?:\bfrom\s+|\bimport\s*\(?\s*)(['"])([^'"]+)\1/g;

function importsOf(file: string): Import[] {
  const text = readFileSync(join(ROOT, file), 'utf8').replace(/^\s*(\/\/.*|\/?\*.*)$/gm, '');
  return [...text.matchAll(IMPORT)].map((m) => {
    const specifier = m[2]!;
    const target = specifier.startsWith('.') ? relative(ROOT, resolve(ROOT, dirname(file), specifier)) : undefined;
    return { file, specifier, target };
  });
}

const topFolder = (path: string) => path.split('/')[0]!;
const ALL = FOLDERS.flatMap(sourceFiles).flatMap(importsOf);

describe('layering', () => {
  it('finds the imports it judges (the reader is not blind)', () => {
    expect(ALL.some((i) => i.file === 'gateway/server.ts' && i.target === 'lib/config.ts')).toBe(true);
    expect(ALL.some((i) => i.file === 'demo/main.ts' && i.target === 'fakes/upstreams.ts')).toBe(true);
    expect(ALL.filter((i) => i.target !== undefined).length).toBeGreaterThan(200);
  });

  it.each(FOLDERS)('%s/ imports only from the folders it stands on', (folder) => {
    const allowed = new Set([folder, ...MAY_IMPORT[folder]!]);
    const wrong = ALL.filter((i) => topFolder(i.file) === folder && i.target !== undefined)
      .filter((i) => !allowed.has(topFolder(i.target!)))
      .map((i) => `${i.file} imports ${i.specifier}`);
    expect(wrong).toEqual([]);
  });

  it('no program imports test/, and nothing outside test/ does', () => {
    const wrong = ALL.filter((i) => i.target !== undefined && topFolder(i.target) === 'test').map(
      (i) => `${i.file} imports ${i.specifier}`,
    );
    expect(wrong).toEqual([]);
  });

  it("the gateway's program carries no builder: no esbuild, marked or yaml among everything it imports", () => {
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
    expect([...seen].filter((f) => topFolder(f) !== 'gateway' && topFolder(f) !== 'core')).toEqual([]);
    expect([...packages].filter((p) => ['esbuild', 'marked', 'yaml'].includes(p))).toEqual([]);
  });
});
