// What a build says of its data's age and of a missing dataset (issue 30), read from real builds against
// the fakes: the home page's figures carry their validity for the page script, and a dataset whose
// upstream failed with no previous snapshot is neither linked nor requested by the home page, while its
// cards say "unavailable" with no number.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MarketData } from '../builders/domain/market.ts';
import { DEFAULT_SERVICE } from '../builders/datasets/registry.ts';
import { DISCOVERY } from '../builders/contract/service.ts';
import type { Status } from '../builders/contract/payload-types.ts';
import { buildSite, sharedSite, type BuiltSite } from './helpers/site-dist.ts';
import { cardViolations } from './helpers/svg-card.ts';

const market = DEFAULT_SERVICE.resources.find((r) => r.schema === 'MarketData')!;
const calendar = DEFAULT_SERVICE.resources.find((r) => r.schema === 'GitHubContributions')!;

/** The home page's figure of `id`, as built. */
function figureOf(html: string, id: string): string {
  const match = new RegExp(`<figure [^>]*data-preview="${id}"[\\s\\S]*?</figure>`).exec(html);
  expect(match, id).not.toBeNull();
  return match![0];
}

describe('a normal build', () => {
  it('gives each figure its source and validity: the calendar until nextRefreshAt, the market 3 h after asOf', async () => {
    const site = sharedSite();
    const html = await site.read('index.html');
    const payload = await site.json<MarketData>(market.snapshotFiles[0]!);
    const figure = figureOf(html, 'market');
    expect(figure).toContain(`data-source="${market.v1.path}"`);
    expect(figure).toContain(`data-as-of="${new Date(payload.asOf).toISOString()}"`);
    expect(figure).toContain(`data-valid-until="${new Date(Date.parse(payload.asOf) + 3 * 3_600_000).toISOString()}"`);
    const days = await site.json<{ nextRefreshAt: string }>(calendar.snapshotFiles[0]!);
    expect(figureOf(html, 'contributions')).toContain(
      `data-valid-until="${new Date(days.nextRefreshAt).toISOString()}"`,
    );
  });
});

describe("a fresh build's home page", () => {
  it('says no age in hours or days: a fresh snapshot is not old, and a day is said as a day', async () => {
    const text = (await sharedSite().read('index.html')).replace(/<[^>]*>/g, ' ');
    expect(text).not.toMatch(/\d+ (h|days?) old/);
  });
});

describe('the market upstream down and no previous snapshot', () => {
  let site: BuiltSite;
  beforeAll(async () => {
    site = await buildSite({ setup: (fake) => void (fake.market.mode = 'down') });
  });
  afterAll(() => site?.close());

  it('exits 1 and writes no market snapshot', async () => {
    expect(site.result.code).toBe(1);
    const files = await site.files();
    for (const file of market.snapshotFiles) expect(files).not.toContain(file);
  });

  it('publishes both market cards saying unavailable, with no price', async () => {
    for (const card of DEFAULT_SERVICE.cards.filter((c) => c.resource === market.id)) {
      const svg = await site.read(card.file);
      expect(cardViolations(svg), card.file).toEqual([]);
      expect(svg).toContain('<title id="card-title">Market preview: unavailable</title>');
      expect(svg).toContain('No earlier data known to this build');
      // nothing to date: no snapshot time, no "as of"
      expect(svg).not.toMatch(/as of|snapshot/i);
      expect(svg).not.toMatch(/USD/);
      // no figure in its text but the build's time
      expect(svg.replace(/\d{4}-\d\d-\d\d \d\d:\d\d UTC/g, '')).not.toMatch(/>[^<]*\d[^<]*</);
    }
  });

  it('status.json says the market is missing and why, with no earlier data known; its badge is red', async () => {
    const status = await site.json<Status>(DISCOVERY.status.file);
    expect(status.datasets.find((d) => d.id === market.id)).toEqual({
      id: market.id,
      title: market.title,
      state: 'missing',
      reason: expect.stringMatching(/^coinbase: /) as unknown,
    });
    expect(status.datasets.find((d) => d.id === calendar.id)).toMatchObject({ state: 'fresh', age: '10 h' });
    expect(await site.json(DISCOVERY.statusBadge.file)).toMatchObject({
      message: 'market preview unavailable',
      color: 'red',
    });
  });

  it('the home page and its twin neither link the market JSON nor give the script a path to request', async () => {
    const pages = ['index.html', 'index.md', DISCOVERY.status.file, DISCOVERY.statusBadge.file];
    for (const file of [...pages, ...DEFAULT_SERVICE.cards.map((c) => c.file)])
      expect(await site.read(file), file).not.toContain(market.v1.path);
    const figure = figureOf(await site.read('index.html'), 'market');
    expect(figure).not.toContain('data-source');
    expect(figure).toContain('data-unavailable="market"');
    // it says unavailable and claims no snapshot: no snapshot time, no "as of"
    expect(figure).toContain('This build published no snapshot of it.');
    expect(figure.replace(/<[^>]*>/g, ' ')).not.toMatch(/Snapshot taken|as of|\d\d:\d\d/);
    // the calendar is still linked and refreshed
    expect(figureOf(await site.read('index.html'), 'contributions')).toContain(`data-source="${calendar.v1.path}"`);
  });
});
