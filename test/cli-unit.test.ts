import { DEFAULT_SERVICE } from '../builders/datasets/registry.ts';
// The CLI's pure parts, without a process or a socket: arguments, the content documents (the writings'
// feed, plain text for a terminal), bounded JSON parsing, the API documents, wrapping and colour rules, error lines, what
// is left of a hostile site's text, and the reference the developer page embeds.
import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { describeApi, operationsFromIndex, parseCatalog } from '../builders/cli/api-docs.ts';
import { parseArgs, parseBaseUrl } from '../builders/cli/args.ts';
import { commandReference, commands, WRITING } from '../builders/cli/commands.ts';
import { UsageError } from '../builders/cli/errors.ts';
import { helpLines } from '../builders/cli/help.ts';
import { SiteError } from '../builders/cli/errors.ts';
import { documentUrl, errorLine, httpError, nextHop } from '../builders/cli/http.ts';
import { cliReferenceMarkdown } from '../builders/build/pages/cli-reference.ts';
import { jsonText, printable, printableValue } from '../builders/cli/safe-text.ts';
import {
  renderText,
  style,
  table,
  terminal,
  visibleLength,
  wantsColor,
  widthOf,
  WIDTH_RANGE,
  wrap,
} from '../builders/cli/terminal.ts';
import { renderPrice } from '../builders/datasets/market/picture.ts';
import type { MarketData } from '../builders/domain/market.ts';
import { formatDayLabel, formatTime, UNKNOWN_TIME } from '../builders/render/format.ts';
import { slugOf, writingOf, writingsOf, type JsonFeed } from '../builders/cli/content.ts';
import { UnexpectedBody } from '../builders/cli/errors.ts';
import { closest } from '../builders/cli/suggest.ts';
import { renderProfile } from '../builders/cli/render.ts';
import { jsonBoundExceeded, MAX_JSON_DEPTH, MAX_JSON_VALUES, parseJson } from '../builders/cli/json-body.ts';

const DEFAULT = 'https://ada.example';

