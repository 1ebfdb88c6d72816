// Credentials never reach an error line (issue #12): a GraphQL error that echoes the Authorization
// header, or the bare token, is reported with the token redacted, by the gateway and by the build.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { oneLine, redactCredentials } from '../builders/lib/text/one-line.ts';
import { startFakeUpstreams, type FakeUpstreams } from './fakes/upstreams.ts';
import { get, makeDist, startTestGateway, type DistFixture } from './helpers/gateway.ts';
import { upstreamEnv } from './helpers/run.ts';
import { runBuild } from './helpers/site-dist.ts';

const TOKEN = 'ghp_R3dactMeR3dactMeR3dactMeR3dactMe12';
const RAW = 'not-a-github-shaped-secret-7f3a';

/** GitHub GraphQL as it answers a request it refuses: a 200 with an `errors` array quoting the request. */
/** 12:00 in Toronto: the fake and the gateway share this clock. */
const now = () => Date.parse('2026-11-22T17:00:00.000Z');

let echo: Server;
let echoUrl: string;
let fake: FakeUpstreams;
let fixture: DistFixture;

beforeAll(async () => {
  echo = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      res.writeHead(200, { 'content-type': 'application/json; charset=utf-8' });
      res.end(
        JSON.stringify({
          data: null,
          errors: [
            {
              type: 'FORBIDDEN',
              message: `Request with Authorization: ${req.headers.authorization} and token ${req.headers.authorization?.split(' ')[1]} refused`,
            },
          ],
        }),
      );
    });
  });
  await new Promise<void>((resolve) => echo.listen(0, '127.0.0.1', resolve));
  echoUrl = `http://127.0.0.1:${(echo.address() as AddressInfo).port}`;
  fake = await startFakeUpstreams({ now });
  fixture = await makeDist();
});
afterAll(async () => {
  await new Promise((resolve) => echo.close(resolve));
  await fake.close();
  await rm(fixture.base, { recursive: true, force: true });
});

describe('a GraphQL error that echoes the token', () => {
  it.each([TOKEN, RAW])('the gateway reports it without the token (%s)', async (token) => {
    const gw = await startTestGateway(
      fake.url,
      fixture.dist,
      { GITHUB_TOKEN: token, GITHUB_API_URL: echoUrl },
      { now },
    );
    try {
      const r = await get(gw.url, '/api/v1/github-contributions');
      expect(r.status).toBe(502);
      expect(r.text).not.toContain(token);
      await gw.close();
      const stderr = gw.stderr.join('');
      expect(stderr).toMatch(/github-graphql: GraphQL errors: FORBIDDEN/);
      expect(stderr).toContain('[redacted]');
      expect(stderr).not.toContain(token);
    } finally {
      await gw.close();
    }
  });

  it('the build reports it without the token: the upstream message kept, the token replaced', async () => {
    const out = await mkdtemp(join(tmpdir(), 'dist-'));
    try {
      const result = await runBuild(out, {
        ...upstreamEnv(fake.url),
        GITHUB_API_URL: echoUrl,
        GITHUB_TOKEN: RAW,
        UPSTREAM_TIMEOUT_MS: '10000',
      });
      expect(result.code).toBe(1);
      // The line quotes GitHub's message around where the token was: dropping the message would fail here.
      expect(result.stderr.trimEnd().split('\n')).toContainEqual(
        expect.stringMatching(
          /^build: contribution calendar not written: github-graphql: GraphQL errors: FORBIDDEN.*Request with Authorization: bearer \[redacted\] and token \[redacted\] refused/,
        ),
      );
      expect(result.stderr + result.stdout).not.toContain(RAW);
    } finally {
      await rm(out, { recursive: true, force: true });
    }
  });
});

describe('redactCredentials', () => {
  it.each([
    ['Authorization: bearer abc.def-ghi', 'Authorization: bearer [redacted]'],
    ['Authorization: Basic dXNlcjpwYXNz==', 'Authorization: Basic [redacted]'],
    [`leaked ${TOKEN} here`, 'leaked [redacted] here'],
    ['github_pat_11ABCDEFG0123456789_abcdefghijklmnop', '[redacted]'],
    ['token 0123456789abcdef0123456789abcdef', 'token [redacted]'],
    ['POST /graphql answered 401 (token rejected)', 'POST /graphql answered 401 (token rejected)'],
  ])('%s', (text, redacted) => {
    expect(redactCredentials(text)).toBe(redacted);
    expect(oneLine(text, 1000)).toBe(redacted);
  });
});
