// Content at scale (issue 41, docs/performance.md#content-at-scale-issue-41): the test site plus 3,000
// generated writings, built by the program itself (`node --max-semi-space-size=4 .build/build.mjs`, as
// `npm run build` runs it) against the fake upstreams. It must exit 0 with every writing's page, twin and
// preview picture written, and its peak resident memory (getrusage's maxRSS, read by the build process
// itself as it exits, its threads included) must stay within 640 MiB: issue 41's goal is 512 MiB, which
// the build met at 415 to 436 MiB until issue 56's writings (section links, reading time, tags, a search
// index) took it to 510 to 578 MiB over eight runs; the guard is what it was before issue 41's last round,
// and docs/performance.md#content-at-scale-issue-41 says what is left to win back. Time is docs/performance.md's, never a test's:
// the test prints the wall and CPU time it saw, and asserts neither. CONTENT_SCALE_WRITINGS=<n> builds
// another number of writings (the curve in docs/performance.md was measured so).
import { spawn } from 'node:child_process';
import { mkdtemp, readdir, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BUILD_NODE_FLAGS } from '../../builders/build/build.ts';
import { PAGES, shareImageFile } from '../../builders/contract/pages.ts';
import { startFakeUpstreams, type FakeUpstreams } from '../fakes/upstreams.ts';
import { contentWithWritings } from '../helpers/generated-writings.ts';
import { cleanEnv, ROOT, upstreamEnv } from '../helpers/run.ts';
import { FIXTURE_SITE, TEST_SITE_CLOCK, TEST_SITE_URL } from '../helpers/site-dist.ts';

const WRITINGS = Number(process.env.CONTENT_SCALE_WRITINGS ?? 3000);
/** The bound on the build's peak resident memory the test asserts (issue 41's goal, 512 MiB, is not met: above). */
const MAX_PEAK_RSS_KIB = 640 * 1024;
/** A guard against a hang, far above the 60 s the build is meant to take on an idle machine. */
const HANG_GUARD_MS = 900_000;

/**
 * Loaded before the build (`--import`): as the process exits, one stderr line with its own peak resident
 * memory (KiB) and CPU time (µs, every thread of the process), from getrusage.
 */
const RESOURCES_REPORT = `data:text/javascript,${encodeURIComponent(
  "import { writeSync } from 'node:fs';" +
    "process.on('exit', () => { const u = process.resourceUsage();" +
    ' writeSync(2, `\\nresources ${JSON.stringify({ maxRss: u.maxRSS, cpu: u.userCPUTime + u.systemCPUTime })}\\n`); });',
)}`;

interface MeasuredBuild {
  code: number | null;
  stderr: string;
  wallMs: number;
  resources?: { maxRss: number; cpu: number };
}

function measuredBuild(args: string[], env: Record<string, string>): Promise<MeasuredBuild> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(
      process.execPath,
      [...BUILD_NODE_FLAGS, '--import', RESOURCES_REPORT, join(ROOT, '.build', 'build.mjs'), ...args],
      { cwd: ROOT, env, stdio: ['ignore', 'ignore', 'pipe'] },
    );
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d));
    const timer = setTimeout(() => child.kill('SIGKILL'), HANG_GUARD_MS);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      const line = /^resources (\{.*\})$/m.exec(stderr);
      resolve({
        code,
        stderr: stderr.replace(/^resources .*$/m, '').trim(),
        wallMs: performance.now() - started,
        ...(line ? { resources: JSON.parse(line[1]!) as MeasuredBuild['resources'] } : {}),
      });
    });
  });
}

describe(`a site of ${WRITINGS} writings`, () => {
  let tmp: string;
  let fake: FakeUpstreams;
  let slugs: string[];
  let out: string;
  let built: MeasuredBuild;

  beforeAll(async () => {
    tmp = await mkdtemp(join(tmpdir(), 'content-scale-'));
    const content = join(tmp, 'site');
    slugs = await contentWithWritings(FIXTURE_SITE, content, WRITINGS);
    fake = await startFakeUpstreams({ now: () => TEST_SITE_CLOCK });
    out = join(tmp, 'dist');
    built = await measuredBuild(
      ['--out', out, '--content', content],
      cleanEnv({
        ...upstreamEnv(fake.url),
        SITE_URL: TEST_SITE_URL,
        UPSTREAM_TIMEOUT_MS: '20000',
        SOURCE_DATE_EPOCH: String(TEST_SITE_CLOCK / 1000),
      }),
    );
    const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
    console.log(
      `content-scale: ${WRITINGS} writings: exit ${built.code}, wall ${seconds(built.wallMs)}` +
        (built.resources
          ? `, CPU ${seconds(built.resources.cpu / 1000)}, peak RSS ${(built.resources.maxRss / 1024).toFixed(0)} MiB (bound ${MAX_PEAK_RSS_KIB / 1024} MiB)`
          : ''),
    );
  }, HANG_GUARD_MS + 60_000);

  afterAll(async () => {
    await fake?.close();
    if (tmp) await rm(tmp, { recursive: true, force: true });
  });

  it('builds with exit 0 within 640 MiB of peak resident memory', () => {
    expect(built.code, built.stderr).toBe(0);
    expect(built.resources, 'the build reported its resource use as it exited').toBeDefined();
    expect(built.resources!.maxRss).toBeGreaterThan(0);
    expect(built.resources!.maxRss).toBeLessThanOrEqual(MAX_PEAK_RSS_KIB);
  });

  it("writes every writing's page, Markdown twin and preview picture", async () => {
    const files = new Set(
      (await readdir(out, { recursive: true, withFileTypes: true }))
        .filter((e) => e.isFile())
        .map((e) => join(e.parentPath, e.name).slice(out.length + 1)),
    );
    const missing = slugs.flatMap((slug) => {
      const page = PAGES.writing(slug);
      return [page.htmlFile, page.markdownFile, shareImageFile(page)].filter((f) => !files.has(f));
    });
    expect(missing.slice(0, 10), `${missing.length} files missing`).toEqual([]);
    // A picture is a real PNG of its own, not an empty file: each differs from the next in its title.
    const sizes = await Promise.all(slugs.slice(0, 20).map((s) => stat(join(out, shareImageFile(PAGES.writing(s))))));
    for (const size of sizes) expect(size.size).toBeGreaterThan(10_000);
  });
});
