// Fake upstreams on an ephemeral loopback port, speaking the real wire formats of docs/upstreams.md:
// Coinbase Exchange (ticker, candles), GitHub GraphQL and GitHub's public HTML calendar.
// One server answers all three, the account's picture, and every registered dataset's own fake (builders/datasets/<id>/fake.ts); point MARKET_API_URL, GITHUB_API_URL and
// GITHUB_WEB_URL at `url`.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { DateTime } from 'luxon';
import { pngClaiming, TINY_PNG } from './avatar.ts';
import {
  calendarWeeks,
  candleRows,
  closeAt,
  defaultViewRange,
  yearViewRange,
  type DateRange,
  type DefaultViewRule,
  type FakeDay,
} from './data.ts';
import {
  defaultProjects,
  projectsGraphqlData,
  renderProfileHtml,
  repositoryJson,
  type FakeProjects,
} from './projects.ts';
import { datasets, DEFAULT_SERVICE_OPTIONS } from '../../builders/datasets/registry.ts';
import type { DatasetFake, DatasetFakeModule, FakeRequest, FakeServer } from '../../builders/datasets/dataset-fake.ts';

export type { FakeProjects, FakeRepository, ProjectsMode } from './projects.ts';

/**
 * The fake's endpoints, each with its own counter: a test of "no call" asserts every one is zero (noCalls).
 * A dataset's own fake (builders/datasets/<id>/fake.ts) adds its counters under the names it declares.
 */
export interface FakeCalls extends Record<string, number> {
  ticker: number;
  candles: number;
  /** GraphQL's contribution calendar query. */
  graphql: number;
  /** The public calendar page (default and year views alike). */
  html: number;
  /** GraphQL's projects query. */
  graphqlProjects: number;
  /** The public profile page. */
  profile: number;
  /** REST `GET /repos/<owner>/<name>`. */
  repos: number;
}

const zeroCalls = (fakes: Iterable<DatasetFake> = []): FakeCalls => ({
  ticker: 0,
  candles: 0,
  graphql: 0,
  html: 0,
  graphqlProjects: 0,
  profile: 0,
  repos: 0,
  ...Object.fromEntries([...fakes].flatMap((f) => f.counters.map((c) => [c, 0]))),
});

/**
 * The fakes of the registered datasets that have one (builders/datasets/<id>/fake.ts), by id, each made
 * against this server. A dataset without one is skipped: the loader's message names the missing file.
 */
async function datasetFakes(server: FakeServer): Promise<Map<string, DatasetFake>> {
  const fakes = new Map<string, DatasetFake>();
  for (const { resource } of datasets(DEFAULT_SERVICE_OPTIONS)) {
    const { id } = resource;
    let module: DatasetFakeModule;
    try {
      module = (await import(`../../builders/datasets/${id}/fake.ts`)) as DatasetFakeModule;
    } catch (error) {
      if (String((error as Error)?.message).includes(`${id}/fake.ts`)) continue;
      throw error;
    }
    fakes.set(id, module.fake(server));
  }
  return fakes;
}

/** Every endpoint's counter at zero: the fake was not asked anything. */
export function noCalls(calls: FakeCalls): boolean {
  return Object.values(calls).every((n) => n === 0);
}

/** How the market upstream misbehaves. */
export type MarketMode =
  | 'ok'
  | 'down' // the connection is closed without an answer
  | 'slow' // answers after `slowMs`
  | 'garbage' // 200 with a body of the wrong shape
  | 'not-json' // 200 with HTML
  | 'rate-limited' // 429 {"message":"Public rate limit exceeded"}
  | 'server-error' // 500 {"message":"Internal server error"}
  | 'not-found' // 404 {"message":"NotFound"}
  | 'bad-price' // ticker price "0"
  | 'bad-time' // ticker time unparsable
  | 'no-candles'; // candles []

