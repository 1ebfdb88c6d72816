// The market route's peers in `npm run bench`: the fake provider as a program of its own
// (.build/fake-upstreams.mjs) and the bare proxy (bench/bare-proxy.mjs) on node:http and on fetch. A peer that answered
// something else than the provider's ticker would make the bench's floor figure meaningless.
import { afterAll, describe, expect, it } from 'vitest';
import { parseTicker } from '../core/upstream/coinbase.ts';
import { ProcessGroup, startBareProxy, startFakeProcess } from '../bench/processes.ts';

const group = new ProcessGroup();
afterAll(() => group.stopAll());

const getJson = async (url: string) => {
  const response = await fetch(url);
  return { status: response.status, body: await response.text() };
};

describe('the bench peers of the market route', () => {
  it('the fake provider runs as its own process, both proxies relay its ticker, and a stopped provider is a 502', async () => {
    const provider = await startFakeProcess(group);
    const ticker = `${provider.url}/products/MON-USD/ticker`;
    const direct = await getJson(ticker);
    expect(direct.status).toBe(200);
    expect(parseTicker(JSON.parse(direct.body)).price).toBeGreaterThan(0);

    const proxies = [await startBareProxy(group, ticker, 'http'), await startBareProxy(group, ticker, 'fetch')];
    for (const proxy of proxies) {
      const relayed = await getJson(`${proxy.url}/api/v1/mon-price`);
      expect(relayed.status).toBe(200);
      expect(parseTicker(JSON.parse(relayed.body)).price).toBeGreaterThan(0);
    }

    // SIGTERM ends the provider program cleanly; the proxies then have nothing to relay.
    expect(await group.stop(provider.managed)).toBe(0);
    for (const proxy of proxies) expect((await getJson(`${proxy.url}/api/v1/mon-price`)).status).toBe(502);
  });
});