describe('arguments', () => {
  it('reads a command, --json and --base-url in any order, with = or a separate value', () => {
    expect(parseArgs(['--json', 'skills', '--base-url=http://h:1/p'], DEFAULT)).toMatchObject({
      kind: 'command',
      command: 'skills',
      json: true,
      slug: null,
    });
    const inv = parseArgs(['writings', 'a-slug', '--base-url', 'http://h:1'], DEFAULT);
    expect(inv).toMatchObject({ command: 'writings', slug: 'a-slug', json: false });
    expect(inv.kind === 'command' && inv.baseUrl.href).toBe('http://h:1/');
    expect(parseArgs(['profile'], DEFAULT)).toMatchObject({ timeoutMs: 10_000 });
    expect(parseArgs(['profile', '--timeout', '0.25'], DEFAULT)).toMatchObject({ timeoutMs: 250 });
  });

  it('uses the baked-in default site', () => {
    const inv = parseArgs(['api'], DEFAULT);
    expect(inv.kind === 'command' && inv.baseUrl.href).toBe('https://ada.example/');
  });

  it('treats --help, -h and help as help, with --json as JSON', () => {
    expect(parseArgs(['--help'], DEFAULT)).toEqual({ kind: 'help', json: false, command: null });
    expect(parseArgs(['catalog', '-h'], DEFAULT)).toEqual({ kind: 'help', json: false, command: 'catalog' });
    expect(parseArgs(['help', '--json'], DEFAULT)).toEqual({ kind: 'help', json: true, command: null });
    expect(parseArgs(['help', 'price'], DEFAULT)).toEqual({ kind: 'help', json: false, command: 'price' });
  });

  it.each([
    [['nope'], /unknown command "nope"/],
    [['profile', '--jsn'], /unknown option "--jsn"/],
    [['profile', '-x'], /unknown option "-x"/],
    [['profile', '--json=1'], /option --json takes no value/],
    // "did you mean" for a near miss, never for a name far from every known one.
    [['prices'], /unknown command "prices"; did you mean "price"\?/],
    [['contribution', '--json'], /did you mean "contributions"\?/],
    [['help', 'strek'], /unknown command "strek"; did you mean "streak"\?/],
    [['price', '--bse-url', 'http://h'], /unknown option "--bse-url"; did you mean "--base-url"\?/],
    [['price', '--jsno'], /did you mean "--json"\?/],
    [['zzzzzz'], /^unknown command "zzzzzz"$/],
    [['price', '--colour'], /^unknown option "--colour"$/],
    [['profile', '--base-url'], /needs a value/],
    [['profile', '--base-url='], /needs a value/],
    [['profile', '--timeout', 'soon'], /--timeout "soon"/],
    [['profile', '--base-url', 'not a url'], /is not a URL/],
    [['skills', 'more'], /unexpected argument "more"/],
    [['writings', 'a', 'b'], /unexpected argument "b"/],
    [['writings', 'a/b'], /is not a writing slug/],
    [[], /missing command/],
    // Once spawned as programs by test/cli.test.ts, which now runs one row of this table.
    [['--base-url'], /option --base-url needs a value/],
    [['profile', '--base-url', '--json'], /option --base-url needs a value/],
    [['profile', '--base-url', 'ftp://example.test'], /must be an http or https URL/],
    [['profile', '--base-url', 'http://reader:hunter2@127.0.0.1:9'], /must not carry a user name or password/],
  ])('%j is a usage error', (argv, message) => {
    expect(() => parseArgs(argv, DEFAULT)).toThrow(UsageError);
    expect(() => parseArgs(argv, DEFAULT)).toThrow(message);
  });

  it('resolves documents under a path prefix, with or without its trailing slash', () => {
    for (const base of ['http://h/pre', 'http://h/pre/', 'http://h/pre?x=1#y']) {
      expect(documentUrl(parseBaseUrl(base), '/index.md')).toBe('http://h/pre/index.md');
      expect(documentUrl(parseBaseUrl(base), '.well-known/api-catalog')).toBe('http://h/pre/.well-known/api-catalog');
    }
    expect(documentUrl(parseBaseUrl('http://h'), 'api')).toBe('http://h/api');
  });
});

const feed = (items: Array<{ slug: string; date: string }>): JsonFeed => ({
  version: 'https://jsonfeed.org/version/1.1',
  title: 'W',
  home_page_url: 'https://a.example/writings',
  feed_url: 'https://a.example/feed.json',
  description: 'd',
  language: 'en',
  authors: [{ name: 'A', url: 'https://a.example/' }],
  items: items.map(({ slug, date }) => ({
    id: `https://a.example/writings/${slug}`,
    url: `https://a.example/writings/${slug}`,
    title: `Title of ${slug}`,
    summary: 'S.',
    date_published: `${date}T00:00:00-05:00`,
    content_html: '<p>Body.</p>',
    content_text: 'Body.',
  })),
});

describe('the writings feed', () => {
  it('lists the items in the feed order, the slug from the URL, the date as the writer dated it', () => {
    // Midnight in Toronto is 05:00 UTC: the date part of date_published is the writing's own date.
    expect(
      writingsOf(
        feed([
          { slug: 'b', date: '2026-03-14' },
          { slug: 'a', date: '2025-01-02' },
        ]),
      ),
    ).toEqual({
      url: 'https://a.example/writings',
      writings: [
        { slug: 'b', title: 'Title of b', date: '2026-03-14', summary: 'S.', url: 'https://a.example/writings/b' },
        { slug: 'a', title: 'Title of a', date: '2025-01-02', summary: 'S.', url: 'https://a.example/writings/a' },
      ],
    });
  });

  it('finds one writing by slug, with its text and HTML; an unknown slug is null', () => {
    const doc = feed([{ slug: 'static-plus-cron', date: '2026-03-14' }]);
    expect(writingOf(doc, 'static-plus-cron')).toMatchObject({
      slug: 'static-plus-cron',
      text: 'Body.',
      html: '<p>Body.</p>',
    });
    expect(writingOf(doc, 'static')).toBeNull();
  });

  it('takes the slug from the last path segment, decoded; a URL without one is unexpected', () => {
    expect(slugOf('https://a.example/prefix/writings/caf%C3%A9/')).toBe('café');
    expect(() => slugOf('https://a.example/')).toThrow(UnexpectedBody);
    expect(() => slugOf('not a url')).toThrow(UnexpectedBody);
    expect(() => slugOf('https://a.example/%E0%A4')).toThrow(UnexpectedBody);
  });
});

