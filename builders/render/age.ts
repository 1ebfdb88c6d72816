// How old data are, and what a stale snapshot says, in words for a reader: the home page (built and
// redrawn by the page script), the cards, the CLI's stderr line, the MCP tools and status.json's badge.
// Pure and dependency-free (the page script and cli.mjs carry it). The rule of staleness is
// builders/domain/freshness.ts.
import { freshness, type Freshness } from '../domain/freshness.ts';
import { formatInstant } from './format.ts';
import { escapeHtml } from './html.ts';

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;

/** "less than a minute", "40 min", "5 h", "1 day", "12 days": whole units, rounded down. */
export function ageInWords(ms: number): string {
  if (ms < 60_000) return 'less than a minute';
  if (ms < HOUR_MS) return `${Math.floor(ms / 60_000)} min`;
  if (ms < DAY_MS) return `${Math.floor(ms / HOUR_MS)} h`;
  const days = Math.floor(ms / DAY_MS);
  return `${days} ${days === 1 ? 'day' : 'days'}`;
}

/**
 * The one sentence of a stale snapshot: its age, and that whoever published it stopped refreshing it
 * when its validity ended. Never "refreshed": the file is the old one, whenever it was fetched.
 */
export function staleSentence(f: Freshness): string {
  return (
    `These data are ${ageInWords(f.ageMs)} old: the site stopped refreshing them ` +
    `(they were due to be replaced at ${formatInstant(new Date(f.validUntilMs).toISOString())}).`
  );
}

/**
 * A figure's `data-as-of` and `data-valid-until` (ISO instants) from the build's payload: the page script
 * compares them with the reader's clock even when it cannot fetch the API (site/scripts/staleness.ts).
 * `validMs`: how long an `asOf`-only payload stays current, when its dataset says (builders/domain/freshness.ts).
 */
export function validityAttributes(payload: unknown, validMs?: number): string {
  const f = freshness(payload, 0, validMs);
  if (f === null) return '';
  const iso = (ms: number) => escapeHtml(new Date(ms).toISOString());
  return ` data-as-of="${iso(f.asOfMs)}" data-valid-until="${iso(f.validUntilMs)}"`;
}

/** The day a payload covers in its zone (the calendar, and the streak derived from it), or null. */
function coveredDay(payload: unknown): { date: string; timeZone: string } | null {
  const { endDate, timeZone } = (payload ?? {}) as { endDate?: unknown; timeZone?: unknown };
  return typeof endDate === 'string' && typeof timeZone === 'string' ? { date: endDate, timeZone } : null;
}

/**
 * How old a payload's data are, in one sentence (the MCP tools' second text block, the home page's line
 * after a refresh): for one day's data (the calendar, the streak), that day, said as a day and never as
 * hours since its midnight, which a reader would take for the time since it was fetched ("13 h old" a
 * second after a fetch); for the rest (the market), its age from its `asOf` and until when it is valid;
 * once its validity has passed, the stale sentence. Null for a payload that says neither.
 */
export function ageSentence(payload: unknown, nowMs: number, validMs?: number): string | null {
  const f = freshness(payload, nowMs, validMs);
  if (f === null) return null;
  if (f.stale) return staleSentence(f);
  const until = formatInstant(new Date(f.validUntilMs).toISOString());
  const day = coveredDay(payload);
  if (day !== null)
    return `From today's calendar in ${day.timeZone} (${day.date}), valid until midnight there (${until}).`;
  return `These data are ${ageInWords(f.ageMs)} old: valid until ${until}.`;
}

/**
 * The CLI's stderr line for a snapshot past its validity, without its program prefix: the data are still
 * printed on stdout and the exit status stays 0 (they are what the site publishes), but a script or a
 * person reading them as current is told otherwise. Nothing for a valid snapshot. `validMs`: the
 * dataset's own validity (DataResource.validForMs), as in ageSentence.
 */
export function staleWarning(title: string, payload: unknown, nowMs: number, validMs?: number): { warning?: string } {
  const f = freshness(payload, nowMs, validMs);
  return f?.stale ? { warning: `stale ${title.toLowerCase()}: ${staleSentence(f)}` } : {};
}
