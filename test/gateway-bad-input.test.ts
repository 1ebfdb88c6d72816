// Hostile and broken input against the gateway in process: malformed and over-long paths, percent-
// encoded traversal, every HTTP method, bodies on GET, idle connections (a few thousand concurrent ones:
// test/slow/gateway-load.test.ts). The server keeps answering; no stack trace and no file outside dist/ ever leaks.

import { METHODS } from 'node:http';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { afterAll, describe, expect, it } from 'vitest';
import type { FakeUpstreams } from './fakes/upstreams.ts';
import { shareUpstreams } from './helpers/shared-upstreams.ts';
import { get, rawExchange, SECRET, startTestGateway, type DistFixture, type TestGateway } from './helpers/gateway.ts';

/** 12:00 in Toronto: the fake and every gateway here share this clock. */
const now = () => Date.parse('2026-11-22T17:00:00.000Z');

let fake: FakeUpstreams;
let fixture: DistFixture;
let gw: TestGateway;

shareUpstreams({ now }, async (shared) => {
  ({ fake, fixture } = shared);
  gw = await startTestGateway(fake.url, fixture.dist, {}, { now });
});
// After hooks run in reverse order: the gateway closes before the fake it reads from.
afterAll(() => gw.close());

/** Nothing that looks like a stack, an internal path, or the secret outside dist/. */
function expectNoLeak(text: string) {
  expect(text).not.toContain(SECRET);
  expect(text).not.toMatch(/\n\s+at |node:internal|Error:|\/tmp\/|\/work\//);
  // the run's temporary folder, where dist/ is, wherever it is (test/global-setup.ts)
  expect(text).not.toContain(tmpdir());
}

const statusOf = (response: string) => Number(/^HTTP\/1\.1 (\d{3})/.exec(response)?.[1] ?? 0);

async function expectStillServing() {
  expect((await get(gw.url, '/')).status).toBe(200);
}

describe('paths', () => {
  const hostile = [
    '/../secret.txt',
    '/../../etc/passwd',
    '/..%2fsecret.txt',
    '/%2e%2e/secret.txt',
    '/%2e%2e%2fsecret.txt',
    '/%2E%2E%2Fsecret.txt',
    '/.%2e/secret.txt',
    '/%252e%252e%252fsecret.txt',
    '/..\\secret.txt',
    '/%5c..%5csecret.txt',
    '/..%5csecret.txt',
    '/%c0%ae%c0%ae/secret.txt',
    '/%c0%af..%c0%afsecret.txt',
    '/%e0%80%ae%e0%80%ae/secret.txt',
    '/linked-parent/secret.txt',
    '/linked-parent%2fsecret.txt',
    '/linked-secret.txt',
    '//secret.txt',
    '/./.env',
    '/%2eenv',
    '/.well-known/../.env',
    '/.well-known/%2e%2e/.env',
    '/.well-known/.hidden',
    '/api/v1/%2e%2e/%2e%2e/secret.txt',
    '/index.html%00.txt',
    '/index.html%00',
    '/%00',
    '/%',
    '/%zz',
    '/%e2%82',
    '/%ff%fe',
    '/a%',
    '/developers%',
    '/\u00e9',
    '/api/v1/mon-price%00',
    '/api/v1/mon-price/..',
    '/api/v1/mon-price/%2e%2e',
  ];
  it.each(hostile)('%s → a 4xx that leaks nothing', async (path) => {
    const response = await rawExchange(gw.url, `GET ${path} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`);
    const status = statusOf(response);
    expect(status).toBeGreaterThanOrEqual(400);
    expect(status).toBeLessThan(500);
    expectNoLeak(response);
  });

  /** The status line and body of a raw GET of `path` (no client library normalises it first). */
  const rawGet = async (path: string) => {
    const response = await rawExchange(gw.url, `GET ${path} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`);
    return { status: statusOf(response), body: response.slice(response.indexOf('\r\n\r\n') + 4) };
  };

  it.each([
    ['/api/v1/./mon-price', '/api/v1/mon-price'],
    ['/api/v1/%2E/mon-price', '/api/v1/mon-price'],
    ['/api/%2e%2e/openapi.json', '/openapi.json'],
    ['/cards/../openapi.json', '/openapi.json'],
    ['/./developers', '/developers'],
    ['/../../api', '/api'],
  ])(
    '%s is answered as %s: dot segments removed as RFC 3986 §5.2.4 says (and a Worker does)',
    async (dotted, plain) => {
      const [a, b] = [await rawGet(dotted), await rawGet(plain)];
      expect(b.status).toBe(200);
      expect(a.status).toBe(200);
      // A market answer is live (its ticker each request): its status and type are the point here.
      if (!plain.includes('price')) expect(a.body).toBe(b.body);
    },
  );

  it('raw control characters, NUL and spaces in the request line are refused with 400', async () => {
    for (const target of ['/a\u0000b', '/a b', '/a\tb', '/\u0001']) {
      const response = await rawExchange(gw.url, `GET ${target} HTTP/1.1\r\nHost: x\r\n\r\n`);
      expect([400, 404]).toContain(statusOf(response));
      expectNoLeak(response);
    }
  });

  it('absolute-form targets are served by their path, whatever authority they name (RFC 9112 §3.2.2)', async () => {
    const served = await rawExchange(
      gw.url,
      `GET http://evil.example/api?x=1 HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`,
    );
    expect(statusOf(served)).toBe(200);
    expect(served).toContain('"authentication":"none"');
    expect(
      statusOf(await rawExchange(gw.url, `GET HTTPS://localhost HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`)),
    ).toBe(200);
    for (const target of [
      'http://evil.example/secret.txt',
      'http://localhost/.env',
      'http://x/%2e%2e/secret.txt',
      'file:///etc/passwd',
      'secret.txt',
    ]) {
      const response = await rawExchange(gw.url, `GET ${target} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`);
      expect(statusOf(response), target).toBeGreaterThanOrEqual(400);
      expectNoLeak(response);
    }
  });

  it('the asterisk-form target: OPTIONS * says what the server allows, any other method gets 400', async () => {
    const options = await rawExchange(gw.url, `OPTIONS * HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`);
    expect(statusOf(options)).toBe(204);
    expect(options).toMatch(/\r\nAllow: GET, HEAD\r\n/i);
    const get = await rawExchange(gw.url, `GET * HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`);
    expect(statusOf(get)).toBe(400);
    expectNoLeak(get);
  });

  it('over-long paths get 404 (or 431 past the header limit), and the server keeps answering', async () => {
    for (const length of [2_000, 8_000, 15_000, 40_000, 200_000]) {
      for (const prefix of ['/', '/api/']) {
        const path = prefix + 'a'.repeat(length);
        const response = await rawExchange(gw.url, `GET ${path} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`);
        expect([404, 414, 431]).toContain(statusOf(response));
        expectNoLeak(response);
      }
    }
    const traversal = '/' + '%2e%2e/'.repeat(2000) + 'secret.txt';
    expectNoLeak(await rawExchange(gw.url, `GET ${traversal} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`));
    await expectStillServing();
  });

  it('garbage that is not HTTP gets a bare 400 and the connection is closed', async () => {
    for (const bytes of [
      'hello\r\n\r\n',
      'GET\r\n\r\n',
      'GET / HTTP/9.9\r\n\r\n',
      Buffer.from([0x16, 0x03, 0x01, 0x00, 0xff, 0x01]),
      'GET / HTTP/1.1\r\nHost: x\r\nContent-Length: abc\r\n\r\n',
    ]) {
      // The whole exchange: the status line, the close, an empty body, and nothing of Node's parser error.
      expect(await rawExchange(gw.url, bytes), String(bytes)).toBe(
        'HTTP/1.1 400 Bad Request\r\nConnection: close\r\nContent-Length: 0\r\n\r\n',
      );
    }
    await expectStillServing();
  });
});

describe('methods', () => {
  const targets = ['/api/v1/mon-price', '/api/github-contributions', '/api', '/', '/developers', '/api/nope', '/nope'];
  it('every method node knows gets a definite answer on every kind of path, never a 5xx', async () => {
    for (const method of METHODS) {
      for (const path of targets) {
        const response = await rawExchange(
          gw.url,
          `${method} ${method === 'CONNECT' ? 'example.org:443' : path} HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\nConnection: close\r\n\r\n`,
          200,
        );
        const status = statusOf(response);
        if (method === 'GET' || method === 'HEAD') expect([200, 404]).toContain(status);
        else if (method === 'CONNECT') expect(status).toBe(405);
        else if (method === 'OPTIONS' || path.endsWith('nope')) expect([404, 405]).toContain(status);
        else expect(status).toBe(405);
        if (status === 405) expect(response).toMatch(/\r\nAllow: GET, HEAD\r\n/i);
        expectNoLeak(response);
      }
    }
    await expectStillServing();
  });

  it('unknown method tokens get 400 or 405, not a crash', async () => {
    for (const method of ['FOO', 'get', 'G\u00c9T', 'BREW']) {
      const response = await rawExchange(
        gw.url,
        `${method} /api/v1/mon-price HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`,
      );
      expect([400, 405]).toContain(statusOf(response));
    }
    await expectStillServing();
  });
});

describe('bodies on GET', () => {
  it('a Content-Length body on GET is ignored and the keep-alive connection stays usable', async () => {
    const body = 'x'.repeat(100_000);
    const response = await rawExchange(
      gw.url,
      `GET /api/v1/github-contributions HTTP/1.1\r\nHost: x\r\nContent-Length: ${body.length}\r\n\r\n${body}GET /developers HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`,
      1000,
    );
    const statuses = [...response.matchAll(/HTTP\/1\.1 (\d{3})/g)].map((m) => Number(m[1]));
    expect(statuses).toEqual([200, 200]);
  });

  it('a chunked body on GET is ignored too', async () => {
    const response = await rawExchange(
      gw.url,
      `GET /api HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n0\r\n\r\nGET / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`,
      1000,
    );
    expect([...response.matchAll(/HTTP\/1\.1 (\d{3})/g)].map((m) => Number(m[1]))).toEqual([200, 200]);
  });

  it('request smuggling shapes (Content-Length with Transfer-Encoding) are refused', async () => {
    const response = await rawExchange(
      gw.url,
      `GET / HTTP/1.1\r\nHost: x\r\nContent-Length: 4\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\nGET /.env HTTP/1.1\r\nHost: x\r\n\r\n`,
    );
    expect(statusOf(response)).toBe(400);
    expectNoLeak(response);
  });

  it('a Transfer-Encoding that does not end in chunked gets 400 and a close, so the next request is not read as its body', async () => {
    for (const coding of ['xchunked', 'gzip', 'chunked, gzip']) {
      const response = await rawExchange(
        gw.url,
        `GET /api HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: ${coding}\r\n\r\nGET /.env HTTP/1.1\r\nHost: x\r\n\r\n`,
        500,
        5000,
      );
      const statuses = [...response.matchAll(/HTTP\/1\.1 (\d{3})/g)].map((m) => Number(m[1]));
      expect(statuses, coding).toEqual([400]);
      expect(response, coding).toMatch(/\r\nConnection: close\r\n/i);
      expectNoLeak(response);
    }
    await expectStillServing();
  });
});

describe('load', () => {
  it('idle connections that never send a request do not stop other clients being served', async () => {
    const url = new URL(gw.url);
    const idle = Array.from({ length: 500 }, () =>
      connect(Number(url.port), url.hostname).on('error', () => undefined),
    );
    try {
      const other = { localAddress: '127.0.0.2' };
      expect((await get(gw.url, '/', other)).status).toBe(200);
      expect((await get(gw.url, '/api/v1/mon-price', other)).status).toBe(200);
    } finally {
      for (const s of idle) s.destroy();
    }
  });
});

describe('slow clients', () => {
  it('a connection that never finishes its headers is closed by the gateway', async () => {
    // The same limits as in production, with the timeouts shortened so the test stays quick.
    const strict = await startTestGateway(
      fake.url,
      fixture.dist,
      {},
      { limits: { headersTimeout: 1_500, requestTimeout: 3_000, connectionsCheckingInterval: 250 }, now },
    );
    const url = new URL(strict.url);
    const silent = connect(Number(url.port), url.hostname);
    const dripping = connect(Number(url.port), url.hostname);
    const closed = (s: ReturnType<typeof connect>) =>
      new Promise<string>((resolve) => {
        let data = '';
        s.on('data', (d: Buffer) => (data += d.toString('latin1')));
        s.on('close', () => resolve(data));
        s.on('error', () => undefined);
      });
    dripping.on('connect', () => dripping.write('GET / HTTP/1.1\r\n'));
    const drip = setInterval(() => dripping.writable && dripping.write('X'), 500);
    try {
      // the test only asserts that both are closed, with a 408 or nothing
      const [a, b] = await Promise.all([closed(silent), closed(dripping)]);
      for (const answer of [a, b]) if (answer !== '') expect(statusOf(answer)).toBe(408);
    } finally {
      clearInterval(drip);
    }
    expect((await get(strict.url, '/')).status).toBe(200);
    await strict.close();
  });
});
