// The languages' figure on the home page (drawn by the build, redrawn by the page script:
// builders/render/dataset-view.ts): the eight largest languages and "Other" for the rest as one stacked bar, and a
// legend that prints each share as text. The page's theme is the reader's to choose, so every segment and
// swatch is outlined in the text's own colour (currentColor), which meets 3:1 against the page in every
// theme whatever GitHub's colour is. The payload's types are generated beside this file (payload-types.ts)
// and named here, where the page script may read them.
import type { HomeView } from '../../render/dataset-view.ts';
import { escapeHtml } from '../../render/html.ts';
import type { GitHubLanguages } from './payload-types.ts';

/** The payload: generated from GitHubLanguages.schema.json, this folder (npm run generate:types). */
export type { GitHubLanguages };

/** One language of the payload. */
export type GitHubLanguage = GitHubLanguages['languages'][number];

/** How many languages the bar and the legend name before "Other". */
export const SHOWN_LANGUAGES = 8;

/** One entry of the bar and the legend: a language, or "Other" (`color` null) for the rest together. */
export interface LegendEntry {
  name: string;
  color: string | null;
  bytes: number;
  percent: number;
  other: boolean;
}

/** `bytes / total × 100` rounded half-up to two decimals, exactly (integers, so no float drift decides a tie). */
export function percentOf(bytes: number, total: number): number {
  if (total <= 0) return 0;
  const hundredths = (BigInt(bytes) * 20000n + BigInt(total)) / (2n * BigInt(total));
  return Number(hundredths) / 100;
}

/** The eight largest languages, then "Other" for the rest (its share from its bytes, not summed shares). */
export function legendEntries(payload: GitHubLanguages): LegendEntry[] {
  const shown: LegendEntry[] = payload.languages.slice(0, SHOWN_LANGUAGES).map((l) => ({ ...l, other: false }));
  const rest = payload.languages.slice(SHOWN_LANGUAGES);
  if (rest.length === 0) return shown;
  const bytes = rest.reduce((sum, l) => sum + l.bytes, 0);
  return [...shown, { name: 'Other', color: null, bytes, percent: percentOf(bytes, payload.totalBytes), other: true }];
}

/** "65.45%": the payload's own number, as it reads in the JSON. */
export const percentText = (percent: number) => `${percent}%`;

/** "1 repository", "12 repositories". */
export const repositoriesText = (n: number) =>
  `${n.toLocaleString('en-US')} ${n === 1 ? 'repository' : 'repositories'}`;

/** The bar in 1000ths of its width: each entry's start and width, the last one ending exactly at the end. */
export function barSegments(entries: readonly LegendEntry[], total: number): Array<{ x: number; width: number }> {
  let before = 0;
  return entries.map((e) => {
    const x = Math.round((before / total) * 1000);
    before += e.bytes;
    return { x, width: Math.round((before / total) * 1000) - x };
  });
}

function languagesBodyHtml(payload: GitHubLanguages | null): string {
  if (payload === null)
    return '<p class="unavailable" data-unavailable="languages"><strong>Languages unavailable.</strong> GitHub gave no usable language sizes when this page was built.</p>';
  if (payload.languages.length === 0)
    return `<p class="languages-empty">No language bytes yet in the public repositories of ${escapeHtml(payload.username)}.</p>`;
  const entries = legendEntries(payload);
  const segments = barSegments(entries, payload.totalBytes);
  // Colours as SVG fills: the pages' CSP allows no style attribute (builders/contract/content-security-policy.ts).
  const fill = (e: LegendEntry) => (e.color === null ? '' : ` fill="${escapeHtml(e.color)}"`);
  const bar =
    '<svg class="languages-bar" width="100%" height="14" viewBox="0 0 1000 14" preserveAspectRatio="none" aria-hidden="true">' +
    entries
      .map(
        (e, i) =>
          `<rect x="${segments[i]!.x}" y="1" width="${segments[i]!.width}" height="12"${fill(e)} stroke="currentColor" stroke-width="1" vector-effect="non-scaling-stroke"/>`,
      )
      .join('') +
    '</svg>';
  const legend =
    '<ul class="languages-legend">' +
    entries
      .map(
        (e) =>
          `<li><svg class="language-dot" width="10" height="10" viewBox="0 0 10 10" aria-hidden="true"><circle cx="5" cy="5" r="4.5"${fill(e)} stroke="currentColor" stroke-width="1"/></svg> ` +
          `<span class="language-name">${escapeHtml(e.name)}</span> <span class="language-percent">${escapeHtml(percentText(e.percent))}</span></li>`,
      )
      .join('') +
    '</ul>';
  return `${bar}${legend}<p class="languages-total">${escapeHtml(repositoriesText(payload.repositories))} read.</p>`;
}

/** The shape the figure draws, checked before a redraw from an API answer (the CLI checks the whole schema). */
function isLanguages(value: unknown): value is GitHubLanguages {
  const v = value as Partial<GitHubLanguages> | null;
  return (
    !!v &&
    typeof v.username === 'string' &&
    Number.isSafeInteger(v.repositories) &&
    Number.isSafeInteger(v.totalBytes) &&
    Array.isArray(v.languages) &&
    v.languages.every(
      (l) =>
        !!l &&
        typeof l.name === 'string' &&
        (l.color === null || (typeof l.color === 'string' && /^#[0-9a-f]{6}$/.test(l.color))) &&
        Number.isSafeInteger(l.bytes) &&
        typeof l.percent === 'number',
    )
  );
}

export const view: HomeView<GitHubLanguages> = { accepts: isLanguages, body: languagesBodyHtml };
