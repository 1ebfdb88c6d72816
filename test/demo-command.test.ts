// The build command `npm run demo` prints (test/demo/build-command.ts): every upstream and the feed pointed
// at the demo, the caller's account and product repeated, a real token emptied, each value a shell word.
// test/slow/demo.test.ts runs the printed command itself.
import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { demoBuildCommand, shellWord } from './demo/build-command.ts';

/** The variables a POSIX shell sets for `npm run build` when it runs `command` (npm replaced by env's print). */
function shellEnv(command: string): Record<string, string> {
  const printed = execFileSync('sh', ['-c', command.replace(/ npm run build$/, ' env -0')], {
    env: { PATH: process.env.PATH },
    encoding: 'utf8',
  });
  return Object.fromEntries(
    printed
      .split('\0')
      .filter(Boolean)
      .map((kv) => [kv.slice(0, kv.indexOf('=')), kv.slice(kv.indexOf('=') + 1)]),
  );
}

describe("the demo's printed build command", () => {
  const provider = 'http://127.0.0.1:41234';

  it('points every upstream and the feed at the demo and empties the token', () => {
    const env = shellEnv(demoBuildCommand({ provider, feed: 'ws://127.0.0.1:41235', caller: {} }));
    expect(env).toMatchObject({
      DEMO_SIMULATED: '1',
      MARKET_API_URL: provider,
      GITHUB_API_URL: provider,
      GITHUB_WEB_URL: provider,
      GITHUB_TOKEN: '',
      MARKET_WS_URL: 'ws://127.0.0.1:41235',
    });
    expect(env.GITHUB_ACCOUNT).toBeUndefined();
  });

  it("names no feed as off, and repeats the caller's account and product, quoted as the shell needs", () => {
    const command = demoBuildCommand({
      provider,
      feed: null,
      caller: { GITHUB_ACCOUNT: 'octo-cat', MARKET_PRODUCT: 'BTC-USD', CALENDAR_TIME_ZONE: 'Asia/Tokyo' },
    });
    expect(command).toMatch(/ npm run build$/);
    expect(shellEnv(command)).toMatchObject({
      MARKET_WS_URL: 'off',
      GITHUB_ACCOUNT: 'octo-cat',
      MARKET_PRODUCT: 'BTC-USD',
    });
    expect(command).not.toContain('CALENDAR_TIME_ZONE');
    for (const value of ["it's", 'a b', '$HOME', '`x`', ''])
      expect(shellEnv(`V=${shellWord(value)} npm run build`).V).toBe(value);
  });
});
