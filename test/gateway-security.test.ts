// Review findings on the gateway's edges: links in dist/ that point at hidden files or at each other,
// quota keys that one client could multiply by respelling its address, and control characters in
// error lines.
import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import type { IncomingMessage } from 'node:http';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseTrustProxy } from '../gateway/quota/ip-ranges.ts';
import { clientIdentity } from '../gateway/quota/client-identity.ts';
import { quotaKey } from '../builders/lib/client-address.ts';
import { codedAnswerHeaders, connectingIp } from '../gateway/worker/front.ts';
import { UpstreamError } from '../builders/lib/errors.ts';
import { oneLine } from '../builders/lib/text/one-line.ts';
import { get, SECRET, startTestGateway, type TestGateway } from './helpers/gateway.ts';

/** No upstream is asked in these tests; the address only has to be a valid URL. */
const NO_UPSTREAM = 'http://127.0.0.1:9';

describe('links in dist/', () => {
  let base: string;
  let gateway: TestGateway;

  beforeAll(async () => {
    base = await mkdtemp(join(tmpdir(), 'gateway-links-'));
    const dist = join(base, 'dist');
    const files: Record<string, string> = {
      'index.html': '<!doctype html><title>Home</title>',
      'ok.txt': 'plain file\n',
      '.env': `TOKEN=${SECRET}`,
      '.git/config': SECRET,
      _headers: `/* X-Secret: ${SECRET}`,
      'assets/site.css': 'body{}',
      'loop-a/page.txt': 'page in a\n',
      'loop-b/page.txt': 'page in b\n',
    };
    for (const [file, body] of Object.entries(files)) {
      await mkdir(dirname(join(dist, file)), { recursive: true });
      await writeFile(join(dist, file), body);
    }
    const links: Array<[target: string, link: string]> = [
      ['../.env', 'assets/env.txt'], // an innocent name for a hidden target
      ['.git', 'gitdir'], // a folder link into .git
      ['.git/config', 'gitconfig.txt'],
      ['../_headers', 'assets/headers.txt'], // host configuration, never content
      ['ok.txt', 'link-ok.txt'], // a plain link to a servable file: still served
      // Two folders linking to each other twice: following folder links would walk 2^depth paths.
      ['../loop-b', 'loop-a/b1'],
      ['../loop-b', 'loop-a/b2'],
      ['../loop-a', 'loop-b/a1'],
      ['../loop-a', 'loop-b/a2'],
    ];
    for (const [target, link] of links) await symlink(target, join(dist, link));
    // Starting at all is the first assertion: the looping links must not stall the walk of dist/.
    gateway = await startTestGateway(NO_UPSTREAM, dist);
  });

  afterAll(async () => {
    await gateway?.close();
    await rm(base, { recursive: true, force: true });
  });

  it.each(['/assets/env.txt', '/gitdir/config', '/gitconfig.txt', '/assets/headers.txt', '/.env', '/.git/config'])(
    '%s (a hidden file, directly or through a link) is not served',
    async (path) => {
      const r = await get(gateway.url, path);
      expect(r.status).toBe(404);
      expect(r.text).not.toContain(SECRET);
    },
  );

  it('a link to a servable file inside dist/ is still served', async () => {
    const r = await get(gateway.url, '/link-ok.txt');
    expect(r.status).toBe(200);
    expect(r.text).toBe('plain file\n');
  });

  it('folder links are not followed; the real folders are served', async () => {
    expect((await get(gateway.url, '/loop-a/page.txt')).text).toBe('page in a\n');
    expect((await get(gateway.url, '/loop-b/page.txt')).text).toBe('page in b\n');
    for (const path of ['/loop-a/b1/page.txt', '/loop-a/b2/a1/page.txt', '/loop-b/a1/b1/page.txt']) {
      expect((await get(gateway.url, path)).status).toBe(404);
    }
  });
});

