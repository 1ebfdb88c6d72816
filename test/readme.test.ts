// The README is the front door: short, the way in within its first screen, its commands table the
// package's scripts exactly, and every link to a guide under docs/ (or another file) leading somewhere.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from './helpers/run.ts';
import { DEFAULT_SERVICE } from '../builders/datasets/registry.ts';

const README = readFileSync(join(ROOT, 'README.md'), 'utf8');
const GUIDES = readdirSync(join(ROOT, 'docs')).filter((f) => f.endsWith('.md'));

/** The rows of the table under `## <heading>`, as arrays of trimmed cells (header and rule dropped). */
function tableRows(markdown: string, heading: string): string[][] {
  const section = markdown.split(/^## /m).find((s) => s.startsWith(`${heading}\n`));
  if (section === undefined) throw new Error(`no "## ${heading}" section`);
  return section
    .split('\n')
    .filter((line) => line.startsWith('|'))
    .slice(2)
    .map((line) =>
      line
        .slice(1, -1)
        .split('|')
        .map((cell) => cell.trim()),
    );
}

describe('README.md', () => {
  it('stays under 16 KB', () => {
    expect(Buffer.byteLength(README)).toBeLessThanOrEqual(16 * 1024);
  });

  it('shows the two commands, the demo and the way to the deploy guide in its first 40 lines', () => {
    const head = README.split('\n').slice(0, 40).join('\n');
    for (const text of ['npm start', 'npm test', 'npm run demo', '(docs/deploying.md)']) expect(head).toContain(text);
  });

  it('shows a picture of the home page from the repository in its first 40 lines: a PNG of a few tens of KiB', () => {
    const head = README.split('\n').slice(0, 40).join('\n');
    const image = /!\[[^\]]+\]\(([^)\s]+\.png)\)/.exec(head)?.[1];
    expect(image).toBe('docs/home.png');
    const png = readFileSync(join(ROOT, image!));
    expect(png.subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
    expect(png.length).toBeLessThanOrEqual(100 * 1024);
  });

  it("lists exactly the package's scripts in its commands table", () => {
    const { scripts } = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
      scripts: Record<string, string>;
    };
    const listed = tableRows(README, 'Commands')
      .map(([command]) => /^`npm (?:run )?([\w:-]+)`$/.exec(command ?? '')?.[1])
      .filter((name): name is string => name !== undefined && name !== 'ci');
    expect([...listed].sort()).toEqual(Object.keys(scripts).sort());
  });

  it("the demo's list of labelled outputs names every card and every CLI command that opens with the notice", () => {
    // The README points to the list in docs/configuration.md.
    const guide = readFileSync(join(ROOT, 'docs/configuration.md'), 'utf8');
    const demo = guide.split(/^### /m).find((s) => s.startsWith('What the demo simulates\n'))!;
    expect(README).toContain('(docs/configuration.md#what-the-demo-simulates)');
    const text = demo.replace(/\s+/g, ' ');
    expect(text).toContain('on every card');
    // profile and api open with it (builders/cli/run.ts), and each dataset's command that reads the flag: all but
    // those the sentence names as the exceptions.
    const sentence =
      /the CLI's `profile`, `api` and every data command but ((?:`\w+`(?:, | and )?)+) open with the notice/.exec(
        text,
      )?.[1];
    expect(sentence?.match(/`(\w+)`/g)?.map((c) => c.slice(1, -1))).toEqual(
      DEFAULT_SERVICE.resources.filter((r) => !r.command.readsSimulated).map((r) => r.command.name),
    );
  });

  it('links at least three guides under docs/, and every guide there', () => {
    expect(GUIDES.length).toBeGreaterThanOrEqual(3);
    for (const guide of GUIDES) expect(README).toContain(`(docs/${guide})`);
  });

  it.each(['README.md', ...GUIDES.map((g) => `docs/${g}`)])('%s: every relative link leads to a file', (file) => {
    // Code shows Markdown as written (a writing's `![alt](diagram.png)`): it links nothing.
    const text = readFileSync(join(ROOT, file), 'utf8')
      .replace(/```[\s\S]*?```/g, '')
      .replace(/`[^`\n]*`/g, '');
    const targets = [...text.matchAll(/\]\(([^)\s]+)\)/g)]
      .map((m) => m[1]!.split('#')[0]!)
      .filter((target) => target !== '' && !/^[a-z]+:/.test(target));
    const missing = targets.filter((target) => !existsSync(join(ROOT, dirname(file), target)));
    expect(missing).toEqual([]);
  });
});
