// What a dataset's own fake upstream is (builders/datasets/<id>/fake.ts, for the tests, the demo and the
// bench): the shared fake server (test/fakes/upstreams.ts) loads the fake of every registered dataset that
// has one, and hands each request to it first. The fake speaks its upstream's real wire format and counts
// its calls per endpoint; nothing of it reaches a product program.
import type { IncomingMessage, ServerResponse } from 'node:http';

/** What the shared server lends a dataset's fake: its account, token and clock, and its shared rules. */
export interface FakeServer {
  /** The account that exists; other logins are unknown. */
  account: string;
  /** The token GraphQL accepts. */
  token: string;
  now(): number;
  /** One more request to the endpoint `counter` (one of the fake's `counters`). */
  count(counter: string): void;
  json(res: ServerResponse, status: number, body: unknown, headers?: Record<string, string>): void;
  /**
   * The failure modes every endpoint shares: `down` (and the server's allDown switch) closes the connection,
   * `slow` answers with `then` after the server's slowMs. True when it took the request.
   */
  misbehave(res: ServerResponse, mode: string, then: () => void): boolean;
}

/** A request as the shared server read it, body whole. */
export interface FakeRequest {
  method: string;
  url: URL;
  headers: IncomingMessage['headers'];
  body: string;
}

export interface DatasetFake<S = unknown> {
  /** Its endpoints' counters (FakeUpstreams.calls), zero at the start and after resetCalls. */
  counters: readonly string[];
  /** What a test or the demo changes: the fake's data and its failure mode. */
  state: S;
  /** Answers `req` when it is one of its endpoints (true), else leaves it to the others (false). */
  handle(req: FakeRequest, res: ServerResponse): boolean;
}

/** What `builders/datasets/<id>/fake.ts` exports. */
export interface DatasetFakeModule {
  fake(server: FakeServer): DatasetFake;
}