describe('quota keys', () => {
  const request = (remoteAddress: string, forwardedFor?: string) =>
    ({
      socket: { remoteAddress },
      headers: forwardedFor === undefined ? {} : { 'x-forwarded-for': forwardedFor },
    }) as unknown as IncomingMessage;

  it.each([
    ['2001:db8::1', '2001:db8:0:0::/64'],
    ['2001:db8:0:0::1', '2001:db8:0:0::/64'],
    ['2001:0DB8:0000:0000:0000:0000:0000:0001', '2001:db8:0:0::/64'],
    ['2001:db8::ffff:1234:5678:9abc', '2001:db8:0:0::/64'],
    ['2001:db8:0:1::1', '2001:db8:0:1::/64'],
    ['::ffff:203.0.113.9', '203.0.113.9'],
    ['203.0.113.9', '203.0.113.9'],
  ])('%s counts against %s', (address, key) => {
    expect(quotaKey(address)).toBe(key);
  });

  it("start:edge's front door gives a compressed answer Vary: Accept-Encoding and a tag of its own", () => {
    const identity = { 'content-type': 'text/html; charset=utf-8', etag: '"f0dd51"' };
    expect(codedAnswerHeaders(identity)).toEqual(identity);
    expect(codedAnswerHeaders({ ...identity, 'content-encoding': 'gzip' })).toEqual({
      ...identity,
      'content-encoding': 'gzip',
      vary: 'Accept-Encoding',
      etag: '"f0dd51-gzip"',
    });
    expect(codedAnswerHeaders({ ...identity, 'content-encoding': 'br', vary: 'Origin' })).toMatchObject({
      vary: 'Origin, Accept-Encoding',
      etag: '"f0dd51-br"',
    });
    // Already said, or no strong tag to rename: left as it is.
    expect(codedAnswerHeaders({ 'content-encoding': 'gzip', vary: 'accept-encoding', etag: 'W/"x"' })).toEqual({
      'content-encoding': 'gzip',
      vary: 'accept-encoding',
      etag: 'W/"x"',
    });
    expect(codedAnswerHeaders({ 'content-encoding': 'gzip' })).toEqual({
      'content-encoding': 'gzip',
      vary: 'Accept-Encoding',
    });
  });

  it("start:edge's front door believes a CF-Connecting-IP only from a TRUST_PROXY peer", () => {
    const trusted = parseTrustProxy('127.0.0.1,10.0.0.0/8');
    expect(connectingIp('127.0.0.1', '2001:db8::7', trusted)).toBe('2001:db8::7');
    expect(connectingIp('::ffff:10.1.2.3', '198.51.100.7', trusted)).toBe('198.51.100.7');
    // Anyone else's header is its own word: the peer is the client.
    expect(connectingIp('127.0.0.2', '198.51.100.7', trusted)).toBe('127.0.0.2');
    expect(connectingIp('::ffff:192.0.2.1', '198.51.100.7', parseTrustProxy(undefined))).toBe('192.0.2.1');
    // A trusted peer that names no one address (none, two, nonsense) counts as itself.
    expect(connectingIp('127.0.0.1', undefined, trusted)).toBe('127.0.0.1');
    expect(connectingIp('127.0.0.1', ['198.51.100.7', '198.51.100.8'], trusted)).toBe('127.0.0.1');
    expect(connectingIp('127.0.0.1', '198.51.100.7, 198.51.100.8', trusted)).toBe('127.0.0.1');
  });

  it('spellings of one IPv6 address, and addresses of one /64, share a bucket without TRUST_PROXY', () => {
    const identify = clientIdentity(parseTrustProxy(undefined));
    const keys = ['2001:db8::1', '2001:db8:0:0::1', '2001:db8::abcd:1'].map((a) => identify(request(a)));
    expect(new Set(keys)).toEqual(new Set(['2001:db8:0:0::/64']));
    expect(identify(request('2001:db8:0:1::1'))).not.toBe(keys[0]);
  });

  it('behind a trusted proxy, the forwarded client is keyed the same way', () => {
    const identify = clientIdentity(parseTrustProxy('127.0.0.1'));
    expect(identify(request('127.0.0.1', '[2001:DB8:0:0::7]:443'))).toBe('2001:db8:0:0::/64');
    expect(identify(request('127.0.0.1', '2001:db8::8'))).toBe('2001:db8:0:0::/64');
    expect(identify(request('127.0.0.1', '::ffff:198.51.100.7'))).toBe('198.51.100.7');
    // every spelling of an IPv4-mapped address is that IPv4 client, not one shared IPv6 /64
    expect(identify(request('127.0.0.1', '0:0:0:0:0:ffff:198.51.100.7'))).toBe('198.51.100.7');
    expect(identify(request('127.0.0.1', '::ffff:c633:6407'))).toBe('198.51.100.7');
    expect(identify(request('127.0.0.1', '::FFFF:C633:6408'))).toBe('198.51.100.8');
    expect(identify(request('127.0.0.1', 'garbage'))).toBeNull();
  });
});

describe('error lines', () => {
  it('turn C0 and C1 controls (terminal escapes, line breaks) into spaces, collapse them and cut long lines', () => {
    const line = oneLine('coinbase: boom\u001b]0;PWNED\u0007\nsecond\tline\u009b31m\r\n', 1000);
    expect(line).toBe('coinbase: boom ]0;PWNED second line 31m');
    expect(line).not.toMatch(/[\u0000-\u001f\u007f-\u009f]/);
    expect(oneLine(`a\u2028${'x'.repeat(20)}`, 10)).toBe('a xxxxxxx…');
  });

  it("drop the invisible bidi characters, in the gateway's lines and in upstream reasons alike", () => {
    // RIGHT-TO-LEFT OVERRIDE would show "github-html: 404 for resu\u202Eexe.txt" reversed in a terminal.
    const quoted = 'github-html: 404 for resu\u202Eexe.txt\u202C by \u2066octo\u200Bcat\u2069';
    expect(oneLine(quoted, 1000)).toBe('github-html: 404 for resuexe.txt by octocat');
    expect(new UpstreamError('github-html', quoted.slice('github-html: '.length)).message).toBe(
      'github-html: 404 for resuexe.txt by octocat',
    );
  });
});
