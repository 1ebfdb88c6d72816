// Every way an upstream can fail, as the sources the build and the gateway share see it: an UpstreamError
// naming that upstream, never a payload. What the build does with such an error (exit 1, that snapshot not
// written, the other one written, one stderr line) does not depend on the mode: test/build.test.ts runs
// it once per upstream as a program.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../builders/lib/config.ts';
import { UpstreamError } from '../builders/lib/errors.ts';
import { sourcesOf } from './helpers/sources.ts';
import {
  HTML_CALENDAR_FAILURE_MODES,
  MARKET_FAILURE_MODES,
  startFakeUpstreams,
  type FakeUpstreams,
  type GithubMode,
} from './fakes/upstreams.ts';
import { upstreamEnv } from './helpers/run.ts';

// Monday 2026-11-23 15:00 UTC, 10:00 in Toronto: the fakes' clock and the sources' "now".
const NOW = Date.parse('2026-11-23T15:00:00Z');
let fake: FakeUpstreams;

beforeAll(async () => {
  fake = await startFakeUpstreams({ slowMs: 5000, now: () => NOW });
});
afterAll(async () => {
  await fake.close();
});
beforeEach(() => {
  fake.market.mode = 'ok';
  fake.github = { mode: 'ok' };
});

// The slow mode is the deadline running out: a short one, so that nothing waits long. Every other mode
// gets a long one, so that each fails its own way and no loaded machine turns it into a timeout.
const sources = (env: Record<string, string> = {}) =>
  sourcesOf(
    loadConfig({
      ...upstreamEnv(fake.url),
      UPSTREAM_TIMEOUT_MS: fake.market.mode === 'slow' || fake.github.mode === 'slow' ? '300' : '10000',
      ...env,
    }),
  );

/** The rejection of `work`, which must be an UpstreamError. */
async function upstreamError(work: Promise<unknown>): Promise<UpstreamError> {
  const error: unknown = await work.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(UpstreamError);
  return error as UpstreamError;
}

describe('the market source', () => {
  it('answers a payload when the provider is healthy (the modes below are what changes)', async () => {
    await expect(sources().get('market')!.fetch(NOW)).resolves.toMatchObject({ product: 'MON-USD' });
  });

  it.each(MARKET_FAILURE_MODES)('%s: an UpstreamError naming coinbase', async (mode) => {
    fake.market.mode = mode;
    const error = await upstreamError(sources().get('market')!.fetch(NOW));
    expect(error.upstream).toBe('coinbase');
    expect(error.message).toMatch(/^coinbase/);
  });
});

describe('the contribution sources', () => {
  it.each(HTML_CALENDAR_FAILURE_MODES)('HTML calendar %s: an UpstreamError naming github-html', async (mode) => {
    fake.github.mode = mode;
    const error = await upstreamError(sources().get('contributions')!.fetch(NOW));
    expect(error.upstream).toBe('github-html');
  });

  it.each<GithubMode>(['garbage', 'rate-limited', 'markup-drift', 'missing-day', 'unknown-account', 'bad-token'])(
    'GraphQL calendar %s: an UpstreamError naming github-graphql, without the token',
    async (mode) => {
      fake.github.mode = mode;
      const error = await upstreamError(sources({ GITHUB_TOKEN: 'test-token' }).get('contributions')!.fetch(NOW));
      expect(error.upstream).toBe('github-graphql');
      expect(error.message).not.toContain('test-token');
    },
  );
});
