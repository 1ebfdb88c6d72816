// Pure GitHubLanguages rule (the folder's README.md, "The rule"): (the repositories either GitHub source
// read, the owner's settings, the build's time) → payload, and when a previous snapshot may stand in for a
// fresh one. One bad count or name anywhere makes the whole answer unusable: nothing is published from it.
import { UpstreamError, type UpstreamName } from '../../lib/errors.ts';
import { firstUnseen } from '../../lib/text/unicode.ts';
import type { Reuse } from '../../domain/reuse.ts';
import { percentOf, type GitHubLanguage, type GitHubLanguages } from './view.ts';
import type { LanguagesSettings } from './settings.ts';

/** GitHub's GraphQL lists at most 100 repositories a page; the payload reads the first page only. */
export const MAX_REPOSITORIES = 100;
/** The most repositories whose languages are asked for without a token (GitHub allows 60 requests an hour then). */
export const MAX_REST_REPOSITORIES = 30;
/** `--previous` may republish a languages snapshot up to a week old, as the projects'. */
export const LANGUAGES_REUSE_MAX_MS = 7 * 24 * 3_600_000;

/** One language of one repository, as a source read it, unchecked. */
export interface LanguageSize {
  name: unknown;
  bytes: unknown;
  /** What the source gives (GitHub's GraphQL, or linguist's table for REST); anything but `#` and six hex digits is null. */
  color: unknown;
}

/** One repository's languages, as a source read it (exclusions already applied: an excluded one is never read). */
export interface RepositoryLanguages {
  name: string;
  languages: readonly LanguageSize[];
}

const COLOR = /^#[0-9a-fA-F]{6}$/;
/** Zero-width characters beyond builders/lib/text/unicode.ts's (which keeps the joiners scripts need): not in a language's name. */
const ZERO_WIDTH = /[\u200b-\u200d\u2060\ufeff]/;

/** Why `name` is not a language's name (1–100 characters, no control, bidi or zero-width one), or undefined. */
export function nameFault(name: unknown): string | undefined {
  if (typeof name !== 'string') return 'a language without a name';
  const length = [...name].length;
  if (length < 1 || length > 100) return `a language name of ${length} characters (1 to 100)`;
  const unseen = firstUnseen(name);
  if (unseen !== null) return `a language name with ${unseen.kind} (${unseen.code})`;
  if (ZERO_WIDTH.test(name) || name.trim() === '') return 'a language name with a zero-width character or blank';
  return undefined;
}

/** `#rrggbb` lower-cased, else null (never an error: a colour is decoration). */
export function colorOf(color: unknown): string | null {
  return typeof color === 'string' && COLOR.test(color) ? color.toLowerCase() : null;
}

/** "Rust" and "rust" are one name to the owner's lists (case-insensitive). */
export const folded = (name: string) => name.toLowerCase();

/**
 * The payload: every repository's languages checked (a name by nameFault, bytes an exact non-negative
 * integer), hidden languages left out, the rest summed by name; largest first, ties by name in code-point
 * order; each share rounded half-up to two decimals. The upstream's text is never quoted in the error.
 */
export function buildLanguages(
  upstream: UpstreamName,
  username: string,
  repositories: readonly RepositoryLanguages[],
  settings: Pick<LanguagesSettings, 'hide'>,
  nowMs: number,
): GitHubLanguages {
  const sums = new Map<string, { bytes: number; color: string | null }>();
  repositories.forEach((repository, r) => {
    repository.languages.forEach((language, l) => {
      const where = `repository ${r + 1}, language ${l + 1}`;
      const fault = nameFault(language.name);
      if (fault !== undefined) throw new UpstreamError(upstream, `${where}: ${fault}`);
      const { bytes } = language;
      if (typeof bytes !== 'number' || !Number.isSafeInteger(bytes) || bytes < 0)
        throw new UpstreamError(upstream, `${where}: its size is not an exact count of bytes`);
      const name = language.name as string;
      if (settings.hide.has(folded(name))) return;
      const sum = sums.get(name);
      const total = (sum?.bytes ?? 0) + bytes;
      if (!Number.isSafeInteger(total))
        throw new UpstreamError(upstream, `${where}: the sum of its sizes is too large`);
      sums.set(name, { bytes: total, color: sum?.color ?? colorOf(language.color) });
    });
  });
  const kept = [...sums].filter(([, s]) => s.bytes > 0);
  const totalBytes = kept.reduce((total, [, s]) => total + s.bytes, 0);
  if (!Number.isSafeInteger(totalBytes)) throw new UpstreamError(upstream, 'the sum of all sizes is too large');
  const languages = kept
    .sort(([a, x], [b, y]) => y.bytes - x.bytes || (a < b ? -1 : a > b ? 1 : 0))
    .map(([name, s]): GitHubLanguage => ({
      name,
      color: s.color,
      bytes: s.bytes,
      percent: percentOf(s.bytes, totalBytes),
    }));
  return { username, asOf: new Date(nowMs).toISOString(), repositories: repositories.length, totalBytes, languages };
}

/**
 * A languages snapshot may be republished while it is the configured account's, its `asOf` is neither in the
 * future nor more than LANGUAGES_REUSE_MAX_MS before `nowMs`, it shows no language the owner now hides, and
 * it is what the rule makes of its own languages (order, sum and shares).
 */
export function languagesReuse(
  snapshot: GitHubLanguages,
  nowMs: number,
  expected: { username: string; hide: ReadonlySet<string> },
): Reuse {
  const refuse = (reason: string): Reuse => ({ reusable: false, reason });
  if (snapshot.username.toLowerCase() !== expected.username.toLowerCase())
    return refuse(
      `it is the account ${JSON.stringify(snapshot.username)}'s, not ${JSON.stringify(expected.username)}'s`,
    );
  const asOfMs = Date.parse(snapshot.asOf);
  const ageMs = nowMs - asOfMs;
  if (!Number.isFinite(asOfMs) || ageMs < 0) return refuse(`its asOf ${snapshot.asOf} is later than now`);
  if (ageMs > LANGUAGES_REUSE_MAX_MS) return refuse(`its asOf ${snapshot.asOf} is more than 7 days old`);
  if (snapshot.languages.some((l) => expected.hide.has(folded(l.name))))
    return refuse('it shows a language site.json now hides');
  let fresh: GitHubLanguages;
  try {
    fresh = buildLanguages(
      'previous',
      snapshot.username,
      [{ name: 'all', languages: snapshot.languages }],
      { hide: new Set() },
      asOfMs,
    );
  } catch (error) {
    if (!(error instanceof UpstreamError)) throw error;
    return refuse(`the rule refuses its languages: ${error.message}`);
  }
  if (fresh.totalBytes !== snapshot.totalBytes)
    return refuse(`its totalBytes ${snapshot.totalBytes} is not the sum of its languages (${fresh.totalBytes})`);
  const same = (a: GitHubLanguage, b: GitHubLanguage | undefined) =>
    !!b && a.name === b.name && a.color === b.color && a.bytes === b.bytes && a.percent === b.percent;
  if (
    fresh.languages.length !== snapshot.languages.length ||
    fresh.languages.some((l, i) => !same(l, snapshot.languages[i]))
  )
    return refuse("its languages are not in the rule's order, or not with its shares");
  return { reusable: true, ageMs };
}
