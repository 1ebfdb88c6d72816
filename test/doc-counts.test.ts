// Words that cannot go stale (docs/architecture.md#add-a-dataset): where README.md or a guide under docs/
// counts the deployment's data URLs, operations, tools, cards or datasets in words ("six data URLs"), the
// count is the registry's. The guides mostly say "every data URL" instead; this holds the rest to the truth.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEFAULT_SERVICE } from '../builders/datasets/registry.ts';
import { ROOT } from './helpers/run.ts';

const NUMBERS = ['one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine', 'ten', 'eleven', 'twelve'];
const datasets = DEFAULT_SERVICE.resources.length;
/** What each counted noun is, in the default deployment (every dataset has a v1 path and an alias, and two cards). */
const COUNTS: Record<string, number> = {
  'data URLs': datasets * 2,
  'data paths': datasets * 2,
  'data operations': datasets * 2,
  'data routes': datasets * 2,
  tools: datasets * 2,
  'MCP tools': datasets * 2,
  cards: DEFAULT_SERVICE.cards.length,
  'SVG cards': DEFAULT_SERVICE.cards.length,
  snapshots: datasets * 2,
  'extension-less snapshots': datasets * 2,
  datasets,
  'data resources': datasets,
  payloads: datasets,
  'data commands': datasets,
};
const COUNTED = new RegExp(
  `\\b(${NUMBERS.join('|')})\\s+(${Object.keys(COUNTS)
    .sort((a, b) => b.length - a.length)
    .join('|')})\\b`,
  'gi',
);

/** Every "<number> <noun>" of the text, with the number the registry gives for it. */
function counts(text: string): Array<{ said: string; truth: number; number: number }> {
  return [...text.replace(/\s+/g, ' ').matchAll(COUNTED)].map((m) => ({
    said: m[0],
    number: NUMBERS.indexOf(m[1]!.toLowerCase()) + 1,
    truth: COUNTS[Object.keys(COUNTS).find((k) => k.toLowerCase() === m[2]!.toLowerCase())!]!,
  }));
}

const DOCUMENTS = [
  'README.md',
  ...readdirSync(join(ROOT, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .map((f) => `docs/${f}`),
];

describe('counts in the documents', () => {
  it('finds a count where there is one (the reader is not blind)', () => {
    expect(counts('answers the six data\nURLs live; nine tools; two payloads').map((c) => c.said)).toEqual([
      'six data URLs',
      'nine tools',
      'two payloads',
    ]);
    expect(counts('six steps, a six-node cluster')).toEqual([]);
  });

  it.each(DOCUMENTS)('%s counts data URLs, operations, tools, cards and datasets as the registry does', (file) => {
    const wrong = counts(readFileSync(join(ROOT, file), 'utf8'))
      .filter((c) => c.number !== c.truth)
      .map((c) => `"${c.said}" (the registry has ${c.truth})`);
    expect(wrong).toEqual([]);
  });
});
