// Dates the owner writes (docs/site.md#what-content-may-contain): a date of the right shape that names no day
// (2026-02-30, 2022-13) is the owner's mistake, exit 2 naming the file and the field, never an internal
// error; and the feeds date a writing at midnight of its date in CALENDAR_TIME_ZONE.
import { readFileSync } from 'node:fs';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { missingDate } from '../builders/build/content/calendar-date.ts';
import { parseResume, type Resume } from '../builders/build/content/resume.ts';
import { parseWriting } from '../builders/build/content/site-content.ts';
import { noCalls, startFakeUpstreams, type FakeUpstreams } from './fakes/upstreams.ts';
import { contentCopy } from './helpers/hostile-content.ts';
import { buildSite, FIXTURE_SITE, runBuildMain, type BuiltSite } from './helpers/site-dist.ts';
import { upstreamEnv } from './helpers/run.ts';

const FIXTURE_RESUME = JSON.parse(readFileSync(join(FIXTURE_SITE, 'resume.json'), 'utf8')) as Resume;
const resumeWith = (change: (r: Resume) => void): string => {
  const copy = structuredClone(FIXTURE_RESUME);
  change(copy);
  return JSON.stringify(copy);
};
const writing = (date: string) => `---\ntitle: T\ndate: ${date}\nsummary: S\n---\nBody.\n`;

describe('missingDate: a day of the Gregorian calendar', () => {
  it.each(['2026', '2026-02', '2026-02-28', '2028-02-29', '2000-02-29', '2026-12-31', '2026-04-30'])(
    '%s exists',
    (date) => expect(missingDate(date)).toBeNull(),
  );
  it.each([
    ['2026-02-30', 'February 2026 has 28 days, so there is no day 30'],
    ['2026-02-29', 'February 2026 has 28 days, so there is no day 29'],
    ['2100-02-29', 'February 2100 has 28 days, so there is no day 29'],
    ['2026-04-31', 'April 2026 has 30 days, so there is no day 31'],
    ['2026-01-00', 'January 2026 has 31 days, so there is no day 00'],
    ['2022-13', 'there is no month 13'],
    ['2022-00-10', 'there is no month 00'],
  ])('%s does not: %s', (date, why) => expect(missingDate(date)).toBe(why));
});

describe('a date that does not exist is the owner mistake, named', () => {
  it('a writing dated 2026-02-30', () => {
    expect(() => parseWriting(writing('2026-02-30'), 'writings/leap.md')).toThrow(
      'writings/leap.md: "date" "2026-02-30" is not a day of the calendar: February 2026 has 28 days, so there is no day 30; fix it',
    );
    expect(parseWriting(writing('2028-02-29'), 'writings/leap.md')?.date).toBe('2028-02-29');
  });

  it.each([
    ['/work/0/startDate', '2022-13', (r: Resume) => (r.work![0]!.startDate = '2022-13'), 'there is no month 13'],
    [
      '/education/0/endDate',
      '2015-02-30',
      (r: Resume) => (r.education![0]!.endDate = '2015-02-30'),
      'February 2015 has 28 days, so there is no day 30',
    ],
    [
      '/awards/0/date',
      '2019-04-31',
      (r: Resume) => (r.awards![0]!.date = '2019-04-31'),
      'April 2019 has 30 days, so there is no day 31',
    ],
  ])('resume.json %s %s', (pointer, value, change, why) => {
    expect(() => parseResume(resumeWith(change))).toThrow(
      `resume.json: ${pointer} "${value}": expected a day of the calendar: ${why} (JSON Resume schema)`,
    );
  });

  describe('through the build program: exit 2, one line naming the file and the field, nothing written', () => {
    let fake: FakeUpstreams;
    let base: string;
    beforeAll(async () => {
      fake = await startFakeUpstreams();
      base = await mkdtemp(join(tmpdir(), 'content-dates-'));
    });
    afterAll(async () => {
      await fake?.close();
      if (base) await rm(base, { recursive: true, force: true });
    });

    it.each([
      [
        'writings/midnight-in-toronto.md',
        writing('2026-02-30'),
        /writings\/midnight-in-toronto\.md: "date" "2026-02-30"/,
      ],
      [
        'resume.json',
        resumeWith((r) => (r.work![0]!.startDate = '2022-13')),
        /resume\.json: \/work\/0\/startDate "2022-13"/,
      ],
      [
        'resume.json',
        resumeWith((r) => (r.education![0]!.startDate = '2015-02-30')),
        /resume\.json: \/education\/0\/startDate "2015-02-30"/,
      ],
    ])('%s', async (file, text, line) => {
      const content = await contentCopy({ [file]: text });
      const out = join(base, `out-${Math.random().toString(36).slice(2)}`);
      fake.resetCalls();
      try {
        const result = await runBuildMain(['--out', out], upstreamEnv(fake.url), { content: content.dir });
        expect(result.code, result.stderr).toBe(2);
        const lines = result.stderr.trimEnd().split('\n');
        expect(lines).toHaveLength(1);
        expect(lines[0]).toMatch(/^build: the site's content needs a fix: /);
        expect(lines[0]).toMatch(line);
        expect(lines[0]).not.toMatch(/internal error/);
        expect(noCalls(fake.calls), JSON.stringify(fake.calls)).toBe(true);
        await expect(readdir(out)).rejects.toThrow(/ENOENT/);
      } finally {
        await content.close();
      }
    });
  });
});

describe('feed dates are midnight of the writing date in CALENDAR_TIME_ZONE', () => {
  let site: BuiltSite;
  beforeAll(async () => {
    site = await buildSite({ env: { CALENDAR_TIME_ZONE: 'Asia/Kolkata' } });
  }, 120_000);
  afterAll(() => site?.close());

  it('JSON Feed and Atom say +05:30 for a Kolkata site', async () => {
    expect(site.result.code, site.result.stderr).toBe(0);
    const feed = await site.json<{ items: Array<{ url: string; date_published: string }> }>('feed.json');
    const toronto = feed.items.find((i) => i.url.endsWith('/writings/midnight-in-toronto'));
    expect(toronto?.date_published).toBe('2026-05-02T00:00:00+05:30');
    expect(feed.items.every((i) => i.date_published.endsWith('T00:00:00+05:30'))).toBe(true);
    const atom = await site.read('feed.atom');
    expect(atom).toContain('<published>2026-05-02T00:00:00+05:30</published>');
    expect(atom).not.toMatch(/-0[45]:00</);
  });
});
