// The fake upstreams as a program of their own (.build/fake-upstreams.mjs): the bench runs the market
// provider in its own process, as a real provider is, so that "the upstream's own latency" is what a
// client in another process sees, wake-up included, and not a round trip inside the bench's own event
// loop. Prints one `listening on http://…` line; SIGTERM or SIGINT stops it.
// usage: node .build/fake-upstreams.mjs [--now <unix ms>]   (--now fixes the fake's clock, for tests)
import { runMain } from '../lib/run-main.ts';
import { startFakeUpstreams } from './upstreams.ts';

runMain('fake-upstreams', async () => {
  const args = process.argv.slice(2);
  let now: (() => number) | undefined;
  if (args.length > 0) {
    const ms = args[0] === '--now' && args.length === 2 && /^\d+$/.test(args[1]!) ? Number(args[1]) : Number.NaN;
    if (!Number.isSafeInteger(ms)) {
      process.stderr.write('fake-upstreams: usage: fake-upstreams [--now <unix ms>]\n');
      return 2;
    }
    now = () => ms;
  }
  const fake = await startFakeUpstreams(now === undefined ? {} : { now });
  process.stdout.write(`listening on ${fake.url}\n`);
  await new Promise<void>((resolve) => {
    const stop = () => void fake.close().then(resolve, resolve);
    process.once('SIGTERM', stop);
    process.once('SIGINT', stop);
  });
  return 0;
});
