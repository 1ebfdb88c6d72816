// One fake upstream server and one built dist/ shared by all the tests of a file: started before them on
// the file's own clock (never the real one: the fake's calendar and candles are computed from it), and
// closed and removed after them.
import { rm } from 'node:fs/promises';
import { afterAll, beforeAll } from 'vitest';
import { startFakeUpstreams, type FakeUpstreamOptions, type FakeUpstreams } from '../fakes/upstreams.ts';
import { makeDist, type DistFixture } from './gateway.ts';

export interface SharedUpstreams {
  fake: FakeUpstreams;
  fixture: DistFixture;
}

/** Registers the file's hooks; `ready` receives the fake and the fixture once both are up. */
export function shareUpstreams(
  options: FakeUpstreamOptions & { now: () => number },
  ready: (shared: SharedUpstreams) => void | Promise<void>,
): void {
  let shared: Partial<SharedUpstreams> = {};
  beforeAll(async () => {
    shared = { fake: await startFakeUpstreams(options) };
    shared.fixture = await makeDist();
    await ready(shared as SharedUpstreams);
  });
  afterAll(async () => {
    await shared.fake?.close();
    if (shared.fixture) await rm(shared.fixture.base, { recursive: true, force: true });
  });
}