describe('JSON within a memory bound', () => {
  it('parses what the site publishes and refuses, unparsed, what nests too deep or holds too many values', () => {
    expect(parseJson('{"a":[1,{"b":"[[[[["}]}', 'x')).toEqual({ a: [1, { b: '[[[[[' }] });
    const deep = (n: number) => `${'['.repeat(n)}${']'.repeat(n)}`;
    expect(jsonBoundExceeded(deep(MAX_JSON_DEPTH))).toBeNull();
    expect(jsonBoundExceeded(deep(MAX_JSON_DEPTH + 1))).toBe(`it nests deeper than ${MAX_JSON_DEPTH} levels`);
    expect(jsonBoundExceeded(`[${'0,'.repeat(MAX_JSON_VALUES - 2)}0]`)).toBeNull();
    expect(jsonBoundExceeded(`[${'0,'.repeat(MAX_JSON_VALUES)}0]`)).toBe(
      `it holds more than ${MAX_JSON_VALUES} values`,
    );
    expect(() => parseJson(deep(1000), 'the feed')).toThrow('the feed is refused unparsed: it nests deeper than');
    expect(() => parseJson('{"a":', 'the feed')).toThrow('the feed is not JSON');
  });

  it('counts nothing inside strings, escaped quotes included', () => {
    expect(jsonBoundExceeded(JSON.stringify({ s: `\\"${'[{,'.repeat(MAX_JSON_VALUES)}` }))).toBeNull();
  });
});

describe('plain text for a terminal', () => {
  it('wraps paragraphs and list items under their marker, keeps code lines verbatim, marks quotes', () => {
    const text = [
      'A paragraph long enough to wrap at twenty.',
      '',
      '• one two three four five',
      '  • nested item here',
      '12. numbered item wraps too',
      '',
      '    const  x = 1;',
      '',
      '> a quoted line',
    ].join('\n');
    expect(renderText({ color: false, width: 20 }, text)).toEqual([
      'A paragraph long',
      'enough to wrap at',
      'twenty.',
      '',
      '• one two three four',
      '  five',
      '  • nested item here',
      '12. numbered item',
      '    wraps too',
      '',
      '    const  x = 1;',
      '',
      '│ a quoted line',
    ]);
  });
});

describe('API documents', () => {
  it('reads operations from OpenAPI, the rest from the index', () => {
    const api = describeApi(
      'https://a/api',
      { authentication: 'none', name: 'Idx' },
      {
        url: 'https://a/openapi.json',
        doc: {
          info: { title: 'T', version: '1.0.0' },
          paths: { '/api/v1/x': { get: { operationId: 'getX', summary: 'X' }, parameters: [] } },
        },
      },
    );
    expect(api).toMatchObject({
      title: 'T',
      version: '1.0.0',
      authentication: 'none',
      openapi: 'https://a/openapi.json',
      operations: [{ method: 'GET', path: '/api/v1/x', operationId: 'getX', summary: 'X' }],
    });
  });

  it('without the contract, finds the /api/ routes the index names', () => {
    const ops = operationsFromIndex({
      routes: [{ path: '/api/v1/x', operationId: 'getX', title: 'X', alias: { url: 'https://a/api/x' } }],
      developers: 'https://a/developers',
    });
    expect(ops.map((o) => o.path)).toEqual(['/api/v1/x', '/api/x']);
  });

  it('reads an RFC 9264 linkset and rejects anything else', () => {
    const catalog = parseCatalog('u', {
      linkset: [
        {
          anchor: 'https://a/api',
          item: [{ href: 'https://a/api/v1/x', type: 'application/json' }],
          'service-doc': [{ href: 'https://a/developers', title: 'Docs' }],
        },
      ],
    });
    expect(catalog.linkset[0]!.links).toEqual([
      { rel: 'item', href: 'https://a/api/v1/x', type: 'application/json', title: null },
      { rel: 'service-doc', href: 'https://a/developers', type: null, title: 'Docs' },
    ]);
    expect(() => parseCatalog('u', { links: [] })).toThrow(/linkset/);
    expect(() => parseCatalog('u', { linkset: [{ item: [] }] })).toThrow(/anchor/);
  });
});

