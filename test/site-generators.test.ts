import { serviceTables, datasets } from '../builders/datasets/registry.ts';
// The site generators as pure functions: renderSite with a constructed BuildContext, the charts, the
// content parser, the twin format and the static-host rules, without a build or a network.
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../builders/lib/config.ts';
import type { GitHubContributions } from '../builders/domain/contributions.ts';
import type { MarketData } from '../builders/domain/market.ts';
import { createValidator } from '../builders/contract/schemas.ts';
import type { BuildContext } from '../builders/build/artifact.ts';
import { DEFAULT_LOOK } from '../builders/render/themes.ts';
import { HEATMAP, heatmapLayout, renderHeatmap, weekday } from '../builders/render/charts/heatmap.ts';
import { SPARKLINE, sparklinePath } from '../builders/render/charts/sparkline.ts';
import { formatFixed, formatValue, htmlDateTime, valueDecimals } from '../builders/render/format.ts';
import { ContentError, parseWriting, sortWritings } from '../builders/build/content/site-content.ts';
import { nestHeadings } from '../builders/build/pages/developers.ts';
import { renderMarkdown } from '../builders/build/content/markdown.ts';
import { frontMatter } from '../builders/build/content/twins.ts';
import { renderSite } from '../builders/build/render-site.ts';
import { keepPhrasesWhole } from '../builders/render/html.ts';

const NOW = Date.UTC(2026, 10, 22, 15, 0, 0);

function market(): MarketData {
  const points = [0.03, 0.031, 0.029, 0.0305].map((value, i) => ({ time: 1_794_700_000 + i * 3600, value }));
  return {
    product: 'MON-USD',
    currency: 'USD',
    source: 'Coinbase Exchange',
    windowSeconds: 604800,
    points,
    value: 0.0305,
    changePercent: ((0.0305 - 0.03) / 0.03) * 100,
    low: 0.029,
    high: 0.031,
    asOf: '2026-11-22T14:03:07.512345Z',
  };
}

function calendar(): GitHubContributions {
  const start = Date.UTC(2025, 10, 23);
  const days = Array.from({ length: 365 }, (_, i) => {
    const date = new Date(start + i * 86_400_000).toISOString().slice(0, 10);
    return { date, count: i % 5, level: i % 5 };
  });
  return {
    username: 'octocat',
    totalContributions: days.reduce((s, d) => s + d.count, 0),
    startDate: days[0]!.date,
    endDate: days[364]!.date,
    days,
    timeZone: 'America/Toronto',
    nextRefreshAt: '2026-11-23T00:00:00.000-05:00',
  };
}

function context(overrides: Partial<BuildContext> = {}, env: Record<string, string> = {}): BuildContext {
  return {
    config: loadConfig(env),
    service: serviceTables(loadConfig(env)),
    nowMs: NOW,
    datasets: datasets(loadConfig(env)),
    payloads: new Map<string, unknown>([
      ['market', market()],
      ['contributions', calendar()],
    ]),
    validator: createValidator(),
    simulated: false,
    look: DEFAULT_LOOK,
    ...overrides,
  };
}

const byFile = async (ctx: BuildContext) => new Map((await renderSite(ctx)).map((a) => [a.file, String(a.body)]));

