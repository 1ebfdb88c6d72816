// HTTP/1.1 rules the gateway answers as RFC 9110 and nginx do (issue 27): If-Match on static and data
// representations (412 when it fails), a request line of another major version (505), and
// `Expect: 100-continue` on a POST /mcp it will not read (the final status at once, no 100).
import { afterAll, describe, expect, it } from 'vitest';
import type { FakeUpstreams } from './fakes/upstreams.ts';
import { ifMatchFails } from '../gateway/core/http/representation.ts';
import { shareUpstreams } from './helpers/shared-upstreams.ts';
import { get, rawExchange, startTestGateway, type DistFixture, type TestGateway } from './helpers/gateway.ts';

/** 12:00 in Toronto: the fake and the gateways here share this clock. */
const now = () => Date.parse('2026-11-22T17:00:00.000Z');

let fake: FakeUpstreams;
let fixture: DistFixture;
let gw: TestGateway;
let limited: TestGateway;

shareUpstreams({ now }, async (shared) => {
  ({ fake, fixture } = shared);
  gw = await startTestGateway(fake.url, fixture.dist, {}, { now });
  limited = await startTestGateway(fake.url, fixture.dist, { RATE_LIMIT_QUOTA: '100' }, { now });
});
// After hooks run in reverse order: the gateways close before the fake they read from.
afterAll(() => Promise.all([gw.close(), limited.close()]));

const statusLine = (answer: string) => answer.slice(0, answer.indexOf('\r\n'));

