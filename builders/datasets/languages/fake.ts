// The fake GitHub's side of the languages (README.md of this folder, "The upstream"), for the tests, the
// demo and the bench: GraphQL's repositories-with-languages query, REST's list of the owner's repositories
// and each repository's languages, exactly in the wire formats the clients read, each endpoint counted.
// The shared fake server (test/fakes/upstreams.ts) plugs it in as it does every dataset's own fake.
import type { ServerResponse } from 'node:http';
import type { DatasetFake, FakeRequest, FakeServer } from '../dataset-fake.ts';

/** One repository as the fake GitHub holds it, most recently pushed first in the list. */
export interface FakeLanguageRepository {
  name: string;
  fork: boolean;
  /** Its languages by bytes, largest first (GitHub's order on both paths). */
  languages: Record<string, number>;
}

/** How the languages' endpoints answer. */
export type LanguagesMode =
  | 'ok'
  | 'down' // the connection is closed without an answer
  | 'slow' // answers after the server's slowMs
  | 'server-error' // 502 {"message":"Server Error"}
  | 'rate-limited' // 403 with a Retry-After, as GitHub limits
  | 'unknown-account' // REST 404; GraphQL user null with NOT_FOUND
  | 'hostile-name' // a language named with markup and a bidi override
  | 'bad-size' // a size that is not an exact count
  | 'malformed'; // the list (or the nodes) not an array

export interface LanguagesFakeState {
  mode: LanguagesMode;
  repositories: FakeLanguageRepository[];
  /** The colour GraphQL gives each language, as GitHub writes it (mixed case); absent is null. */
  colors: Record<string, string | null>;
  /** Every endpoint answers exactly this 200 body (a hostile answer), whatever the mode. */
  body?: string;
  /**
   * Language answers are held until this many are in flight at once (then they go, and the hold ends):
   * how a test sees the client's concurrency without a clock. Absent: each answers at once.
   */
  holdUntil?: number;
  /** The most language requests in flight at once so far. */
  maxInFlight: number;
  /** The repositories whose languages were asked for (REST), in the order asked. */
  asked: string[];
}

/** The markup and the override a hostile name carries: the tests look for these in dist/. */
export const HOSTILE_NAME = '<script>alert(1)</script>\u202eTypeScript';

/** The simulated account: a fork (never read), a repository of COBOL (no colour in linguist), more than eight languages. */
export function defaultLanguages(): Pick<LanguagesFakeState, 'repositories' | 'colors'> {
  return {
    repositories: [
      {
        name: 'static-plus-cron',
        fork: false,
        languages: { TypeScript: 120000, JavaScript: 8000, CSS: 3500, HTML: 2400, Shell: 900, Dockerfile: 300 },
      },
      { name: 'linguist', fork: true, languages: { Ruby: 500000 } },
      { name: 'tiny-parser', fork: false, languages: { Rust: 45000, Makefile: 600 } },
      { name: 'notebooks', fork: false, languages: { 'Jupyter Notebook': 90000, Python: 4000 } },
      { name: 'dotfiles', fork: false, languages: { Shell: 5000 } },
      { name: 'go-tools', fork: false, languages: { Go: 7000 } },
      { name: 'ledger-cobol', fork: false, languages: { COBOL: 1500 } },
      { name: 'empty', fork: false, languages: {} },
    ],
    colors: {
      TypeScript: '#3178c6',
      JavaScript: '#f1e05a',
      CSS: '#663399',
      HTML: '#e34c26',
      Shell: '#89e051',
      Dockerfile: '#384d54',
      Ruby: '#701516',
      Rust: '#dea584',
      Makefile: '#427819',
      'Jupyter Notebook': '#DA5B0B',
      Python: '#3572A5',
      Go: '#00ADD8',
      COBOL: null,
    },
  };
}

