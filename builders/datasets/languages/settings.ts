// The owner's choices for the languages, in site.json: `"languages": {"hide": ["Jupyter Notebook"],
// "excludeRepositories": ["dotfiles"]}`. Both optional, names case-insensitive. Checked when the upstream
// connects, at every program's start: a mistake is a ConfigError naming site.json and the field (exit 2).
import type { Config } from '../../lib/config.ts';
import { siteSection } from '../../lib/site-section.ts';
import { ConfigError } from '../../lib/errors.ts';
import { firstUnseen } from '../../lib/text/unicode.ts';
import { folded } from './rule.ts';

/** The section's key in site.json. */
export const SECTION = 'languages';
/** The most entries either list may hold. */
export const MAX_ENTRIES = 100;
const FIELDS = ['hide', 'excludeRepositories'] as const;

export interface LanguagesSettings {
  /** Languages left out of the sum and the list, folded to lower case. */
  hide: ReadonlySet<string>;
  /** Repositories never read, folded to lower case. */
  exclude: ReadonlySet<string>;
}

const FILE = 'site/site.json';

function names(value: unknown, field: string): Set<string> {
  const at = `"${SECTION}.${field}"`;
  const item = (i: number) => `"${SECTION}.${field}[${i}]"`;
  if (!Array.isArray(value)) throw new ConfigError(FILE, `${at} must be a list of names (["…", …])`);
  if (value.length > MAX_ENTRIES)
    throw new ConfigError(FILE, `${at} has ${value.length} entries; it may hold at most ${MAX_ENTRIES}`);
  return new Set(
    value.map((entry: unknown, i) => {
      if (typeof entry !== 'string' || entry.trim() === '' || entry.length > 200)
        throw new ConfigError(FILE, `${item(i)} must be a non-empty name of at most 200 characters`);
      const unseen = firstUnseen(entry);
      if (unseen !== null) throw new ConfigError(FILE, `${item(i)} holds ${unseen.kind} (${unseen.code})`);
      return folded(entry.trim());
    }),
  );
}

/** The section as the owner wrote it, checked; none is the same as an empty one. */
export function languagesSettings(config: Pick<Config, 'site'>): LanguagesSettings {
  const section = siteSection(config, SECTION);
  if (section === undefined) return { hide: new Set(), exclude: new Set() };
  if (section === null || typeof section !== 'object' || Array.isArray(section))
    throw new ConfigError(FILE, `"${SECTION}" must be an object: {"hide": […], "excludeRepositories": […]}`);
  const fields = section as Record<string, unknown>;
  for (const key of Object.keys(fields))
    if (!(FIELDS as readonly string[]).includes(key))
      throw new ConfigError(
        FILE,
        `"${SECTION}.${key.slice(0, 60)}" is not a setting of the languages; use ${FIELDS.map((f) => `"${f}"`).join(' or ')}`,
      );
  return {
    hide: fields.hide === undefined ? new Set() : names(fields.hide, 'hide'),
    exclude:
      fields.excludeRepositories === undefined ? new Set() : names(fields.excludeRepositories, 'excludeRepositories'),
  };
}

/** Whether the owner excluded the repository `name`. */
export const excluded = (settings: LanguagesSettings, name: string) => settings.exclude.has(folded(name));
