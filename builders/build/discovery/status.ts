// /status.json and /status-badge.json (docs/api.md#status): when the site was built, whether its data are
// simulated (a demo's), each dataset's state at that build (fresh; reused from the previous site, with its
// age; missing, with the failure's reason and when its data were last available), and the next run of the
// Publish workflow's schedule;
// and the same in shields.io's endpoint-badge form (https://shields.io/badges/endpoint-badge). Both are
// true at the build's time: a reader compares `validUntil` and `nextRunAt` with its own clock, which is
// what the home page script and the CLI do with the payloads (builders/domain/freshness.ts).
import { readFileSync } from 'node:fs';
import { DateTime } from 'luxon';
import { parse as parseYaml } from 'yaml';
import type { Status, StatusBadge } from '../../contract/payload-types.ts';
import { freshness } from '../../domain/freshness.ts';
import { ageInWords } from '../../render/age.ts';
import type { BuildContext } from '../artifact.ts';

const iso = (ms: number) => new Date(ms).toISOString();

export function statusDocument(
  ctx: Pick<BuildContext, 'nowMs' | 'datasets' | 'payloads' | 'outcomes' | 'simulated'>,
  schedule: readonly ScheduleLine[],
): Status {
  const next = nextRunMs(schedule, ctx.nowMs);
  return {
    builtAt: iso(ctx.nowMs),
    // What the next build reads back before it republishes a snapshot of this one (builders/build/previous.ts).
    simulated: ctx.simulated,
    nextRunAt: next === null ? null : iso(next),
    datasets: ctx.datasets.map(({ resource }) => {
      const entry = { id: resource.id, title: resource.title };
      const outcome = ctx.outcomes?.get(resource.id) ?? { state: 'fresh' as const };
      const f = freshness(ctx.payloads.get(resource.id), ctx.nowMs, resource.validForMs);
      if (outcome.state === 'missing' || f === null)
        return {
          ...entry,
          state: 'missing' as const,
          reason: outcome.state === 'missing' ? outcome.reason : 'no snapshot was published',
          ...(outcome.state === 'missing' && outcome.lastAvailableMs !== undefined
            ? { lastAvailableAt: iso(outcome.lastAvailableMs) }
            : {}),
        };
      return {
        ...entry,
        path: resource.v1.path,
        state: outcome.state,
        asOf: iso(f.asOfMs),
        validUntil: iso(f.validUntilMs),
        ageSeconds: Math.floor(f.ageMs / 1000),
        age: ageInWords(f.ageMs),
      };
    }),
  };
}

/**
 * The badge: red "unavailable" when a dataset is missing, else yellow with the oldest republished
 * dataset's age, else green "fresh on <date>". The date is there because the file is written once per
 * build: a site whose publishing stopped keeps this badge, and the date is what then tells its age.
 */
export function statusBadge(status: Status): StatusBadge {
  const missing = status.datasets.filter((d) => d.state === 'missing');
  if (missing.length)
    return {
      schemaVersion: 1,
      label: 'data',
      message: `${missing.map((d) => d.title.toLowerCase()).join(', ')} unavailable`,
      color: 'red',
    };
  const reused = status.datasets.filter((d) => d.state === 'reused');
  if (reused.length) {
    const oldest = Math.max(...reused.map((d) => d.ageSeconds ?? 0));
    return { schemaVersion: 1, label: 'data', message: `${ageInWords(oldest * 1000)} old`, color: 'yellow' };
  }
  return { schemaVersion: 1, label: 'data', message: `fresh on ${status.builtAt.slice(0, 10)}`, color: 'brightgreen' };
}

/**
 * One entry of a workflow's `on.schedule`: its cron line and the IANA zone GitHub reads it in (`timezone:`,
 * UTC when absent). A bare string is a UTC line.
 */
export type ScheduleLine = string | { cron: string; timeZone: string };

/** The entries of the workflow's `on.schedule`; none when the file is absent (a fork without it). */
export function publishSchedule(file: URL): Array<{ cron: string; timeZone: string }> {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    return [];
  }
  const on = (parseYaml(text) as { on?: { schedule?: Array<{ cron?: unknown; timezone?: unknown }> } } | null)?.on;
  return (on?.schedule ?? []).flatMap((s) =>
    typeof s.cron === 'string' ? [{ cron: s.cron, timeZone: typeof s.timezone === 'string' ? s.timezone : 'UTC' }] : [],
  );
}

/**
 * The first minute after `afterMs` that one of the cron lines names (each in its own zone, as GitHub Actions
 * reads a line with `timezone:`; UTC without), within two days; null when none does. Only the minute and hour
 * fields are read (numbers, lists and `*`); a line that restricts the day, month or weekday is not claimed, so
 * it names no run.
 */
export function nextRunMs(lines: readonly ScheduleLine[], afterMs: number): number | null {
  const field = (text: string, max: number): Set<number> | null => {
    if (text === '*') return new Set(Array.from({ length: max }, (_, i) => i));
    const values = text.split(',').map(Number);
    return values.every((v) => Number.isInteger(v) && v >= 0 && v < max) ? new Set(values) : null;
  };
  const rules = lines.flatMap((line) => {
    const { cron, timeZone } = typeof line === 'string' ? { cron: line, timeZone: 'UTC' } : line;
    const [minute, hour, ...rest] = cron.trim().split(/\s+/);
    const minutes = field(minute ?? '', 60);
    const hours = field(hour ?? '', 24);
    if (!DateTime.now().setZone(timeZone).isValid) return [];
    return minutes && hours && rest.length === 3 && rest.every((f) => f === '*') ? [{ minutes, hours, timeZone }] : [];
  });
  if (rules.length === 0) return null;
  const first = Math.floor(afterMs / 60_000) + 1;
  for (let minute = first; minute < first + 2 * 24 * 60; minute++) {
    const ms = minute * 60_000;
    const due = rules.some((r) => {
      const local = DateTime.fromMillis(ms, { zone: r.timeZone });
      return r.minutes.has(local.minute) && r.hours.has(local.hour);
    });
    if (due) return ms;
  }
  return null;
}