describe('redirects', () => {
  it('are followed within the origin and from http to https on the same host', () => {
    expect(nextHop('http://site.test/prefix/index.md', '/prefix/moved.md')).toBe('http://site.test/prefix/moved.md');
    expect(nextHop('http://site.test/index.md', 'moved.md')).toBe('http://site.test/moved.md');
    expect(nextHop('http://site.test/index.md', 'https://site.test/index.md')).toBe('https://site.test/index.md');
  });

  it.each([
    ['https://site.test/index.md', 'http://site.test/index.md', 'http://site.test'], // a downgrade
    ['http://site.test/index.md', 'http://evil.test/index.md', 'http://evil.test'],
    ['http://site.test/index.md', 'https://site.test:8443/index.md', 'https://site.test:8443'], // another port is another origin
    ['http://site.test/index.md', 'http://169.254.169.254/latest/meta-data/', 'http://169.254.169.254'],
    ['http://site.test/index.md', 'file:///etc/passwd', 'file:'],
  ])('from %s to %s is refused, naming %s', (from, to, origin) => {
    expect(() => nextHop(from, to)).toThrow(SiteError);
    expect(() => nextHop(from, to)).toThrow(`redirected to another origin (${origin})`);
  });
});

describe('error lines', () => {
  it("quote an RFC 9457 problem's title and detail", () => {
    const body = JSON.stringify({
      type: 'https://a/developers#upstream-unavailable',
      title: 'Upstream data unavailable',
      status: 502,
      detail: 'No usable data.',
    });
    expect(httpError('https://a/api', 502, 'Bad Gateway', 'application/problem+json', body).message).toBe(
      'https://a/api answered 502: Upstream data unavailable: No usable data.',
    );
    expect(httpError('https://a/x.md', 404, 'Not Found', 'text/html', '<h1>404</h1>').message).toBe(
      'https://a/x.md answered 404 Not Found',
    );
  });

  it('stay on one line whatever the site sends', () => {
    expect(errorLine('a\nb\r\n\u001b[31mc\u001b]8;;https://evil.example\u0007d')).toBe('a b cd');
    expect(errorLine('x'.repeat(1000)).length).toBe(400);
  });
});

