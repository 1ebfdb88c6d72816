// The CLI's stale warning (issue 30), in process: run(argv, io) with an injected clock against the shared
// site served on loopback. A snapshot past its validity (builders/domain/freshness.ts) is still printed on stdout
// with exit 0, and stderr says in one line how old it is; a valid one prints no warning.
import { readdirSync, readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { run, type Io } from '../builders/cli/run.ts';
import type { SchemaSet } from '../builders/cli/schema-check.ts';
import type { GitHubContributions } from '../builders/domain/contributions.ts';
import { PROJECTS_REUSE_MAX_MS } from '../builders/datasets/projects/rule.ts';
import { sharedSite, TEST_SITE_CLOCK } from './helpers/site-dist.ts';
import { startServeHandler, type StaticServer } from './helpers/site-serve.ts';

const DAY = 86_400_000;
const SCHEMAS: SchemaSet = Object.fromEntries(
  readdirSync(new URL('../schemas/', import.meta.url))
    .filter((f) => f.endsWith('.schema.json'))
    .map((f) => JSON.parse(readFileSync(new URL(`../schemas/${f}`, import.meta.url), 'utf8')) as { title: string })
    .map((s) => [s.title, s]),
);

let server: StaticServer;
beforeAll(async () => {
  server = await startServeHandler(sharedSite().dir);
});
afterAll(() => server?.close());

async function cli(argv: string[], nowMs: number): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const io: Io = {
    env: {},
    stdout: { write: (t: string) => (stdout += t) },
    stderr: { write: (t: string) => (stderr += t) },
    now: () => nowMs,
    // What is said of a slow site is test/cli.test.ts's; a loaded machine must not add a line here.
    waitNoticeMs: 60_000,
  };
  const code = await run([...argv, '--base-url', server.url], io, server.url, 'test', SCHEMAS);
  return { code, stdout, stderr };
}

describe('a data command reading a snapshot', () => {
  it.each([['contributions'], ['contributions', '--json'], ['price'], ['price', '--json']])(
    '%j ten days after the build: the data on stdout, exit 0, one stale line on stderr',
    async (...argv) => {
      const r = await cli(argv, TEST_SITE_CLOCK + 10 * DAY);
      expect(r.code).toBe(0);
      expect(r.stdout.length).toBeGreaterThan(100);
      const lines = r.stderr.trimEnd().split('\n');
      expect(lines).toHaveLength(1);
      expect(lines[0]).toMatch(
        /^cli\.mjs: warning: stale .*: These data are 10 days old: the site stopped refreshing them/,
      );
    },
  );

  it('--json prints the payload itself, stale or not', async () => {
    const stale = await cli(['contributions', '--json'], TEST_SITE_CLOCK + 10 * DAY);
    const fresh = await cli(['contributions', '--json'], TEST_SITE_CLOCK + 60_000);
    expect(stale.stdout).toBe(fresh.stdout);
    expect((JSON.parse(stale.stdout) as GitHubContributions).days).toHaveLength(365);
  });

  it.each([['contributions'], ['price']])('%s five minutes after the build: no warning', async (command) => {
    const r = await cli([command], TEST_SITE_CLOCK + 5 * 60_000);
    expect(r.code).toBe(0);
    expect(r.stderr).toBe('');
  });

  it('the market is stale three hours after its asOf, the calendar not before its nextRefreshAt', async () => {
    const calendar = await sharedSite().json<GitHubContributions>('api/v1/github-contributions');
    const market = await sharedSite().json<{ asOf: string }>('api/v1/mon-price');
    const marketEnd = Date.parse(market.asOf) + 3 * 3_600_000;
    expect((await cli(['price'], marketEnd - 1)).stderr).toBe('');
    expect((await cli(['price'], marketEnd)).stderr).toMatch(/stale market preview: These data are 3 h old/);
    const calendarEnd = Date.parse(calendar.nextRefreshAt);
    expect((await cli(['contributions'], calendarEnd - 1)).stderr).toBe('');
    expect((await cli(['contributions'], calendarEnd)).stderr).toMatch(
      /stale contribution calendar: These data are 1 day old/,
    );
  });

  it('the projects are current for their own 7 days (the page says so too), not the market three hours', async () => {
    const projects = await sharedSite().json<{ asOf: string }>('api/v1/github-projects');
    const end = Date.parse(projects.asOf) + PROJECTS_REUSE_MAX_MS;
    expect((await cli(['projects'], Date.parse(projects.asOf) + 5 * 3_600_000)).stderr).toBe('');
    expect((await cli(['projects'], end - 1)).stderr).toBe('');
    expect((await cli(['projects'], end)).stderr).toMatch(/stale projects: These data are 7 days old/);
  });
});
