// Generated from schemas/*.schema.json by builders/tools/payload-types.mjs (npm run generate:types): do not edit.
// A schema is the source of truth; change it and regenerate.

/**
 * The JSON index at GET /api: the public data routes, their developer page, the contract file and the authentication policy. A discovery document only: the payload schemas stay in the contract.
 */
export interface ApiIndex {
  /**
   * Name of the API.
   */
  name: string;
  /**
   * Present only on a demo site (npm run demo): every value the routes return is simulated, not real data.
   */
  simulated?: true;
  /**
   * What the API serves, in one or two sentences.
   */
  description: string;
  /**
   * Major version of the contract the routes follow.
   */
  version: '1';
  /**
   * Always none: no key, signup or authentication header is needed.
   */
  authentication: 'none';
  /**
   * Absolute URL of the developer page (HTML).
   */
  documentation: string;
  /**
   * Absolute URL of the developer page's Markdown copy.
   */
  documentationMarkdown?: string;
  /**
   * Absolute URL of the OpenAPI 3.1 contract.
   */
  openapi: string;
  /**
   * Absolute URL of /status.json: the build's time, each dataset's state and age, the next scheduled run.
   */
  status?: string;
  /**
   * Absolute URL of /status-badge.json: the same in the shields.io endpoint-badge form.
   */
  statusBadge?: string;
  /**
   * Absolute URL of the RFC 9727 API catalog (linkset).
   */
  apiCatalog: string;
  /**
   * Absolute URL of the read-only command-line script.
   */
  cli?: string;
  /**
   * The live market feed the site's pages subscribe to (MARKET_WS_URL); absent when the site names none.
   */
  liveFeed?: {
    /**
     * The feed's ws: or wss: URL.
     */
    url: string;
    /**
     * The product whose ticks it carries.
     */
    product: string;
    /**
     * Its wire format: Coinbase Exchange's public WebSocket feed (subscribe, ticker, heartbeat).
     */
    format: 'coinbase-exchange-websocket';
  };
  /**
   * The public data routes: each with its explicit v1 path and its stable unversioned alias.
   *
   * @minItems 1
   */
  routes: {
    /**
     * Stable short name of the resource.
     */
    id: string;
    /**
     * Human-readable name.
     */
    title: string;
    /**
     * What the resource holds.
     */
    summary: string;
    /**
     * The explicit v1 path.
     */
    path: string;
    /**
     * Absolute URL of the v1 path.
     */
    url: string;
    /**
     * operationId of the v1 GET in the OpenAPI contract (also its function-tool name).
     */
    operationId: string;
    /**
     * The unversioned alias: same payload, returned directly, no redirect.
     */
    alias: {
      /**
       * The alias path.
       */
      path: string;
      /**
       * Absolute URL of the alias.
       */
      url: string;
      /**
       * operationId of the alias GET.
       */
      operationId: string;
    };
    /**
     * Methods the route answers; any other is a 405 problem.
     */
    methods: ('GET' | 'HEAD')[];
    /**
     * Name of the response schema in the contract's components.
     */
    schema: string;
    /**
     * Media type of a 200 answer.
     */
    contentType: 'application/json';
    /**
     * Cache-Control rule of a 200 answer, as documented on the developer page.
     */
    cacheControl: string;
  }[];
  /**
   * The RFC 9457 problem types the routes may answer with (application/problem+json).
   */
  problemTypes?: {
    /**
     * The problem type URL: a fragment of the developer page.
     */
    type: string;
    /**
     * HTTP status code.
     */
    status: number;
    /**
     * Stable machine code.
     */
    code: string;
    /**
     * Short title.
     */
    title: string;
  }[];
  /**
   * The Model Context Protocol endpoint whose tools are the data operations. Gateway only: a static host has no such path.
   */
  mcp?: {
    /**
     * Absolute URL of the endpoint.
     */
    url: string;
    /**
     * The MCP transport: Streamable HTTP, stateless.
     */
    transport: 'streamable-http';
    /**
     * Served by the gateway, never by a static host.
     */
    availability: 'gateway only';
    /**
     * The tool names: the operationIds of the data routes.
     */
    tools: string[];
    /**
     * What the endpoint offers and how it counts against the quota.
     */
    description: string;
  };
  /**
   * The optional shared quota of the data routes.
   */
  rateLimit?: {
    /**
     * Policy name used in the RateLimit and RateLimit-Policy headers.
     */
    policy: string;
    /**
     * Headers sent when enforcement accounted for the request.
     */
    headers: string[];
    /**
     * How the quota behaves.
     */
    description: string;
  };
}

