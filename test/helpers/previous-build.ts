// An in-process `npm run build -- --previous <dir>` (builders/build/build.ts' build()), for the tests of what a
// previous snapshot may stand in for: `<dir>` is a new folder holding one given market snapshot, and a
// status.json saying its data are real.
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { build, type BuildResult } from '../../builders/build/build.ts';
import { dataResource, DISCOVERY } from '../../builders/contract/service.ts';
import { DEFAULT_SERVICE } from '../../builders/datasets/registry.ts';
import { loadConfig } from '../../builders/lib/config.ts';
import { upstreamEnv } from './run.ts';
import { TEST_SITE_URL } from './site-dist.ts';

export interface PreviousBuild {
  result: BuildResult;
  /** Every stderr line, in order. */
  stderr: string[];
  previous: string;
  outDir: string;
}

/** A build into `<base>/<name>` at `nowMs` against the fake at `fakeUrl`, reading `<base>/<name>-previous`. */
export async function buildWithPreviousMarket(options: {
  base: string;
  name: string;
  fakeUrl: string;
  nowMs: number;
  /** The bytes of the previous site's market snapshot. */
  market: string;
  quietPrevious?: boolean;
}): Promise<PreviousBuild> {
  const file = dataResource(DEFAULT_SERVICE, 'market').snapshotFiles[0]!;
  const previous = join(options.base, `${options.name}-previous`);
  await mkdir(dirname(join(previous, file)), { recursive: true });
  await writeFile(join(previous, file), options.market);
  // The site's word that its data are real (builders/build/previous.ts reads it before any snapshot).
  await writeFile(join(previous, DISCOVERY.status.file), JSON.stringify({ simulated: false }));
  const outDir = join(options.base, options.name);
  const stderr: string[] = [];
  // The market fails at once (the callers' fake answers an error); the deadline only bounds the healthy
  // calendar, which a loaded machine can take more than a second to fetch and parse: nothing waits it out.
  const config = loadConfig({ ...upstreamEnv(options.fakeUrl), SITE_URL: TEST_SITE_URL, UPSTREAM_TIMEOUT_MS: '10000' });
  const result = await build(config, {
    outDir,
    nowMs: options.nowMs,
    previousDir: previous,
    quietPrevious: options.quietPrevious,
    log: () => {},
    warn: (line) => stderr.push(line),
  });
  return { result, stderr, previous, outDir };
}
