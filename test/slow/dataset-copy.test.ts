// A dataset is one folder and one registry entry (docs/architecture.md#add-a-dataset), tried as a
// maintainer would: a copy of the repository's tracked files in which the streak's folder is copied under
// a new id with only its strings renamed, and the registry imports and lists it. Nothing else changes.
// That copy type-checks, builds (its JSON, alias, cards, OpenAPI operations and home figure), its gateway
// answers the route and lists the MCP tool, its cli.mjs prints for the new command what `streak` prints,
// and its home page in Chromium redraws the new figure with no script error.
import type { ChildProcess } from 'node:child_process';
import { cp, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeUpstreams, type FakeUpstreams } from '../fakes/upstreams.ts';
import { launchChromium, browserAvailability } from '../helpers/browser.ts';
import { upstreamEnv } from '../helpers/run.ts';
import { copyRepository, runIn, startGatewayIn } from '../helpers/repo-copy.ts';
import { register } from '../helpers/dataset-recipe.ts';

const ID = 'streak-copy';

/** The copy's own edits: the folder's strings, then the registry's import and entry. */
async function copyStreak(dir: string): Promise<void> {
  await cp(join(dir, 'builders/datasets/streak'), join(dir, `builders/datasets/${ID}`), { recursive: true });
  const index = join(dir, `builders/datasets/${ID}/index.ts`);
  const renamed = (await readFile(index, 'utf8'))
    .replace("id: 'streak'", `id: '${ID}'`)
    .replace("title: 'Contribution streak'", "title: 'Contribution streak copy'")
    .replaceAll('github-streak', `github-${ID}`)
    .replaceAll("GithubStreak'", "GithubStreakCopy'")
    .replace("name: 'streak'", `name: '${ID}'`);
  await writeFile(index, renamed);
  // Its import and its line in datasets(): nothing else of the registry names a dataset (its cards come
  // from its resource's cardOrder).
  await register(dir, {
    afterImport: "import { streakDataset } from './streak/index.ts';",
    importLine: `import { streakDataset as copyDataset } from './${ID}/index.ts';`,
    afterEntry: '    streakDataset(options.calendarTimeZone),',
    entry: '    copyDataset(options.calendarTimeZone),',
  });
}

describe('a copy of the streak under a new id, one folder and one registry entry', () => {
  let dir: string;
  let fake: FakeUpstreams;
  let gateway: { child: ChildProcess; url: string } | undefined;
  let env: Record<string, string>;

  beforeAll(async () => {
    dir = await copyRepository('dataset-copy-');
    await copyStreak(dir);
    fake = await startFakeUpstreams();
    // No live feed: offline, the page's socket to Coinbase would fail with a console error that is not the
    // copied dataset's (the live feed has its own test, test/slow/live-feed.test.ts).
    env = { ...upstreamEnv(fake.url), SITE_URL: 'http://127.0.0.1:8080', MARKET_WS_URL: 'off' };
  }, 120_000);

  afterAll(async () => {
    gateway?.child.kill('SIGTERM');
    await fake?.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('type-checks', async () => {
    const result = await runIn(dir, ['node_modules/typescript-native/bin/tsc', '--noEmit']);
    expect(result.stdout + result.stderr).toBe('');
    expect(result.code).toBe(0);
  }, 180_000);

  it('builds its JSON at both paths, both cards, two OpenAPI operations and its home figure', async () => {
    expect((await runIn(dir, ['builders/tools/bundle.mjs'])).code).toBe(0);
    const build = await runIn(dir, ['.build/build.mjs'], env);
    expect(build.stderr).toBe('');
    expect(build.code).toBe(0);
    const dist = (file: string) => readFile(join(dir, 'dist', file), 'utf8');
    const streak = JSON.parse(await dist('api/v1/github-streak')) as unknown;
    expect(JSON.parse(await dist(`api/v1/github-${ID}`))).toEqual(streak);
    expect(JSON.parse(await dist(`api/github-${ID}`))).toEqual(streak);
    expect(await dist(`cards/github-${ID}.svg`)).toContain('<svg');
    expect(await dist(`cards/github-${ID}-dark.svg`)).toContain('<svg');
    const openapi = JSON.parse(await dist('openapi.json')) as {
      paths: Record<string, { get?: { operationId: string } }>;
    };
    expect(openapi.paths[`/api/v1/github-${ID}`]?.get?.operationId).toBe('getV1GithubStreakCopy');
    expect(openapi.paths[`/api/github-${ID}`]?.get?.operationId).toBe('getGithubStreakCopy');
    expect(await dist('index.html')).toContain(`data-preview="${ID}"`);
  }, 180_000);

  it('its gateway answers the route and lists the MCP tool; its cli.mjs prints what `streak` prints', async () => {
    gateway = await startGatewayIn(dir, env);
    for (const path of [`/api/v1/github-${ID}`, `/api/github-${ID}`])
      expect((await fetch(new URL(path, gateway.url))).status).toBe(200);
    const tools = await fetch(new URL('/mcp', gateway.url), {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    });
    expect(await tools.text()).toContain('"getV1GithubStreakCopy"');
    const cli = (command: string) => runIn(dir, ['dist/cli.mjs', command, '--base-url', gateway!.url]);
    const [streak, copy] = await Promise.all([cli('streak'), cli(ID)]);
    expect(copy.code).toBe(0);
    expect(copy.stdout).toContain('Longest');
    expect(copy.stdout).toBe(streak.stdout);
  }, 60_000);

  it.runIf(browserAvailability().available)(
    'its home page in Chromium redraws the figure, no script error',
    async () => {
      const browser = await launchChromium();
      try {
        const page = await browser.newPage();
        const errors: string[] = [];
        page.on('pageerror', (e) => errors.push(e.message));
        page.on('console', (m) => void (m.type() === 'error' && errors.push(m.text())));
        await page.goto(gateway!.url);
        await page.waitForSelector(`[data-preview="${ID}"][data-refreshed="true"]`);
        expect(await page.locator(`[data-preview="${ID}"] [data-preview-body]`).innerText()).toContain(
          'Longest streak',
        );
        expect(errors).toEqual([]);
      } finally {
        await browser.close();
      }
    },
    60_000,
  );
});