/**
 * One day of the contribution calendar.
 */
export interface GitHubContributionDay {
  /**
   * The calendar day, as GitHub labels it.
   */
  date: string;
  /**
   * Number of contributions that day (an exact integer: at most 2^53 - 1).
   */
  count: number;
  /**
   * Calendar intensity, 0 through 4.
   */
  level: number;
}

/**
 * Rolling 365-day public contribution calendar of one GitHub account, in America/Toronto.
 */
export interface GitHubContributions {
  /**
   * The fixed account name.
   */
  username: string;
  /**
   * Sum of count over the 365 entries of days (an exact integer: at most 2^53 - 1).
   */
  totalContributions: number;
  /**
   * First date of the rolling window, inclusive.
   */
  startDate: string;
  /**
   * Last date of the window, inclusive: the current date in America/Toronto.
   */
  endDate: string;
  /**
   * Exactly 365 entries, one per date from startDate through endDate, ascending.
   *
   * @minItems 365
   * @maxItems 365
   */
  days: GitHubContributionDay[];
  /**
   * Always America/Toronto.
   */
  timeZone: 'America/Toronto';
  /**
   * The next midnight in America/Toronto, with its offset.
   */
  nextRefreshAt: string;
}

/**
 * One repository of the owner's projects, with exact counts.
 */
export interface GitHubProject {
  /**
   * The repository's owner (a user or an organisation).
   */
  owner: string;
  /**
   * The repository's name (never . or ..).
   */
  name: string;
  /**
   * Always https://github.com/<owner>/<name>, built from owner and name, never taken from the upstream.
   */
  url: string;
  /**
   * The repository's description as text, whitespace collapsed and trimmed; null when empty or absent.
   */
  description: string | null;
  /**
   * Its primary language as GitHub names it, or null.
   */
  language: string | null;
  /**
   * The language's colour, # and six hex digits exactly as GitHub gives it, else null.
   */
  languageColor: string | null;
  /**
   * Exact number of stars, never an estimate.
   */
  stars: number;
  /**
   * Exact number of forks, never an estimate.
   */
  forks: number;
}

/**
 * The owner's chosen repositories as their GitHub profile shows them: the pinned repositories when the account pinned any, else GitHub's popular repositories (the account's own public repositories, forks excluded, most stars first). Repositories only (a pinned gist is skipped), at most 6, in the profile's order.
 */
export interface GitHubProjects {
  /**
   * The fixed GitHub account whose profile it is.
   */
  username: string;
  /**
   * pinned when the account pinned any repository, else popular (also for an account with no public repository).
   */
  selection: 'pinned' | 'popular';
  /**
   * When the upstream answered (ISO 8601).
   */
  asOf: string;
  /**
   * At most 6 repositories, in the profile's order; empty for an account with no public repository.
   *
   * @maxItems 6
   */
  projects: GitHubProject[];
}

/**
 * Contribution streaks of one GitHub account, derived from its contribution calendar of the same instant, in America/Toronto. current is the run holding the most recent active date when every non-rest date between it and today is active (today, not yet over, never breaks it), else the zero run; longest is the run with the most days, the most recent on a tie, or the zero run when no date is active.
 */
export interface GitHubStreak {
  /**
   * The fixed account name, as in the calendar.
   */
  username: string;
  /**
   * Always America/Toronto, as in the calendar.
   */
  timeZone: 'America/Toronto';
  /**
   * First date of the calendar's rolling window, inclusive.
   */
  startDate: string;
  /**
   * Last date of the window, inclusive: the current date in America/Toronto.
   */
  endDate: string;
  /**
   * The next midnight in America/Toronto, with its offset, as in the calendar.
   */
  nextRefreshAt: string;
  /**
   * The weekdays that neither break nor count in a streak (STREAK_REST_DAYS), Monday first; empty by default.
   *
   * @maxItems 7
   */
  restDays: ('Monday' | 'Tuesday' | 'Wednesday' | 'Thursday' | 'Friday' | 'Saturday' | 'Sunday')[];
  /**
   * Number of dates of the window with at least one contribution.
   */
  activeDays: number;
  current: GitHubStreakRun;
  longest: GitHubStreakRun;
}

/**
 * A run of active dates: every date between its first and last is active or an inactive rest day. The zero run (no active date) has 0 days and null dates.
 */
