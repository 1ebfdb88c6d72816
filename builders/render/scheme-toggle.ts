// The header's colour-scheme toggle (docs/site.md#themes): its markup, drawn by the build, and the names
// the head script (site/scripts/scheme.ts) and the stylesheet share with it. Three real buttons, Light,
// Dark and Automatic, each with its pressed state; the visitor's choice is kept in localStorage and set
// on <html> as `data-scheme` before the first paint. Without script the toggle is hidden and the page
// follows the reader's system.

/** A visitor's choice; `auto` follows the system (prefers-color-scheme). */
export const SCHEME_CHOICES = ['light', 'dark', 'auto'] as const;
export type SchemeChoice = (typeof SCHEME_CHOICES)[number];

/** On <html>: the chosen variant (`light` or `dark`; absent for automatic), read by the theme's rules. */
export const SCHEME_ATTRIBUTE = 'data-scheme';
/** On <html> once the head script runs: the stylesheet shows the toggle only then. */
export const SCHEME_SCRIPTED_ATTRIBUTE = 'data-scheme-toggle';
/** On each button: the choice it makes. */
export const SCHEME_CHOICE_ATTRIBUTE = 'data-scheme-choice';
/** The localStorage key of the choice (absent for automatic). */
export const SCHEME_STORAGE_KEY = 'colour-scheme';

const LABELS: Record<SchemeChoice, string> = { light: 'Light', dark: 'Dark', auto: 'Auto' };
/** What a button does, for its accessible description (the tooltip). */
const TITLES: Record<SchemeChoice, string> = {
  light: 'Always light',
  dark: 'Always dark',
  auto: "Follow your system's setting",
};

/** The toggle as the build draws it: Automatic pressed, as the head script then corrects. */
export function schemeToggleHtml(): string {
  const buttons = SCHEME_CHOICES.map(
    (choice) =>
      `<button type="button" ${SCHEME_CHOICE_ATTRIBUTE}="${choice}" aria-pressed="${choice === 'auto'}" title="${TITLES[choice]}">${LABELS[choice]}</button>`,
  ).join('');
  return `<div class="scheme-toggle" role="group" aria-label="Colour scheme">${buttons}</div>`;
}
