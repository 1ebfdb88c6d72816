// The CLI's `price` and `contributions` (in-process, test/helpers/cli-run.ts) against a running gateway with fake upstreams: the
// pictures (a sparkline fitted to the width, a seven-row heatmap whose levels read without colour), --json
// printing the payload itself (one schema-valid document), an upstream failure as exit 1 with the
// problem's title, detail and resolution on one stderr line, --version, and catalog naming its URL once.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LEVEL_CHARS } from '../builders/datasets/contributions/picture.ts';
import type { GitHubContributions } from '../builders/domain/contributions.ts';
import type { MarketData } from '../builders/domain/market.ts';
import { createValidator } from '../builders/contract/schemas.ts';
import { startFakeUpstreams, type FakeUpstreams } from './fakes/upstreams.ts';
import { runCli } from './helpers/cli-run.ts';
import { startTestGateway, type TestGateway } from './helpers/gateway.ts';
import { sharedSite, type SiteFiles } from './helpers/site-dist.ts';

const validator = createValidator();
const ANSI = /\u001b\[/;
const BLOCK_LINE = /^ {2}([▁▂▃▄▅▆▇█]+)$/m;

let site: SiteFiles;
let fake: FakeUpstreams;
let gateway: TestGateway;

beforeAll(async () => {
  site = sharedSite();
  fake = await startFakeUpstreams();
  gateway = await startTestGateway(fake.url, site.dir);
});
afterAll(async () => {
  await gateway?.close();
  await fake?.close();
});

const run = (args: string[], env: Record<string, string> = {}) => runCli([...args, '--base-url', gateway.url], env);

describe('price', () => {
  it('prints value, change, low, high, as-of, source, the no-advice line and a sparkline as wide as the terminal', async () => {
    for (const columns of [40, 100]) {
      const r = await run(['price'], { COLUMNS: String(columns) });
      expect(r.stderr).toBe('');
      expect(r.code).toBe(0);
      expect(r.stdout).not.toMatch(ANSI);
      const line = BLOCK_LINE.exec(r.stdout);
      expect(line, r.stdout).not.toBeNull();
      expect([...line![1]!]).toHaveLength(columns - 4);
      // the week goes somewhere: more than one block height is used
      expect(new Set(line![1]).size).toBeGreaterThan(2);
      expect(r.stdout.replace(/\s+/g, ' ')).toMatch(/^MON-USD \d+\.\d+ USD [+\u2212]?\d+\.\d{2} %/);
      expect(r.stdout).toMatch(/Low {5}\d+\.\d+ USD/);
      expect(r.stdout).toMatch(/High {4}\d+\.\d+ USD/);
      expect(r.stdout).toMatch(/As of {3}\d{4}-\d{2}-\d{2} \d{2}:\d{2} UTC/);
      expect(r.stdout).toContain('Coinbase Exchange');
      expect(r.stdout.replace(/\s+/g, ' ')).toContain('not a trading recommendation or financial advice');
    }
  });

  it('prints value, low and high with the same number of decimals', async () => {
    const r = await run(['price']);
    const low = /Low +\d+\.(\d+)/.exec(r.stdout)![1]!.length;
    const high = /High +\d+\.(\d+)/.exec(r.stdout)![1]!.length;
    const value = /^MON-USD {2}\d+\.(\d+)/.exec(r.stdout)![1]!.length;
    expect(new Set([low, high, value]).size).toBe(1);
  });

  it('--json prints exactly the payload: one document, valid against MarketData', async () => {
    const r = await run(['price', '--json']);
    expect(r.code).toBe(0);
    const doc = JSON.parse(r.stdout) as MarketData;
    validator.validate('MarketData', doc);
    expect(doc.product).toBe('MON-USD');
  });
});

describe('contributions', () => {
  it('prints the total, the window and seven rows whose characters carry the levels without colour', async () => {
    const calendar = JSON.parse((await run(['contributions', '--json'])).stdout) as GitHubContributions;
    validator.validate('GitHubContributions', calendar);
    for (const env of [{}, { NO_COLOR: '1', FORCE_COLOR: '1' }] as Array<Record<string, string>>) {
      const r = await run(['contributions'], { COLUMNS: '80', ...env });
      expect(r.code).toBe(0);
      expect(r.stdout).not.toMatch(ANSI);
      expect(r.stdout).toContain(`${calendar.totalContributions.toLocaleString('en-US')} contributions`);
      expect(r.stdout).toContain(`${calendar.startDate} to ${calendar.endDate}`);
      const cells = new RegExp(`^ {2}(Mon|Wed|Fri| {3}) ([${LEVEL_CHARS.join('')} ]+)$`, 'gm');
      const rows = [...r.stdout.matchAll(cells)];
      expect(rows).toHaveLength(7);
      // The whole year fits 80 columns: every day is one cell, and each cell's character is its level.
      const drawn = rows.flatMap((row) => [...row[2]!].filter((c) => c !== ' '));
      expect(drawn).toHaveLength(365);
      const counts = LEVEL_CHARS.map((c) => drawn.filter((d) => d === c).length);
      const expected = LEVEL_CHARS.map((_, level) => calendar.days.filter((d) => d.level === level).length);
      expect(counts).toEqual(expected);
    }
  });

  it('shades the levels on a colour terminal (FORCE_COLOR) and shows the latest weeks when narrow', async () => {
    const color = await run(['contributions'], { FORCE_COLOR: '1' });
    expect(color.stdout).toMatch(/\u001b\[38;5;\d+m[░▒▓█]/);
    const narrow = await run(['contributions'], { COLUMNS: '40' });
    expect(narrow.code).toBe(0);
    for (const line of narrow.stdout.split('\n')) expect([...line].length).toBeLessThanOrEqual(40);
    expect(narrow.stdout.replace(/\s+/g, ' ')).toMatch(/widen the terminal to see all \d+ weeks/);
  });
});

describe('failures and the other commands', () => {
  it('an upstream failure is exit 1 with the problem title, detail and resolution on one line', async () => {
    const failing = await startFakeUpstreams();
    const gw = await startTestGateway(failing.url, site.dir);
    // Answers that are not retried, so the test does not wait out the retry backoff.
    failing.market.mode = 'not-found';
    failing.github = { mode: 'unknown-account' };
    try {
      for (const command of ['price', 'contributions']) {
        for (const json of [[], ['--json']]) {
          const r = await runCli([command, ...json, '--base-url', gw.url]);
          expect(r.code).toBe(1);
          expect(r.stdout).toBe('');
          expect(r.stderr.trimEnd().split('\n')).toHaveLength(1);
          expect(r.stderr).toContain('answered 502: Upstream data unavailable');
          expect(r.stderr).toMatch(/Resolution: \S/);
        }
      }
    } finally {
      await gw.close();
      await failing.close();
    }
  });

  it('an extra argument is a usage error (exit 2)', async () => {
    const r = await run(['price', 'now']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/unexpected argument "now" after price/);
  });

  it('--version prints the version and the default site', async () => {
    const r = await runCli(['--version']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^cli\.mjs \d+\.\d+\.\d+ \(default site https?:\/\/\S+\)\n$/);
    const doc = JSON.parse((await runCli(['--version', '--json'])).stdout) as Record<string, unknown>;
    expect(doc.version).toMatch(/^\d+\.\d+\.\d+$/);
  });

  it('catalog names the catalog URL once', async () => {
    const r = await run(['catalog']);
    expect(r.code).toBe(0);
    expect(r.stdout.split(`${gateway.url}/.well-known/api-catalog`).length - 1).toBe(1);
  });

  it('profile does not point at a preview that is not there', async () => {
    const r = await run(['profile']);
    expect(r.code).toBe(0);
    expect(r.stdout).not.toMatch(/preview above/);
    expect(await site.read('index.md')).not.toMatch(/preview above/);
  });
});
