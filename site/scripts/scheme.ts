// The visitor's colour scheme (docs/site.md#themes). Loaded as a blocking script in <head>, so the choice
// kept in localStorage is on <html> before the first paint (no flash of the other scheme, and no inline
// script: the policy stays script-src 'self'); then it wires the header's toggle (builders/render/scheme-toggle.ts).
import {
  SCHEME_ATTRIBUTE,
  SCHEME_CHOICE_ATTRIBUTE,
  SCHEME_CHOICES,
  SCHEME_SCRIPTED_ATTRIBUTE,
  SCHEME_STORAGE_KEY,
  type SchemeChoice,
} from '../../builders/render/scheme-toggle.ts';

const root = document.documentElement;

const isChoice = (value: unknown): value is SchemeChoice => (SCHEME_CHOICES as readonly unknown[]).includes(value);

/** The kept choice; storage that is blocked or holds something else reads as automatic. */
function keptChoice(): SchemeChoice {
  try {
    const value = localStorage.getItem(SCHEME_STORAGE_KEY);
    return isChoice(value) ? value : 'auto';
  } catch {
    return 'auto';
  }
}

function keep(choice: SchemeChoice): void {
  try {
    if (choice === 'auto') localStorage.removeItem(SCHEME_STORAGE_KEY);
    else localStorage.setItem(SCHEME_STORAGE_KEY, choice);
  } catch {
    // Storage blocked: the choice holds for this page only.
  }
}

function apply(choice: SchemeChoice): void {
  if (choice === 'auto') root.removeAttribute(SCHEME_ATTRIBUTE);
  else root.setAttribute(SCHEME_ATTRIBUTE, choice);
}

apply(keptChoice());
root.setAttribute(SCHEME_SCRIPTED_ATTRIBUTE, '');

document.addEventListener('DOMContentLoaded', () => {
  const buttons = [...document.querySelectorAll<HTMLButtonElement>(`[${SCHEME_CHOICE_ATTRIBUTE}]`)];
  const show = (choice: SchemeChoice) => {
    for (const button of buttons)
      button.setAttribute('aria-pressed', String(button.getAttribute(SCHEME_CHOICE_ATTRIBUTE) === choice));
  };
  show(keptChoice());
  for (const button of buttons)
    button.addEventListener('click', () => {
      const choice = button.getAttribute(SCHEME_CHOICE_ATTRIBUTE);
      if (!isChoice(choice)) return;
      keep(choice);
      apply(choice);
      show(choice);
    });
});