describe('If-Match (RFC 9110 §13.1.1)', () => {
  it('is a strong comparison over a list, and * matches any current representation', () => {
    expect(ifMatchFails(undefined, '"a"')).toBe(false);
    expect(ifMatchFails('"a"', '"a"')).toBe(false);
    expect(ifMatchFails('"x", "a"', '"a"')).toBe(false);
    expect(ifMatchFails('*', '"a"')).toBe(false);
    expect(ifMatchFails('*', undefined)).toBe(false);
    expect(ifMatchFails('W/"a"', '"a"')).toBe(true);
    expect(ifMatchFails('"nope"', '"a"')).toBe(true);
    expect(ifMatchFails('"a"', undefined)).toBe(true);
    expect(ifMatchFails('', '"a"')).toBe(true);
  });

  it.each(['GET', 'HEAD'])('%s of a page with a tag it does not have → 412, no body of the page', async (method) => {
    const response = await get(gw.url, '/developers', { method, headers: { 'if-match': '"nope"' } });
    expect(response.status).toBe(412);
    expect(response.headers.etag).toBeUndefined();
    if (method === 'GET') expect(response.text).toMatch(/^Precondition failed/);
    else expect(response.body).toHaveLength(0);
  });

  it('the page with its own strong tag, or *, is served; its weak tag fails', async () => {
    const page = await get(gw.url, '/developers', { headers: { 'accept-encoding': 'identity' } });
    const etag = page.headers.etag!;
    expect(etag).toMatch(/^"/);
    const same = await get(gw.url, '/developers', { headers: { 'accept-encoding': 'identity', 'if-match': etag } });
    expect(same.status).toBe(200);
    expect(same.body.equals(page.body)).toBe(true);
    const any = await get(gw.url, '/developers', { headers: { 'if-match': '*' } });
    expect(any.status).toBe(200);
    const weak = await get(gw.url, '/developers', {
      headers: { 'accept-encoding': 'identity', 'if-match': `W/${etag}` },
    });
    expect(weak.status).toBe(412);
  });

  it('it is judged before If-None-Match (RFC 9110 §13.2.2)', async () => {
    const page = await get(gw.url, '/', { headers: { 'accept-encoding': 'identity' } });
    const etag = page.headers.etag!;
    const both = await get(gw.url, '/', {
      headers: { 'accept-encoding': 'identity', 'if-match': '"nope"', 'if-none-match': etag },
    });
    expect(both.status).toBe(412);
  });

  it('the calendar: its own tag passes, another fails, and the quota headers come with the 412', async () => {
    const calendar = await get(limited.url, '/api/v1/github-contributions', { headers: { 'accept-encoding': 'gzip' } });
    expect(calendar.status).toBe(200);
    const etag = calendar.headers.etag!;
    const same = await get(limited.url, '/api/v1/github-contributions', {
      headers: { 'accept-encoding': 'gzip', 'if-match': etag },
    });
    expect(same.status).toBe(200);
    const other = await get(limited.url, '/api/v1/github-contributions', {
      headers: { 'accept-encoding': 'gzip', 'if-match': '"nope"' },
    });
    expect(other.status).toBe(412);
    expect(other.headers['ratelimit']).toMatch(/^"public-api";r=\d+;t=\d+$/);
  });

  it('the market has no validator: a tag fails without an upstream call, * is served', async () => {
    const before = fake.calls.ticker;
    const tagged = await get(gw.url, '/api/v1/mon-price', { headers: { 'if-match': '"anything"' } });
    expect(tagged.status).toBe(412);
    expect(fake.calls.ticker).toBe(before);
    const any = await get(gw.url, '/api/v1/mon-price', { headers: { 'if-match': '*' } });
    expect(any.status).toBe(200);
    expect(fake.calls.ticker).toBe(before + 1);
  });

  it('an unknown path is still 404, whatever If-Match says', async () => {
    expect((await get(gw.url, '/nowhere', { headers: { 'if-match': '*' } })).status).toBe(404);
  });
});

describe('the HTTP version of the request line (RFC 9110 §15.6.6)', () => {
  it.each(['HTTP/2.0', 'HTTP/0.9'])('GET / %s on this cleartext port → 505 and the connection closes', async (v) => {
    const answer = await rawExchange(gw.url, `GET / ${v}\r\nHost: a\r\n\r\n`);
    expect(statusLine(answer)).toBe('HTTP/1.1 505 HTTP Version Not Supported');
    expect(answer).toMatch(/\r\nConnection: close\r\n/i);
    expect(answer).not.toContain('<!doctype html>');
  });

  it.each(['HTTP/1.1', 'HTTP/1.0'])('GET / %s is served', async (v) => {
    const answer = await rawExchange(gw.url, `GET / ${v}\r\nHost: a\r\nConnection: close\r\n\r\n`);
    expect(statusLine(answer)).toBe('HTTP/1.1 200 OK');
  });
});

describe('Expect: 100-continue (RFC 9110 §10.1.1)', () => {
  const post = (length: number) =>
    `POST /mcp HTTP/1.1\r\nHost: a\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\nContent-Length: ${length}\r\nExpect: 100-continue\r\n\r\n`;

  it('an oversized POST /mcp gets its 413 at once, without a 100 first', async () => {
    const answer = await rawExchange(gw.url, post(100_000_000));
    expect(statusLine(answer)).toBe('HTTP/1.1 413 Payload Too Large');
    expect(answer).not.toContain('100 Continue');
  });

  it('a POST /mcp within the limit is told to continue, and then answered', async () => {
    const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' });
    const first = await rawExchange(gw.url, post(Buffer.byteLength(body)));
    expect(first).toBe('HTTP/1.1 100 Continue\r\n\r\n');
    // The MCP SDK loads on the first POST: allow up to 5 s of quiet, but `Connection: close` ends the
    // exchange as soon as the answer is whole, so nothing waits out that bound.
    const closing = post(Buffer.byteLength(body)).replace('\r\n\r\n', '\r\nConnection: close\r\n\r\n');
    const whole = await rawExchange(gw.url, closing + body, 5_000);
    expect(whole).toMatch(/^HTTP\/1\.1 100 Continue\r\n\r\nHTTP\/1\.1 200 OK\r\n/);
  });

  it('a POST elsewhere is answered 405 at once, without a 100', async () => {
    const answer = await rawExchange(
      gw.url,
      'POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 5\r\nExpect: 100-continue\r\n\r\n',
    );
    expect(statusLine(answer)).toBe('HTTP/1.1 405 Method Not Allowed');
    expect(answer).not.toContain('100 Continue');
  });
});
