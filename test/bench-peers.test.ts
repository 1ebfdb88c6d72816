// The market route's peers in `npm run bench`: the fake provider as a program of its own
// (.build/fake-upstreams.mjs) and the bare proxy (test/bench/bare-proxy.mjs) on node:http and on fetch. A
// peer that answered something else than the provider's ticker would make the floor figure meaningless.
import { spawnSync } from 'node:child_process';
import { afterAll, describe, expect, it } from 'vitest';
import { parseTicker } from '../builders/upstreams/coinbase.ts';
import { FAKE_UPSTREAMS_ENTRY, ProcessGroup, startBareProxy, startFakeProcess } from './bench/processes.ts';

const group = new ProcessGroup();
/** A fixed instant for the provider program: 2026-03-08 07:00 UTC, the morning Toronto springs forward. */
const NOW_MS = Date.UTC(2026, 2, 8, 7, 0, 0);
afterAll(() => group.stopAll());

const getJson = async (url: string) => {
  const response = await fetch(url);
  return { status: response.status, body: await response.text() };
};

describe('the bench peers of the market route', () => {
  it('the fake provider runs as its own process, both proxies relay its ticker, and a stopped provider is a 502', async () => {
    // The program runs on the clock it is given, not the real one: its ticker is a second and a half old.
    const provider = await startFakeProcess(group, NOW_MS);
    const ticker = `${provider.url}/products/MON-USD/ticker`;
    const direct = await getJson(ticker);
    expect(direct.status).toBe(200);
    expect(parseTicker(JSON.parse(direct.body)).price).toBeGreaterThan(0);
    expect((JSON.parse(direct.body) as { time: string }).time).toBe('2026-03-08T06:59:58.500123Z');

    const proxies = [await startBareProxy(group, ticker, 'http'), await startBareProxy(group, ticker, 'fetch')];
    for (const proxy of proxies) {
      const relayed = await getJson(`${proxy.url}/api/v1/mon-price`);
      expect(relayed.status).toBe(200);
      expect(relayed.body).toBe(direct.body);
    }

    // SIGTERM ends the provider program cleanly; the proxies then have nothing to relay.
    expect(await group.stop(provider.managed)).toBe(0);
    for (const proxy of proxies) expect((await getJson(`${proxy.url}/api/v1/mon-price`)).status).toBe(502);
  });

  it('the provider program refuses a clock it cannot read, with its usage and exit code 2', () => {
    for (const args of [['--now'], ['--now', 'tomorrow'], ['--later', '0']]) {
      const run = spawnSync(process.execPath, [FAKE_UPSTREAMS_ENTRY, ...args], { encoding: 'utf8', timeout: 10_000 });
      expect(run.status).toBe(2);
      expect(run.stderr).toContain('usage: fake-upstreams [--now <unix ms>]');
      expect(run.stdout).not.toContain('listening on');
    }
  });
});