export interface GitHubStreakRun {
  /**
   * Number of active dates in the run (inactive rest dates inside it do not count).
   */
  days: number;
  /**
   * Its first active date; null for the zero run.
   */
  startDate: string | null;
  /**
   * Its last active date; null for the zero run.
   */
  endDate: string | null;
  /**
   * Every date before the run in the window is a rest day: it may be longer than the window shows (365+ days).
   */
  reachesWindowStart: boolean;
}

/**
 * The published writings at /feed.json as a JSON Feed 1.1 (https://jsonfeed.org/version/1.1), newest first: the members this site writes, each as the JSON Feed specification defines it. /feed.atom carries the same entries as Atom (RFC 4287).
 */
export interface JsonFeed {
  /**
   * The JSON Feed version.
   */
  version: 'https://jsonfeed.org/version/1.1';
  /**
   * The feed's name.
   */
  title: string;
  /**
   * Absolute URL of the writings page (HTML).
   */
  home_page_url: string;
  /**
   * Absolute URL of this feed.
   */
  feed_url: string;
  /**
   * What the writings are about.
   */
  description: string;
  /**
   * The writings' language (RFC 5646 tag).
   */
  language: string;
  /**
   * The author of every item.
   *
   * @minItems 1
   */
  authors: {
    /**
     * The author's name.
     */
    name: string;
    /**
     * The author's home page.
     */
    url: string;
  }[];
  /**
   * One item per published writing, newest first; drafts are never published.
   */
  items: {
    /**
     * Stable identifier: the writing's absolute URL. Its last path segment is the writing's slug.
     */
    id: string;
    /**
     * Absolute URL of the writing's page (HTML).
     */
    url: string;
    /**
     * The writing's title.
     */
    title: string;
    /**
     * One sentence.
     */
    summary: string;
    /**
     * Midnight of the writing's date in the site's calendar zone (CALENDAR_TIME_ZONE, America/Toronto unless set), RFC 3339 with its offset.
     */
    date_published: string;
    /**
     * The body as HTML, without its title.
     */
    content_html: string;
    /**
     * The same body as plain text: paragraphs, headings and list items one line each (lists marked • or 1., a nested list two spaces in), code lines indented by four spaces, blocks separated by a blank line, links as `text <url>`.
     */
    content_text: string;
  }[];
}

/**
 * Market preview of MON-USD: seven days of hourly candle closes plus the latest ticker. Not financial advice.
 */
export interface MarketData {
  /**
   * Always MON-USD.
   */
  product: 'MON-USD';
  /**
   * Always USD.
   */
  currency: 'USD';
  /**
   * Fixed name of the market-data provider.
   */
  source: string;
  /**
   * Always 604800 (seven days in seconds).
   */
  windowSeconds: 604800;
  /**
   * Hourly candle closes for the window in chronological order, followed by the current ticker point when that point is newer: at most the 169 hours the window holds plus the ticker point.
   *
   * @minItems 2
   * @maxItems 170
   */
  points: MarketPoint[];
  /**
   * Latest value in USD (the ticker price).
   */
  value: number;
  /**
   * Percentage change from the first historical point of the seven-day window, unrounded.
   */
  changePercent: number;
  /**
   * Lowest value across the returned window and the current ticker.
   */
  low: number;
  /**
   * Highest value across the returned window and the current ticker.
   */
  high: number;
  /**
   * Timestamp supplied by the provider for the latest ticker value.
   */
  asOf: string;
}

/**
 * One value of the market series.
 */
export interface MarketPoint {
  /**
   * Unix time in seconds.
   */
  time: number;
  /**
   * Value in USD at that time.
   */
  value: number;
}

/**
 * RFC 9457 problem details, served as application/problem+json.
 */
export interface ProblemDetails {
  /**
   * Stable identifier: a fragment of the developer page.
   */
  type: string;
  /**
   * Short title.
   */
  title: string;
  /**
   * HTTP status code.
   */
  status: number;
  /**
   * Explanation of this occurrence.
   */
  detail: string;
  /**
   * Stable machine code.
   */
  code: string;
  /**
   * What the client should do.
   */
  resolution: string;
  /**
   * Optional; kept for compatibility with older callers.
   */
  error?: string;
}

/**
 * The site owner's profile at /profile.json: the facts of the home page as data, for the command-line tool and any other reader.
 */