describe('terminal', () => {
  it('colours only a TTY, never with NO_COLOR set to a value (no-color.org)', () => {
    expect(wantsColor(true, {})).toBe(true);
    expect(wantsColor(false, {})).toBe(false);
    expect(wantsColor(undefined, {})).toBe(false);
    expect(wantsColor(true, { NO_COLOR: '1' })).toBe(false);
    expect(wantsColor(true, { TERM: 'dumb' })).toBe(false);
    expect(style({ color: false, width: 80 }, 'bold', 'x')).toBe('x');
    expect(style({ color: true, width: 80 }, 'bold', 'x')).toBe('\u001b[1mx\u001b[22m');
  });

  it('takes the width from the terminal, then COLUMNS, then 80', () => {
    expect(widthOf(120, { COLUMNS: '50' })).toBe(120);
    expect(widthOf(undefined, { COLUMNS: '50' })).toBe(50);
    expect(widthOf(undefined, { COLUMNS: 'wide' })).toBe(80);
    expect(widthOf(undefined, {})).toBe(80);
  });

  it('keeps the width within 20..400, however wide COLUMNS or the terminal says it is', () => {
    expect(WIDTH_RANGE).toEqual({ min: 20, max: 400 });
    expect(widthOf(undefined, { COLUMNS: '99999999' })).toBe(400);
    expect(widthOf(undefined, { COLUMNS: '1e9' })).toBe(400);
    expect(widthOf(100_000, {})).toBe(400);
    expect(widthOf(undefined, { COLUMNS: '3' })).toBe(20);
    expect(widthOf(undefined, { COLUMNS: '400' })).toBe(400);
  });

  it('draws the price for COLUMNS=1e9 within 400 columns', () => {
    const term = terminal(false, widthOf(undefined, { COLUMNS: '1e9' }));
    const lines = renderPrice(term, market([1_763_820_000, 1_763_823_600, 1_763_827_200]));
    expect(Math.max(...lines.map((l) => visibleLength(l)))).toBeLessThanOrEqual(400);
    expect(lines.join('\n')).toContain('Nov 22');
  });

  it('an invalid point time reads as unknown on the axis, never "undefined NaN"', () => {
    expect(UNKNOWN_TIME).toBe('?');
    expect(formatDayLabel(Number.NaN)).toBe('?');
    expect(formatDayLabel(1e20)).toBe('?');
    expect(formatTime(Number.NaN)).toBe('?');
    expect(formatDayLabel(1_763_820_000)).toBe('Nov 22');
    expect(formatTime(1_763_820_000)).toBe('2025-11-22 14:00 UTC');
    const text = renderPrice(terminal(false, 80), market([1e20, 1_763_823_600])).join('\n');
    expect(text).not.toMatch(/undefined|NaN/);
    expect(text).toMatch(/^ +\? +Nov 22$/m);
  });

  it('profile fits 80 columns with a 39-character account, a long name and a URL longer than a line', () => {
    const account = 'a-very-long-github-account-name-of-39ch';
    expect(account).toHaveLength(39);
    const lines = renderProfile(terminal(false, 80), {
      name: 'Alexandra Konstantinidou-Vanderberg-Ramaswamy y Castellanos',
      tagline: 'Software engineer',
      location: 'Toronto',
      github: `https://github.com/${account}`,
      url: 'https://ada.example.org/',
      about: ['A paragraph.'],
      links: [
        { label: 'Mastodon', url: `https://mastodon.example.social/@${account}/with/a/path/that/does/not/end/soon` },
      ],
    } as never);
    for (const line of lines) expect([...line].length, line).toBeLessThanOrEqual(80);
    expect(lines.join('\n')).toContain(`https://github.com/${account}`);
  });

  it('"did you mean" covers abbreviations: the one name a word starts like, never a coin toss', () => {
    const known = ['profile', 'writings', 'skills', 'api', 'catalog', 'price', 'contributions', 'streak', 'help'];
    expect(closest('contribs', known)).toBe('contributions');
    expect(closest('contrib', known)).toBe('contributions');
    expect(closest('prof', known)).toBe('profile');
    expect(closest('cat', known)).toBe('catalog');
    expect(closest('prices', known)).toBe('price');
    expect(closest('--jso', ['--json', '--help'])).toBe('--json');
    // too short, or two names start alike that far
    expect(closest('c', known)).toBeNull();
    expect(closest('st', known)).toBeNull();
    expect(closest('pr', known)).toBeNull();
    expect(closest('zzz', known)).toBeNull();
  });

  it('wraps words to the width; a URL that cannot wrap gets its own line, shortened in the middle with an ellipsis', () => {
    expect(wrap('aa bb cc dd', 5)).toEqual(['aa bb', 'cc dd']);
    expect(wrap('see https://example.com/a/very/long/path now', 20)).toEqual([
      'see',
      'https://ex\u2026long/path',
      'now',
    ]);
    expect(wrap('https://example.com/a/very/long/path', 40)).toEqual(['https://example.com/a/very/long/path']);
    for (const width of [10, 20, 21, 79, 80])
      for (const line of wrap(`a ${'x'.repeat(200)} b`, width)) expect([...line].length).toBeLessThanOrEqual(width);
  });

  it('aligns columns and wraps the last one under itself, escapes not counted', () => {
    const lines = table(
      [
        ['a', 'one two three four five six seven eight'],
        [style({ color: true, width: 0 }, 'bold', 'bbb'), 'x'],
      ],
      40,
    );
    expect(lines).toEqual(['  a    one two three four five six seven', '       eight', '  \u001b[1mbbb\u001b[22m  x']);
    expect(visibleLength(lines[2]!)).toBe(8);
    // too little room for the last column: it goes under the row, indented
    expect(table([['a-long-first-cell', 'one two three']], 30)).toEqual(['  a-long-first-cell', '      one two three']);
  });
});

