// /status.json and /status-badge.json (docs/api.md#status): the build's time, each dataset's state with
// its age, the next run of the Publish workflow's schedule, the shields.io badge form; both valid against
// their schemas and listed in every discovery document but the sitemap.
import { describe, expect, it } from 'vitest';
import type { Status, StatusBadge } from '../builders/contract/payload-types.ts';
import { createValidator } from '../builders/contract/schemas.ts';
import { DISCOVERY } from '../builders/contract/service.ts';
import { DEFAULT_SERVICE, datasets } from '../builders/datasets/registry.ts';
import { PROJECTS_REUSE_MAX_MS } from '../builders/datasets/projects/rule.ts';
import { DEFAULT_SERVICE_OPTIONS } from '../builders/datasets/registry.ts';
import { nextRunMs, publishSchedule, statusBadge, statusDocument } from '../builders/build/discovery/status.ts';
import type { DatasetOutcome } from '../builders/build/artifact.ts';
import { PUBLISH_WORKFLOW } from '../builders/build/render-site.ts';
import { sharedSite, TEST_SITE_CLOCK, TEST_SITE_URL } from './helpers/site-dist.ts';

const validator = createValidator();

describe('the shared build', () => {
  it('status.json names every dataset, fresh, with its age, validity and the next scheduled run', async () => {
    const status = await sharedSite().json<Status>(DISCOVERY.status.file);
    validator.validate('Status', status);
    expect(status.builtAt).toBe(new Date(TEST_SITE_CLOCK).toISOString());
    // a real build's data: a later build may republish them as real (test/simulated-previous.test.ts)
    expect(status.simulated).toBe(false);
    // built at 15:00 UTC: the hourly run at minute 17 is next
    expect(status.nextRunAt).toBe('2026-11-23T15:17:00.000Z');
    expect(status.datasets.map((d) => [d.id, d.path, d.state])).toEqual(
      DEFAULT_SERVICE.resources.map((r) => [r.id, r.v1.path, 'fresh']),
    );
    const calendar = status.datasets.find((d) => d.id === 'contributions')!;
    // 10:00 in Toronto: the day began ten hours earlier, and ends at the zone's midnight
    expect(calendar).toMatchObject({ ageSeconds: 10 * 3600, age: '10 h', validUntil: '2026-11-24T05:00:00.000Z' });
    const market = status.datasets.find((d) => d.id === 'market')!;
    expect(Date.parse(market.validUntil!) - Date.parse(market.asOf!)).toBe(3 * 3_600_000);
    expect(market.ageSeconds).toBeLessThan(3600);
    // the projects are current for their own --previous bound, as the page and the CLI say
    const projects = status.datasets.find((d) => d.id === 'projects')!;
    expect(Date.parse(projects.validUntil!) - Date.parse(projects.asOf!)).toBe(PROJECTS_REUSE_MAX_MS);
  });

  it('status-badge.json is a shields.io endpoint badge saying fresh on the build date', async () => {
    const badge = await sharedSite().json<StatusBadge>(DISCOVERY.statusBadge.file);
    validator.validate('StatusBadge', badge);
    expect(badge).toEqual({ schemaVersion: 1, label: 'data', message: 'fresh on 2026-11-23', color: 'brightgreen' });
  });

  it('is listed by the API index, the API catalog, llms.txt and the developer page, not by the sitemap', async () => {
    const site = sharedSite();
    const status = `${TEST_SITE_URL}${DISCOVERY.status.path}`;
    const badge = `${TEST_SITE_URL}${DISCOVERY.statusBadge.path}`;
    expect(await site.json('api/index.json')).toMatchObject({ status, statusBadge: badge });
    const catalog = await site.json<{ linkset: Array<{ status?: Array<{ href: string }> }> }>(
      DISCOVERY.apiCatalog.file,
    );
    expect(catalog.linkset.filter((l) => l.status?.[0]?.href === status).length).toBeGreaterThan(0);
    for (const file of [DISCOVERY.llms.file, DISCOVERY.llmsFull.file, 'developers.md']) {
      const text = await site.read(file);
      expect(text, file).toContain(status);
      expect(text, file).toContain(badge);
    }
    expect(await site.read('developers.html')).toContain(`href="${status}"`);
    expect(await site.read(DISCOVERY.sitemap.file)).not.toContain('status');
  });
});