/** How the GitHub upstreams misbehave (both GraphQL and HTML). */
export type GithubMode =
  | 'ok'
  | 'down'
  | 'slow'
  | 'garbage'
  | 'rate-limited' // 403 on GraphQL / 429 on HTML
  | 'server-error'
  | 'markup-drift' // HTML: cells renamed; GraphQL: weeks missing
  | 'missing-day' // one date of the window absent
  | 'unknown-account' // HTML 404; GraphQL 200 with user null and NOT_FOUND
  | 'bad-token'; // GraphQL 401

/** Every way the market upstream can fail, in the order the tests sweep them. */
export const MARKET_FAILURE_MODES: readonly MarketMode[] = [
  'down',
  'slow',
  'garbage',
  'not-json',
  'rate-limited',
  'server-error',
  'not-found',
  'bad-price',
  'bad-time',
  'no-candles',
];

/** Every way the public HTML calendar can fail (bad-token is the GraphQL source's alone). */
export const HTML_CALENDAR_FAILURE_MODES: readonly GithubMode[] = [
  'down',
  'slow',
  'garbage',
  'rate-limited',
  'server-error',
  'markup-drift',
  'missing-day',
  'unknown-account',
];

/** Where the fake's picture host serves the account's picture (github.com redirects to avatars.githubusercontent.com/u/<id>). */
const AVATAR_PATH = '/avatars/u/583231';
/** The account's picture: a real PNG (test/fakes/avatar.ts). */
export const AVATAR_PNG = Buffer.from(TINY_PNG);
/** The picture of the `huge` mode: 109 KB that claim 30,000 × 30,000 pixels. */
const HUGE_PNG = Buffer.from(pngClaiming(30_000, 30_000));

export interface FakeUpstreamOptions {
  /**
   * The clock the fake builds its data around (ms), as GitHub's and Coinbase's own clocks: the HTML calendar ends
   * on its UTC today, the ticker is a second old. Defaults to the real clock, for tests of a spawned gateway (which
   * always runs on the real clock); a test that sets a build's time sets this too. `fake.now` can change it later.
   */
  now?: () => number;
  /** The account that exists; other logins are unknown. */
  account?: string;
  /** The token GraphQL accepts. */
  token?: string;
  slowMs?: number;
  /** The one product the provider lists (default MON-USD); any other answers 404 NotFound, as Coinbase does. */
  product?: string;
  /**
   * What a 404 for another account says (the demo's: restart it to simulate that account). Set, the GitHub
   * pages of an unknown login answer 404 with `{"message": hint}`, which the build's error line quotes.
   */
  unknownAccountHint?: (login: string) => string;
}

export interface RecordedRequest {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: string;
}

export interface FakeUpstreams {
  url: string;
  market: {
    mode: MarketMode;
    tickerMode?: MarketMode;
    candlesMode?: MarketMode;
    tradeIdAsString: boolean;
    tickerTime?: string;
    tickerPrice?: string;
    /** The ticker answers this long after the request (with the price set when the request arrived). */
    tickerDelayMs?: number;
    /** The ticker answers once this settles (a test's gate; with the price set when the request arrived). */
    tickerHeld?: Promise<unknown>;
    /** The Retry-After of 'rate-limited' answers, in seconds (default 3600). */
    retryAfterSeconds?: number;
  };
  /**
   * `defaultView`: how the HTML default view picks its first date (default 'one-year'). `page`: the HTML
   * calendar answers exactly this 200 body (a hostile page), whatever the mode and the view.
   */
  github: { mode: GithubMode; missingDate?: string; defaultView?: DefaultViewRule; page?: string };
  /**
   * The account's picture, `GET /<account>.png` (docs/upstreams.md#the-owners-picture): as github.com, a
   * redirect to the picture host (here the fake itself, `/avatars/u/<id>`), then the PNG. `missing` answers
   * 404; `not-image` answers the redirect with an HTML page; `insecure` redirects to an http host elsewhere;
   * `huge` answers a 109 KB PNG that claims 30,000 × 30,000 pixels.
   */
  avatar: { mode: 'ok' | 'missing' | 'not-image' | 'insecure' | 'huge'; requests: number };
  /** The profile's projects (test/fakes/projects.ts): what the page, GraphQL's projects query and REST answer. */
  projects: FakeProjects;
  /**
   * The fakes of the datasets that bring their own (builders/datasets/<id>/fake.ts), by id: a test reaches
   * one's `state` (its data, its failure mode) through the type its folder exports.
   */
  datasets: ReadonlyMap<string, DatasetFake>;
  /**
   * Every data upstream down at once (each endpoint's requests still counted): the one switch a test of
   * "no upstream answers" sets, whatever datasets the fake speaks for.
   */
  allDown: boolean;
  /** The fake's clock. */
  now: () => number;
  /** Requests per endpoint (FakeCalls). */
  calls: FakeCalls;
  requests: RecordedRequest[];
  /** Zero every counter and forget the recorded requests. */
  resetCalls(): void;
  close(): Promise<void>;
}