export function fake(server: FakeServer): DatasetFake<LanguagesFakeState> {
  const state: LanguagesFakeState = { mode: 'ok', ...defaultLanguages(), maxInFlight: 0, asked: [] };
  let inFlight = 0;
  let held: Array<() => void> = [];

  /** The failures every endpoint shares; true when it answered. */
  const failed = (res: ServerResponse, answer: () => void): boolean => {
    if (server.misbehave(res, state.mode, answer)) return true;
    if (state.body !== undefined) {
      res.writeHead(200, { 'content-type': 'application/json; charset=utf-8' });
      res.end(state.body);
      return true;
    }
    switch (state.mode) {
      case 'server-error':
        server.json(res, 502, { message: 'Server Error' });
        return true;
      case 'rate-limited':
        server.json(res, 403, { message: 'API rate limit exceeded' }, { 'retry-after': '3600' });
        return true;
    }
    return false;
  };

  /** A repository's languages as the mode leaves them. */
  const languagesOf = (repository: FakeLanguageRepository, first: boolean): Record<string, unknown> => {
    if (first && state.mode === 'hostile-name') return { [HOSTILE_NAME]: 1000, ...repository.languages };
    if (first && state.mode === 'bad-size') return { ...repository.languages, Go: 1.5 };
    return repository.languages;
  };
  const own = () => state.repositories.filter((r) => !r.fork);

  const graphql = (req: FakeRequest, res: ServerResponse) => {
    server.count('languagesGraphql');
    const answer = () => {
      if (req.headers.authorization !== `bearer ${server.token}`)
        return server.json(res, 401, {
          message: 'Bad credentials',
          documentation_url: 'https://docs.github.com/graphql',
        });
      let login: string | undefined;
      try {
        login = (JSON.parse(req.body) as { variables?: { login?: string } }).variables?.login;
      } catch {
        return server.json(res, 400, { message: 'Problems parsing JSON' });
      }
      if (state.mode === 'unknown-account' || login !== server.account)
        return server.json(res, 200, {
          data: { user: null },
          errors: [
            { type: 'NOT_FOUND', path: ['user'], message: `Could not resolve to a User with the login of '${login}'.` },
          ],
        });
      if (state.mode === 'malformed') return server.json(res, 200, { data: { user: { repositories: { nodes: {} } } } });
      // isFork: false and first: 100, as GitHub applies them.
      const nodes = own()
        .slice(0, 100)
        .map((r, i) => ({
          name: r.name,
          languages: {
            edges: Object.entries(languagesOf(r, i === 0)).map(([name, size]) => ({
              size,
              node: { name, color: state.colors[name] ?? null },
            })),
          },
        }));
      server.json(res, 200, { data: { user: { repositories: { nodes } } } });
    };
    if (!failed(res, answer)) answer();
  };

  const list = (res: ServerResponse, login: string, url: URL) => {
    server.count('languagesList');
    const answer = () => {
      if (state.mode === 'unknown-account' || login.toLowerCase() !== server.account.toLowerCase())
        return server.json(res, 404, { message: 'Not Found', documentation_url: 'https://docs.github.com/rest' });
      if (state.mode === 'malformed') return server.json(res, 200, { repositories: [] });
      const perPage = Math.min(100, Number(url.searchParams.get('per_page') ?? '30') || 30);
      server.json(
        res,
        200,
        state.repositories.slice(0, perPage).map((r, i) => ({
          id: 1000 + i,
          name: r.name,
          full_name: `${server.account}/${r.name}`,
          private: false,
          owner: { login: server.account, type: 'User' },
          fork: r.fork,
          language: Object.keys(r.languages)[0] ?? null,
          languages_url: `https://api.github.com/repos/${server.account}/${r.name}/languages`,
        })),
      );
    };
    if (!failed(res, answer)) answer();
  };

  const repositoryLanguages = (res: ServerResponse, owner: string, name: string) => {
    server.count('languagesRepo');
    state.asked.push(name);
    const answer = () => {
      const index = state.repositories.findIndex((r) => r.name.toLowerCase() === name.toLowerCase());
      if (owner.toLowerCase() !== server.account.toLowerCase() || index < 0)
        return server.json(res, 404, { message: 'Not Found', documentation_url: 'https://docs.github.com/rest' });
      const first = own()[0]?.name === state.repositories[index]!.name;
      server.json(res, 200, languagesOf(state.repositories[index]!, first));
    };
    const go = () => {
      if (!failed(res, answer)) answer();
    };
    inFlight++;
    state.maxInFlight = Math.max(state.maxInFlight, inFlight);
    res.on('close', () => inFlight--);
    if (state.holdUntil === undefined) return go();
    held.push(go);
    // Once that many were in flight together, the hold is over: the rest answer at once.
    if (held.length >= state.holdUntil) {
      const release = held;
      held = [];
      state.holdUntil = undefined;
      for (const run of release) run();
    }
  };

  return {
    counters: ['languagesGraphql', 'languagesList', 'languagesRepo'],
    state,
    handle(req, res) {
      const { pathname } = req.url;
      if (req.method === 'POST' && pathname === '/graphql' && /\blanguages\(first:/.test(req.body)) {
        graphql(req, res);
        return true;
      }
      if (req.method !== 'GET') return false;
      const listed = /^\/users\/([^/]+)\/repos$/.exec(pathname);
      if (listed) {
        list(res, decodeURIComponent(listed[1]!), req.url);
        return true;
      }
      const languages = /^\/repos\/([^/]+)\/([^/]+)\/languages$/.exec(pathname);
      if (languages) {
        repositoryLanguages(res, decodeURIComponent(languages[1]!), decodeURIComponent(languages[2]!));
        return true;
      }
      return false;
    },
  };
}