describe('the status rules', () => {
  const ctx = (outcomes: Map<string, DatasetOutcome>, payloads: Map<string, unknown>) => ({
    nowMs: Date.parse('2026-11-23T15:00:00Z'),
    datasets: datasets(DEFAULT_SERVICE_OPTIONS),
    payloads,
    outcomes,
    simulated: false,
  });
  const market = { asOf: '2026-11-23T13:00:00Z' };
  /** Every registered dataset fresh, with the shared build's payload, but for `changed`. */
  const everyFresh = async (changed: Record<string, { outcome: DatasetOutcome; payload?: unknown }>) => {
    const registered = datasets(DEFAULT_SERVICE_OPTIONS);
    const payloads = new Map<string, unknown>();
    for (const { resource } of registered) {
      const payload =
        resource.id in changed ? changed[resource.id]!.payload : await sharedSite().json(resource.snapshotFiles[0]!);
      if (payload !== undefined) payloads.set(resource.id, payload);
    }
    const outcomes = new Map<string, DatasetOutcome>(
      registered.map(({ resource }) => [resource.id, changed[resource.id]?.outcome ?? { state: 'fresh' }]),
    );
    return ctx(outcomes, payloads);
  };

  it('reused: its age; missing: its reason and when last available; the badge says the worst', async () => {
    const status = statusDocument(
      await everyFresh({ market: { outcome: { state: 'reused', ageMs: 2 * 3_600_000 }, payload: market } }),
      [],
    );
    expect(status.nextRunAt).toBeNull();
    expect(status.datasets[0]).toMatchObject({ id: 'market', state: 'reused', ageSeconds: 7200, age: '2 h' });
    expect(statusBadge(status)).toEqual({ schemaVersion: 1, label: 'data', message: '2 h old', color: 'yellow' });

    const missing = statusDocument(
      await everyFresh({
        market: {
          outcome: { state: 'missing', reason: 'coinbase: HTTP 503', lastAvailableMs: Date.parse(market.asOf) },
        },
      }),
      [],
    );
    expect(missing.datasets[0]).toEqual({
      id: 'market',
      title: 'Market preview',
      state: 'missing',
      reason: 'coinbase: HTTP 503',
      lastAvailableAt: '2026-11-23T13:00:00.000Z',
    });
    validator.validate('Status', missing);
    expect(statusBadge(missing)).toMatchObject({ message: 'market preview unavailable', color: 'red' });
  });

  it('the next run: the first minute a schedule line names, in its own zone (UTC without one), within two days', () => {
    const schedule = publishSchedule(PUBLISH_WORKFLOW);
    expect(schedule).toEqual([
      { cron: '17 * * * *', timeZone: 'UTC' },
      { cron: '7 0 * * *', timeZone: 'America/Toronto' },
    ]);
    const at = (iso: string) => new Date(nextRunMs(schedule, Date.parse(iso))!).toISOString();
    expect(at('2026-11-23T15:17:00Z')).toBe('2026-11-23T16:17:00.000Z');
    // Toronto midnight: 05:07 UTC in winter (EST), 04:07 UTC in summer (EDT).
    expect(at('2026-11-23T04:30:00Z')).toBe('2026-11-23T05:07:00.000Z');
    expect(at('2026-07-01T03:59:59Z')).toBe('2026-07-01T04:07:00.000Z');
    expect(at('2026-07-01T04:30:00Z')).toBe('2026-07-01T05:17:00.000Z');
    // A zone a half hour off UTC: its midnight is not on a UTC hour.
    expect(
      new Date(
        nextRunMs([{ cron: '7 0 * * *', timeZone: 'Asia/Kolkata' }], Date.parse('2026-07-01T12:00:00Z'))!,
      ).toISOString(),
    ).toBe('2026-07-01T18:37:00.000Z');
    expect(nextRunMs(['0 0 1 * *'], 0)).toBeNull();
    expect(nextRunMs([], 0)).toBeNull();
  });
});