describe('the reference on the developer page', () => {
  it('names every command, option, exit status and --json field', () => {
    for (const c of commandReference(DEFAULT_SERVICE)) {
      expect(cliReferenceMarkdown(DEFAULT_SERVICE)).toContain(`\`${c.synopsis}\``);
      for (const f of c.json) expect(cliReferenceMarkdown(DEFAULT_SERVICE)).toContain(`\`${f.name}\``);
    }
    for (const text of ['--json', '--base-url <url>', '--help', '| 0 |', '| 1 |', '| 2 |', 'NO_COLOR', 'npx'])
      expect(cliReferenceMarkdown(DEFAULT_SERVICE)).toContain(text);
  });
});

describe('the command list', () => {
  it('is every command once, with writings <slug> right after writings', () => {
    expect(commandReference(DEFAULT_SERVICE).map((c) => c.synopsis)).toEqual([
      'profile',
      'resume',
      'writings',
      'writings <slug>',
      'skills',
      'api',
      'catalog',
      // Then each dataset's command, in the registry's order.
      ...DEFAULT_SERVICE.resources.map((r) => r.command.name),
    ]);
    expect(commandReference(DEFAULT_SERVICE).filter((c) => c !== WRITING)).toEqual(commands(DEFAULT_SERVICE));
  });
});