describe('renderSite', () => {
  it('prefixes page links with the base path of SITE_URL and makes every absolute link from it', async () => {
    const files = await byFile(context({}, { SITE_URL: 'https://example.org/~ada/' }));
    const home = files.get('index.html')!;
    expect(home).toContain('<a href="/~ada/writings">Writings</a>');
    expect(home).toContain('<link rel="stylesheet" href="/~ada/assets/site.css">');
    expect(home).toContain('data-source="/~ada/api/v1/mon-price"');
    expect(home).toContain('<link rel="canonical" href="https://example.org/~ada/">');
    expect(files.get('sitemap.xml')).toContain('<loc>https://example.org/~ada/writings</loc>');
    expect(JSON.parse(files.get('openapi.json')!).servers[0].url).toBe('https://example.org/~ada');
    expect(files.get('llms.txt')).toContain('(https://example.org/~ada/developers.md)');
  });

  it('returns the same files for the same inputs (reproducible builds)', async () => {
    const a = await renderSite(context());
    const b = await renderSite(context());
    expect(b.map((x) => [x.file, String(x.body)])).toEqual(a.map((x) => [x.file, String(x.body)]));
  });

  it('draws nothing for a null snapshot: both figures say unavailable', async () => {
    const home = (await byFile(context({ payloads: new Map() }))).get('index.html')!;
    expect(home).toContain('data-unavailable="market"');
    expect(home).toContain('data-unavailable="contributions"');
    expect(home).not.toMatch(/<svg class="(sparkline|heatmap)/);
    expect(home).toMatch(/financial advice/);
  });

  it('stops on an /api index that does not validate against its schema', async () => {
    const ctx = context({
      validator: {
        validate: (name) => {
          if (name === 'ApiIndex') throw new Error('ApiIndex does not validate');
        },
      },
    });
    await expect(renderSite(ctx)).rejects.toThrow(/ApiIndex/);
  });
});

describe('phrases kept whole on a line (builders/render/html.ts keepPhrasesWhole)', () => {
  const textOf = (html: string) => html.replace(/<[^>]*>/g, '');
  it('wraps dates, times and "as of" in span.nowrap, in text only, the text unchanged', () => {
    const html =
      '<p class="note">Valid until 2026-11-24 05:00 UTC, as of 2026-11-23; an alias of v1 since 2025-06-18.</p>';
    const kept = keepPhrasesWhole(html);
    expect(kept).toBe(
      '<p class="note">Valid until <span class="nowrap">2026-11-24 05:00 UTC</span>, <span class="nowrap">as of 2026-11-23</span>; an alias of v1 since <span class="nowrap">2025-06-18</span>.</p>',
    );
    expect(textOf(kept)).toBe(textOf(html));
  });

  it('leaves tags, attributes, code, preformatted text, time elements and SVG as they are', () => {
    const html =
      '<a href="/w/2026-11-23" title="as of 2026-11-23">x</a><code>2026-11-23</code>' +
      '<pre>curl -H "Version: 2025-06-18"\n</pre><time datetime="2026-11-23">2026-11-23</time>' +
      '<svg><text>2026-11-23</text></svg><!-- 2026-11-23 -->';
    expect(keepPhrasesWhole(html)).toBe(html);
    expect(keepPhrasesWhole(`${html} 2026-11-23`)).toBe(`${html} <span class="nowrap">2026-11-23</span>`);
  });
});

describe('charts', () => {
  it('scales the sparkline: low at the bottom, high at the top, first and last time at the edges', () => {
    const m = market();
    const pairs = [...sparklinePath(m.points, m.low, m.high).matchAll(/[ML]([\d.]+) ([\d.]+)/g)].map(
      (p) => [Number(p[1]), Number(p[2])] as const,
    );
    const { width, height, pad } = SPARKLINE;
    expect(pairs).toHaveLength(m.points.length);
    expect(pairs[0]![0]).toBe(pad);
    expect(pairs.at(-1)![0]).toBe(width - pad);
    const ys = pairs.map((p) => p[1]);
    expect(Math.min(...ys)).toBe(pad); // 0.031, the high
    expect(Math.max(...ys)).toBe(height - pad); // 0.029, the low
  });

  it('draws a flat series as a middle line instead of dividing by zero', () => {
    const path = sparklinePath(
      [
        { time: 1, value: 2 },
        { time: 2, value: 2 },
      ],
      2,
      2,
    );
    expect(path).toBe(
      `M${SPARKLINE.pad} ${SPARKLINE.height / 2} L${SPARKLINE.width - SPARKLINE.pad} ${SPARKLINE.height / 2}`,
    );
  });

  it('lays the heatmap out in Sunday-first week columns, one rect per day with its count', () => {
    const c = calendar();
    const svg = renderHeatmap(c.days, 'label');
    const rects = [...svg.matchAll(/<rect x="(\d+)" y="(\d+)"[^>]*data-date="([\d-]+)" data-count="(\d+)"/g)];
    expect(rects).toHaveLength(365);
    expect(weekday('2025-11-23')).toBe(0); // a Sunday: the first column starts full
    expect(rects[0]![2]).toBe(String(HEATMAP.top));
    const step = HEATMAP.cell + HEATMAP.gap;
    expect(rects[7]![1]).toBe(String(HEATMAP.left + step)); // the next Sunday opens the second column
    expect(rects.map((r) => Number(r[4]))).toEqual(c.days.map((d) => d.count));
  });

  it('wraps the weeks into two bands for a phone: half the width, every day once, months labelled in each band', () => {
    const c = calendar();
    const one = heatmapLayout(c.days, 1);
    const two = heatmapLayout(c.days, 2);
    expect(two.cells.map((x) => x.day.date)).toEqual(c.days.map((d) => d.date));
    expect(two.width).toBeLessThan(one.width * 0.55);
    // month labels sit at x > 0 (weekday labels at x = 0); those of the second band below the first band
    const secondBand = two.labels.filter((l) => l.x > 0 && l.y > HEATMAP.top);
    expect(secondBand.length).toBeGreaterThan(0);
    expect(new Set(two.cells.map((x) => `${x.x},${x.y}`)).size).toBe(365);
  });

  it('prints USD values exactly, all with one number of decimals', () => {
    const decimals = valueDecimals([0.030113, 0.02991, 0.031]);
    expect(decimals).toBe(6);
    expect([0.030113, 0.02991, 0.031].map((v) => formatFixed(v, decimals))).toEqual([
      '0.030113',
      '0.029910',
      '0.031000',
    ]);
    expect(htmlDateTime('2026-11-22T14:03:07.512345Z')).toBe('2026-11-22T14:03:07.512Z');
  });

  it('keeps full decimal precision of USD values', () => {
    expect(formatValue(0.030113)).toBe('0.030113');
    expect(formatValue(1e-7)).toBe('0.0000001');
  });
});

describe('content and Markdown', () => {
  it('drops a draft and rejects a malformed date', () => {
    expect(
      parseWriting('---\ntitle: T\ndate: 2026-01-01\nsummary: S\ndraft: true\n---\nbody', 'writings/x.md'),
    ).toBeNull();
    expect(() => parseWriting('---\ntitle: T\ndate: January\nsummary: S\n---\nbody', 'writings/x.md')).toThrow(
      ContentError,
    );
    const a = parseWriting('---\ntitle: A\ndate: 2026-01-01\nsummary: S\n---\nbody', 'writings/a.md')!;
    const b = parseWriting('---\ntitle: B\ndate: 2026-02-01\nsummary: S\n---\nbody', 'writings/b.md')!;
    expect(sortWritings([a, b]).map((w) => w.slug)).toEqual(['b', 'a']);
  });

  it('writes twin front matter as one-line key: value pairs', () => {
    expect(frontMatter({ title: 'A: b', description: 'two\nlines', url: 'https://x/' })).toBe(
      '---\ntitle: A: b\ndescription: two lines\nurl: https://x/\n---\n',
    );
  });

  it('gives a heading that opens with <a id> that id, and other headings slugs', () => {
    const html = renderMarkdown(
      '## Quota and rate-limit headers\n\n### <a id="rate-limit-exceeded"></a>Rate limit exceeded\n',
    );
    expect(html).toContain('<h2 id="quota-and-rate-limit-headers">Quota and rate-limit headers</h2>');
    expect(html).toContain('<h3 id="rate-limit-exceeded">Rate limit exceeded</h3>');
  });

  it('nests the CLI reference headings under the CLI section, leaving code blocks alone', () => {
    expect(nestHeadings('# CLI\n\n```sh\n# comment\n```\n\n## Commands', 3)).toBe(
      '### CLI\n\n```sh\n# comment\n```\n\n#### Commands',
    );
  });
});
