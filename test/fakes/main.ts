// The fake upstreams as a program of their own (.build/fake-upstreams.mjs): the bench runs the market
// provider in its own process, as a real provider is, so that "the upstream's own latency" is what a
// client in another process sees, wake-up included, and not a round trip inside the bench's own event
// loop. Prints one `listening on http://…` line; SIGTERM or SIGINT stops it.
// usage: node .build/fake-upstreams.mjs [--now <unix ms>] [--product <BASE-USD>]
// (--now fixes the fake's clock, for tests; --product is the one product the provider lists, MON-USD by default)
import { parseArgs } from 'node:util';
import { runMain } from '../../builders/lib/run-main.ts';
import { startFakeUpstreams } from './upstreams.ts';

runMain('fake-upstreams', async () => {
  const usage = () => {
    process.stderr.write('fake-upstreams: usage: fake-upstreams [--now <unix ms>] [--product <BASE-USD>]\n');
    return 2;
  };
  let values: { now?: string; product?: string };
  try {
    ({ values } = parseArgs({
      args: process.argv.slice(2),
      options: { now: { type: 'string' }, product: { type: 'string' } },
      strict: true,
      allowPositionals: false,
    }));
  } catch {
    return usage();
  }
  const ms = values.now === undefined ? undefined : /^\d+$/.test(values.now) ? Number(values.now) : Number.NaN;
  if (ms !== undefined && !Number.isSafeInteger(ms)) return usage();
  const fake = await startFakeUpstreams({
    ...(ms === undefined ? {} : { now: () => ms }),
    ...(values.product === undefined ? {} : { product: values.product }),
  });
  process.stdout.write(`listening on ${fake.url}\n`);
  await new Promise<void>((resolve) => {
    const stop = () => void fake.close().then(resolve, resolve);
    process.once('SIGTERM', stop);
    process.once('SIGINT', stop);
  });
  return 0;
});