const json = (res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) => {
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', ...headers });
  res.end(typeof body === 'string' ? body : JSON.stringify(body));
};

export async function startFakeUpstreams(options: FakeUpstreamOptions = {}): Promise<FakeUpstreams> {
  const account = options.account ?? 'octocat';
  const token = options.token ?? 'test-token';
  const slowMs = options.slowMs ?? 30_000;
  const product = options.product ?? 'MON-USD';
  const sockets = new Set<Socket>();
  const timers = new Set<NodeJS.Timeout>();

  const server: FakeServer = {
    account,
    token,
    now: () => state.now(),
    count: (counter) => void (state.calls[counter] = (state.calls[counter] ?? 0) + 1),
    json: (res, status, body, headers) => json(res, status, body, headers),
    misbehave: (res, mode, then) => misbehave(res, mode, then),
  };
  const fakes = await datasetFakes(server);

  const state: FakeUpstreams = {
    url: '',
    market: { mode: 'ok', tradeIdAsString: false },
    github: { mode: 'ok' },
    avatar: { mode: 'ok', requests: 0 },
    projects: defaultProjects(account),
    datasets: fakes,
    allDown: false,
    now: options.now ?? Date.now,
    calls: zeroCalls(fakes.values()),
    requests: [],
    resetCalls() {
      state.calls = zeroCalls(fakes.values());
      state.avatar.requests = 0;
      state.requests = [];
    },
    close: async () => {
      for (const t of timers) clearTimeout(t);
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => http.close(() => resolve()));
    },
  };

  /** An unknown login's 404: github.com's HTML page, or the caller's hint as a JSON message. */
  const unknownAccount = (res: ServerResponse, login: string, html = '<h1>Not Found</h1>') => {
    if (options.unknownAccountHint !== undefined) return json(res, 404, { message: options.unknownAccountHint(login) });
    res.writeHead(404, { 'content-type': 'text/html' });
    res.end(html);
  };

  /** Applies a failure mode shared by every endpoint; returns true when it answered. */
  const misbehave = (res: ServerResponse, mode: string, then: () => void): boolean => {
    if (state.allDown || mode === 'down') {
      res.socket?.destroy();
      return true;
    }
    if (mode === 'slow') {
      const timer = setTimeout(() => {
        timers.delete(timer);
        then();
      }, slowMs);
      timers.add(timer);
      return true;
    }
    return false;
  };

  /** In 'missing-day' mode one date of the Toronto window is absent (missingDate, or 100 days ago). */
  const missingDay = (): string | undefined =>
    state.github.mode !== 'missing-day'
      ? undefined
      : (state.github.missingDate ?? torontoToday().minus({ days: 100 }).toISODate()!);
  const dropDay = (days: FakeDay[]): FakeDay[] => {
    const missing = missingDay();
    return missing === undefined ? days : days.filter((d) => d.date !== missing);
  };

  const handleMarket = (req: IncomingMessage, res: ServerResponse, url: URL) => {
    const isTicker = url.pathname === `/products/${product}/ticker`;
    const isCandles = url.pathname === `/products/${product}/candles`;
    if (!req.headers['user-agent']) return json(res, 400, { message: 'User-Agent header is required.' });
    if (!isTicker && !isCandles) return json(res, 404, { message: 'NotFound' });
    if (isTicker) state.calls.ticker++;
    else state.calls.candles++;
    const mode = (isTicker ? state.market.tickerMode : state.market.candlesMode) ?? state.market.mode;
    const tickerPrice = state.market.tickerPrice;
    const answer = () => {
      switch (mode) {
        case 'garbage':
          return json(res, 200, isTicker ? { status: 'ok' } : { candles: 'none' });
        case 'not-json':
          res.writeHead(200, { 'content-type': 'text/html' });
          return res.end('<html><body>maintenance</body></html>');
        case 'rate-limited':
          return json(
            res,
            429,
            { message: 'Public rate limit exceeded' },
            { 'retry-after': String(state.market.retryAfterSeconds ?? 3600) },
          );
        case 'server-error':
          return json(res, 500, { message: 'Internal server error' });
        case 'not-found':
          return json(res, 404, { message: 'NotFound' });
      }
      const nowMs = state.now();
      if (isTicker) {
        const hour = Math.floor(nowMs / 3_600_000) * 3600;
        const time = state.market.tickerTime ?? new Date(nowMs - 1500).toISOString().replace('Z', '123Z');
        const price = mode === 'bad-price' ? '0' : (tickerPrice ?? String(closeAt(hour + 3600, product)));
        return json(res, 200, {
          ask: (Number(price) * 1.0005).toFixed(6),
          bid: (Number(price) * 0.9995).toFixed(6),
          volume: '1203.5',
          trade_id: state.market.tradeIdAsString ? '86345' : 86345,
          price,
          size: '120',
          time: mode === 'bad-time' ? 'yesterday' : time,
        });
      }
      if (mode === 'no-candles') return json(res, 200, []);
      const start = Date.parse(url.searchParams.get('start') ?? '');
      const end = Date.parse(url.searchParams.get('end') ?? '');
      if (url.searchParams.get('granularity') !== '3600' || !Number.isFinite(start) || !Number.isFinite(end)) {
        return json(res, 400, { message: 'Invalid granularity or range' });
      }
      // Like the real provider: the row just before `start` may come back too.
      return json(res, 200, candleRows(start / 1000 - 3600, end / 1000, undefined, product).slice(0, 300));
    };
    const held = isTicker ? state.market.tickerHeld : undefined;
    if (held !== undefined) {
      void held.then(() => {
        if (!misbehave(res, mode, answer)) answer();
      });
      return;
    }
    const delayMs = isTicker ? state.market.tickerDelayMs : undefined;
    if (delayMs !== undefined) {
      const timer = setTimeout(() => {
        timers.delete(timer);
        if (!misbehave(res, mode, answer)) answer();
      }, delayMs);
      timers.add(timer);
      return;
    }
    if (!misbehave(res, mode, answer)) answer();
  };

  const torontoToday = () => DateTime.fromMillis(state.now(), { zone: 'America/Toronto' });

  /** The projects' modes that every one of their endpoints shares; true when it answered. */
  const projectsFailed = (res: ServerResponse, answer: () => void): boolean => {
    if (misbehave(res, state.projects.mode, answer)) return true;
    switch (state.projects.mode) {
      case 'rate-limited':
        json(res, 429, { message: 'Too many requests' }, { 'retry-after': '3600' });
        return true;
      case 'server-error':
        res.writeHead(503, { 'content-type': 'text/html' });
        res.end('<h1>Unicorn!</h1>');
        return true;
    }
    return false;
  };

  const handleProfile = (res: ServerResponse, login: string) => {
    state.calls.profile++;
    const answer = () => {
      if (state.projects.page !== undefined) {
        res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
        return res.end(state.projects.page);
      }
      if (state.projects.mode === 'unknown-account' || login.toLowerCase() !== account.toLowerCase())
        return unknownAccount(res, login);
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end(renderProfileHtml(account, state.projects));
    };
    if (!projectsFailed(res, answer)) answer();
  };

  const handleRepository = (res: ServerResponse, owner: string, name: string) => {
    state.calls.repos++;
    const answer = () => {
      const repo = repositoryJson(state.projects, owner, name);
      if (repo === undefined)
        return json(res, 404, { message: 'Not Found', documentation_url: 'https://docs.github.com/rest' });
      json(res, 200, repo);
    };
    if (!projectsFailed(res, answer)) answer();
  };

  const handleProjectsGraphql = (req: IncomingMessage, res: ServerResponse, body: string) => {
    state.calls.graphqlProjects++;
    const answer = () => {
      if (req.headers.authorization !== `bearer ${token}`)
        return json(res, 401, { message: 'Bad credentials', documentation_url: 'https://docs.github.com/graphql' });
      const login = (JSON.parse(body) as { variables?: { login?: string } }).variables?.login;
      if (state.projects.mode === 'unknown-account' || login !== account)
        return json(res, 200, {
          data: { user: null },
          errors: [
            { type: 'NOT_FOUND', path: ['user'], message: `Could not resolve to a User with the login of '${login}'.` },
          ],
        });
      json(res, 200, { data: projectsGraphqlData(state.projects) });
    };
    if (!projectsFailed(res, answer)) answer();
  };

  const handleGraphql = (req: IncomingMessage, res: ServerResponse, body: string) => {
    if (body.includes('pinnedItems')) return handleProjectsGraphql(req, res, body);
    state.calls.graphql++;
    const mode = state.github.mode;
    const answer = () => {
      if (mode === 'bad-token' || req.headers.authorization !== `bearer ${token}`) {
        return json(res, 401, { message: 'Bad credentials', documentation_url: 'https://docs.github.com/graphql' });
      }
      switch (mode) {
        case 'garbage':
          return json(res, 200, { data: { viewer: 'nobody' } });
        case 'rate-limited':
          return json(res, 403, { message: 'API rate limit exceeded' }, { 'retry-after': '3600' });
        case 'server-error':
          return json(res, 502, { message: 'Server Error' });
      }
      let variables: { login?: string; from?: string; to?: string };
      try {
        variables = (JSON.parse(body) as { variables?: typeof variables }).variables ?? {};
      } catch {
        return json(res, 400, { message: 'Problems parsing JSON' });
      }
      if (mode === 'unknown-account' || variables.login !== account) {
        return json(res, 200, {
          data: { user: null },
          errors: [
            {
              type: 'NOT_FOUND',
              path: ['user'],
              locations: [{ line: 2, column: 3 }],
              message: `Could not resolve to a User with the login of '${variables.login}'.`,
            },
          ],
        });
      }
      if (mode === 'markup-drift') {
        return json(res, 200, {
          data: {
            user: { contributionsCollection: { contributionCalendar: { totalContributions: 3, weekList: [] } } },
          },
        });
      }
      const from = (variables.from ?? '').slice(0, 10);
      const to = (variables.to ?? '').slice(0, 10);
      const weeks = calendarWeeks(from, to);
      const levels = ['NONE', 'FIRST_QUARTILE', 'SECOND_QUARTILE', 'THIRD_QUARTILE', 'FOURTH_QUARTILE'];
      const colors = ['#ebedf0', '#9be9a8', '#40c463', '#30a14e', '#216e39'];
      return json(res, 200, {
        data: {
          user: {
            contributionsCollection: {
              contributionCalendar: {
                totalContributions: weeks.flat().reduce((s, d) => s + d.count, 0),
                weeks: weeks.map((week) => ({
                  firstDay: week[0]!.date,
                  contributionDays: dropDay(week).map((d) => ({
                    date: d.date,
                    contributionCount: d.count,
                    contributionLevel: levels[d.level],
                    weekday: new Date(`${d.date}T00:00:00Z`).getUTCDay(),
                    color: colors[d.level],
                  })),
                })),
              },
            },
          },
        },
      });
    };
    if (!misbehave(res, mode, answer)) answer();
  };

  const handleHtml = (req: IncomingMessage, res: ServerResponse, login: string, url: URL) => {
    state.calls.html++;
    const mode = state.github.mode;
    const answer = () => {
      if (state.github.page !== undefined) {
        res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
        return res.end(state.github.page);
      }
      switch (mode) {
        case 'garbage':
          res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
          return res.end('<html><body><p>Something went wrong.</p></body></html>');
        case 'rate-limited':
          return json(res, 429, { message: 'Too many requests' }, { 'retry-after': '3600' });
        case 'server-error':
          res.writeHead(503, { 'content-type': 'text/html' });
          return res.end('<h1>Unicorn!</h1>');
      }
      if (mode === 'unknown-account' || login.toLowerCase() !== account.toLowerCase())
        return unknownAccount(res, login);
      // With `from`, the year view; without, the last-year view. Both in UTC dates, ending no later than today.
      const from = url.searchParams.get('from');
      let range: DateRange | undefined;
      if (from === null) range = defaultViewRange(state.now(), state.github.defaultView ?? 'one-year');
      else if (/^\d{4}-\d{2}-\d{2}$/.test(from)) range = yearViewRange(from, state.now());
      if (range === undefined) {
        res.writeHead(422, { 'content-type': 'text/html' });
        return res.end('<h1>Unprocessable</h1>');
      }
      const { from: first, to: last } = range;
      const key = [first, last, mode === 'markup-drift', missingDay()].join(' ');
      let page = PAGES.get(key);
      if (page === undefined) {
        const weeks = calendarWeeks(first, last).map((week) => week.filter((d) => d.date >= first && d.date <= last));
        page = renderCalendarHtml(weeks.map(dropDay), mode === 'markup-drift');
        if (PAGES.size >= PAGES_BOUND) PAGES.clear();
        PAGES.set(key, page);
      }
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end(page);
    };
    if (!misbehave(res, mode, answer)) answer();
  };

  /** github.com/<account>.png: a 302 to the picture host, as github.com answers (a 404 for an unknown account). */
  const handleAvatar = (res: ServerResponse, login: string) => {
    state.avatar.requests++;
    if (login.toLowerCase() !== account.toLowerCase())
      return unknownAccount(res, login, '<!doctype html><title>Page not found</title>');
    if (state.avatar.mode === 'missing') {
      res.writeHead(404, { 'content-type': 'text/html; charset=utf-8' });
      return res.end('<!doctype html><title>Page not found</title>');
    }
    const host = state.avatar.mode === 'insecure' ? 'http://avatars.example' : state.url;
    res.writeHead(302, { location: `${host}${AVATAR_PATH}?v=4` });
    res.end();
  };

  const http = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      state.requests.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body });
      const url = new URL(req.url ?? '/', 'http://fake');
      const request: FakeRequest = { method: req.method ?? '', url, headers: req.headers, body };
      for (const fake of fakes.values()) if (fake.handle(request, res)) return;
      if (url.pathname.startsWith('/products/')) return handleMarket(req, res, url);
      if (url.pathname === '/graphql' && req.method === 'POST') return handleGraphql(req, res, body);
      const html = /^\/users\/([^/]+)\/contributions$/.exec(url.pathname);
      if (html && req.method === 'GET') return handleHtml(req, res, decodeURIComponent(html[1]!), url);
      const picture = /^\/([^/]+)\.png$/.exec(url.pathname);
      if (picture && req.method === 'GET') return handleAvatar(res, decodeURIComponent(picture[1]!));
      if (url.pathname === AVATAR_PATH && req.method === 'GET') {
        state.avatar.requests++;
        if (state.avatar.mode === 'not-image') {
          res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
          return res.end('<!doctype html><title>Not a picture</title>');
        }
        const png = state.avatar.mode === 'huge' ? HUGE_PNG : AVATAR_PNG;
        res.writeHead(200, { 'content-type': 'image/png', 'content-length': png.length });
        return res.end(png);
      }
      const repository = /^\/repos\/([^/]+)\/([^/]+)$/.exec(url.pathname);
      if (repository && req.method === 'GET')
        return handleRepository(res, decodeURIComponent(repository[1]!), decodeURIComponent(repository[2]!));
      const profile = /^\/([^/]+)$/.exec(url.pathname);
      if (profile && req.method === 'GET') return handleProfile(res, decodeURIComponent(profile[1]!));
      json(res, 404, { message: 'Not Found' });
    });
  });
  http.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  state.url = `http://127.0.0.1:${(http.address() as AddressInfo).port}`;
  return state;
}