export interface Profile {
  /**
   * Absolute URL of the profile page (the home page, HTML).
   */
  url: string;
  /**
   * The person.
   */
  name: string;
  /**
   * One-line description.
   */
  tagline: string;
  /**
   * Where they are.
   */
  location: string;
  /**
   * Absolute URL of their GitHub profile.
   */
  github: string;
  /**
   * The home page's description.
   */
  description: string;
  /**
   * The About section as plain-text paragraphs; a link reads `text <url>`.
   */
  about: string[];
  /**
   * The role the home page shows under the name: the résumé's current position ("Position at Company"), else its basics.label; absent without a résumé.
   */
  role?: string;
  /**
   * The owner's own projects the home page lists after the GitHub ones (site/projects.yaml), in its order.
   *
   * @maxItems 100
   */
  ownerProjects?: {
    /**
     * The project.
     */
    title: string;
    /**
     * Absolute https URL.
     */
    url: string;
    /**
     * One sentence, or null.
     */
    description: string | null;
  }[];
  /**
   * The Links section, GitHub first.
   */
  links: {
    /**
     * What the link is.
     */
    label: string;
    /**
     * Absolute URL.
     */
    url: string;
  }[];
}

/**
 * The skills at /skills.json, by group, as the skills page lists them.
 */
export interface Skills {
  /**
   * Absolute URL of the skills page (HTML).
   */
  url: string;
  /**
   * The groups, in the page's order.
   */
  groups: {
    /**
     * The group's heading.
     */
    name: string;
    skills: {
      /**
       * The skill.
       */
      name: string;
      /**
       * A short note; absent when there is none.
       */
      note?: string;
    }[];
  }[];
}

/**
 * GET /status.json: when the site was built, each dataset's state at that build (fresh, reused from the previous site with its age, or missing with the failure's reason) and when the Publish workflow's schedule runs next. Written by the build, so it is true at builtAt: a reader compares validUntil and nextRunAt with its own clock to tell that publishing stopped.
 */
export interface Status {
  /**
   * The build's time (SOURCE_DATE_EPOCH when set).
   */
  builtAt: string;
  /**
   * true when a demo build (DEMO_SIMULATED=1) wrote the site: every snapshot beside this file holds simulated data, never a real upstream's. A build reads it back before it republishes a previous snapshot: a real build never republishes a simulated one, nor a simulated build a real one.
   */
  simulated: boolean;
  /**
   * The next run of the Publish workflow's schedule after builtAt; null when the site has no such workflow, or is a demo build (which no workflow publishes). Later than this plus an hour, the site has stopped refreshing.
   */
  nextRunAt: string | null;
  /**
   * Every dataset of the deployment, in the order the documents list them.
   */
  datasets: {
    /**
     * The dataset's id.
     */
    id: string;
    /**
     * Its title.
     */
    title: string;
    /**
     * Its v1 path (not for missing: nothing is published there).
     */
    path?: string;
    /**
     * fresh: fetched by this build; reused: its upstream failed and the previous site's snapshot, still valid, was republished; missing: its upstream failed and nothing stood in (its path is not published, its cards say unavailable).
     */
    state: 'fresh' | 'reused' | 'missing';
    /**
     * When its data were read, at the earliest (not for missing).
     */
    asOf?: string;
    /**
     * When its snapshot stops being valid: the calendar's nextRefreshAt, the market's asOf plus 3 hours (not for missing).
     */
    validUntil?: string;
    /**
     * How old its data were at builtAt, at most (not for missing).
     */
    ageSeconds?: number;
    /**
     * ageSeconds in words: "40 min", "12 days".
     */
    age?: string;
    /**
     * missing only: why its upstream gave no usable data, in one line.
     */
    reason?: string;
    /**
     * missing only, when known: the as-of time of the last snapshot published.
     */
    lastAvailableAt?: string;
  }[];
}

/**
 * GET /status-badge.json: the state of the site's data in the shields.io endpoint-badge form (https://shields.io/badges/endpoint-badge), for a README: `https://img.shields.io/endpoint?url=` followed by this file's URL. Written at build time, so its message names the build's date.
 */
export interface StatusBadge {
  /**
   * shields.io's endpoint schema version: always 1.
   */
  schemaVersion: 1;
  /**
   * The badge's left text.
   */
  label: 'data';
  /**
   * "fresh on" and the build's date when every dataset was fetched by the build; the age of the oldest republished one and "old"; the missing datasets and "unavailable".
   */
  message: string;
  /**
   * fresh, reused, missing.
   */
  color: 'brightgreen' | 'yellow' | 'red';
}