describe('text from the site, before it reaches a terminal', () => {
  const ESC = '\u001b';
  const BEL = '\u0007';
  // Every C0 control but tab and line feed, DEL and every C1 control.
  const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/;

  it.each([
    ['CSI: clear the screen, move the cursor, colour', `a${ESC}[2J${ESC}[1;1H${ESC}[31mb${ESC}[0m`, 'ab'],
    ['CSI with private parameters and intermediates', `a${ESC}[?1049h${ESC}[4 qb`, 'ab'],
    [
      'OSC 8 hyperlink whose target is not its text',
      `${ESC}]8;;https://evil.example${BEL}https://good.example${ESC}]8;;${ESC}\\`,
      'https://good.example',
    ],
    ['OSC 52 clipboard write', `x${ESC}]52;c;cm0gLXJmIH4K${BEL}y`, 'xy'],
    ['OSC 0 window title ended by ST', `x${ESC}]0;pwned${ESC}\\y`, 'xy'],
    ['DCS and APC strings', `x${ESC}Pq#0;2;0;0;0${ESC}\\${ESC}_hidden${ESC}\\y`, 'xy'],
    ['8-bit C1 CSI and OSC', `x\u009b2J\u009d52;c;AAAA\u009cy`, 'xy'],
    ['two-byte escapes: reset, keypad, charset', `x${ESC}c${ESC}=${ESC}(0y`, 'xy'],
    ['BEL, backspace, carriage return, NUL, DEL', `ok${BEL}\b\rover\u0000\u007f!`, 'okover!'],
    ['an unterminated OSC ends at the line', `x${ESC}]52;c;AAAA\nnext line`, 'x\nnext line'],
  ])('strips %s', (_name, hostile, expected) => {
    expect(printable(hostile)).toBe(expected);
    expect(printable(hostile)).not.toMatch(CONTROL);
  });

  it('strips the invisible bidi and zero-width-space characters that make text read other than it is', () => {
    // "Trojan Source": RIGHT-TO-LEFT OVERRIDE shows "invoice\u202Efdp.exe" as "invoiceexe.pdf".
    expect(printable('invoice\u202Efdp.exe\u202C')).toBe('invoicefdp.exe');
    expect(printable('\u2067a\u2069 \u200Fb\u200E \u061Cc https://exa\u200Bmple.com')).toBe(
      'a b c https://example.com',
    );
    // The joiners stay: emoji sequences and scripts such as Persian need them.
    expect(printable('👩\u200D💻 می\u200Cخواهم')).toBe('👩\u200D💻 می\u200Cخواهم');
  });

  it('keeps text, line feeds, tabs and non-ASCII letters; CRLF becomes LF', () => {
    expect(printable('Café — ok\tdone\r\nnext ☃')).toBe('Café — ok\tdone\nnext ☃');
  });

  it('cleans every string of a parsed document, keys included, keeping its shape', () => {
    const doc = {
      name: `A${ESC}[2JB`,
      links: [{ label: `L${BEL}`, url: 'https://x.example' }],
      n: 1,
      none: null,
      [`k${ESC}[1m`]: true,
    };
    expect(printableValue(doc)).toEqual({
      name: 'AB',
      links: [{ label: 'L', url: 'https://x.example' }],
      n: 1,
      none: null,
      k: true,
    });
  });

  it('--json writes bidi controls, zero-width spaces and line separators as \\u escapes: the same value, safe on a terminal', () => {
    const value = { title: 'a\u202Eb\u2066c\u200Bd\u2028e\u061Cf', price: 1 };
    const text = jsonText(value);
    expect(text).toContain('a\\u202eb\\u2066c\\u200bd\\u2028e\\u061cf');
    expect(text).not.toMatch(/[\u061c\u200b\u200e\u200f\u202a-\u202e\u2066-\u2069\u2028\u2029]/);
    expect(JSON.parse(text)).toEqual(value);
  });

  it('--json keeps the exact strings, every control written as a \\u escape', () => {
    const value = { s: `a${ESC}[31m\u009b\u007f\u0085b\n` };
    const text = jsonText(value);
    expect(text).not.toMatch(CONTROL);
    expect(text).toContain('\\u009b');
    expect(JSON.parse(text)).toEqual(value);
  });
});

describe('the CLI reads JSON only', () => {
  it('no module of cli/ names a Markdown document, its media type or a Markdown parser', () => {
    const dir = new URL('../builders/cli/', import.meta.url);
    const found = readdirSync(dir)
      .filter((f) => f.endsWith('.ts'))
      .flatMap((f) =>
        readFileSync(new URL(f, dir), 'utf8')
          .split('\n')
          // Code only: a comment may cite the repository's guides (docs/*.md).
          .filter((line) => !/^\s*(\/\/|\*|\/\*)/.test(line))
          .filter((line) => /markdownFile|text\/markdown|\.md\b|from ['"](marked|yaml)['"]/.test(line))
          .map((line) => `${f}: ${line.trim()}`),
      );
    expect(found).toEqual([]);
  });
});

/** A market payload with these point times (values rising from 1 to 2). */
function market(times: number[]): MarketData {
  return {
    product: 'MON-USD',
    currency: 'USD',
    source: 'Fake Exchange',
    windowSeconds: 604800,
    points: times.map((time, i) => ({ time, value: 1 + i / Math.max(1, times.length - 1) })),
    value: 2,
    changePercent: 100,
    low: 1,
    high: 2,
    asOf: '2025-11-22T16:00:00Z',
  };
}

describe('help names one address for this machine', () => {
  it('names the default site as given and no other loopback spelling (its example is another site)', () => {
    for (const base of ['http://localhost:8080', 'http://127.0.0.1:8091']) {
      const text = helpLines(terminal(false, 80), base).join('\n');
      expect(text).toContain(`Default site: ${base}`);
      const other = base.includes('localhost') ? '127.0.0.1' : 'localhost';
      expect(text).not.toContain(other);
    }
  });
});