/**
 * The calendar pages served so far in this process, by what they show (their dates, the markup, a missing
 * day): a page depends on nothing else, and the tests ask for the same dates dozens of times (every build
 * on the same clock), where drawing one (luxon for each of some 370 days) was seconds of CPU. Bounded: past
 * the bound it starts over.
 */
const PAGES = new Map<string, string>();
const PAGES_BOUND = 256;

/** GitHub's calendar fragment as of 2024: cells by weekday row, tooltips after the table, a legend. */
export function renderCalendarHtml(weeks: FakeDay[][], drift = false): string {
  const total = weeks.flat().reduce((s, d) => s + d.count, 0);
  const rows: string[] = [];
  const tooltips: string[] = [];
  for (let weekday = 0; weekday < 7; weekday++) {
    const cells: string[] = [
      `<td class="ContributionCalendar-label" style="position: relative"><span class="sr-only">Day</span></td>`,
    ];
    weeks.forEach((week, w) => {
      const day = week.find((d) => new Date(`${d.date}T00:00:00Z`).getUTCDay() === weekday);
      if (!day) {
        cells.push('<td></td>');
        return;
      }
      const id = `contribution-day-component-${weekday}-${w}`;
      cells.push(
        drift
          ? `<td tabindex="0" data-ix="${w}" data-day="${day.date}" id="${id}" data-intensity="${day.level}" role="gridcell" class="ContributionCalendar-day"></td>`
          : `<td tabindex="0" data-ix="${w}" style="width: 10px" data-date="${day.date}" id="${id}" data-level="${day.level}" role="gridcell" class="ContributionCalendar-day"></td>`,
      );
      const when = DateTime.fromISO(day.date).toFormat('MMMM d');
      const text =
        day.count === 0
          ? `No contributions on ${when}.`
          : `${day.count.toLocaleString('en-US')} contribution${day.count === 1 ? '' : 's'} on ${when}.`;
      tooltips.push(
        `<tool-tip id="tooltip-${weekday}-${w}" for="${id}" popover="manual" data-direction="n" class="sr-only position-absolute">${text}</tool-tip>`,
      );
    });
    rows.push(`<tr style="height: 10px">\n${cells.join('\n')}\n</tr>`);
  }
  const legend = [0, 1, 2, 3, 4]
    .map((l) => `<div class="ContributionCalendar-day" data-level="${l}"></div>`)
    .join('\n');
  return `<div class="js-yearly-contributions">
<h2 class="f4 text-normal mb-2">
      ${total.toLocaleString('en-US')}
      contributions
        in the last year
    </h2>
<div class="js-calendar-graph">
<table class="ContributionCalendar-grid js-calendar-graph-table" role="grid">
<tbody>
${rows.join('\n')}
</tbody>
</table>
</div>
${tooltips.join('\n')}
<div class="d-flex flex-justify-end">Less ${legend} More</div>
</div>`;
}
