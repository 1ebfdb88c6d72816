// A language's colour from GitHub linguist's own table, through the linguist-languages package (its
// languages.yml, republished with every linguist release), never a hand-kept copy: what the REST path
// gives each language, since GitHub's REST answer carries sizes only. Loaded at the first REST read: the
// table is large, and a gateway with a token, or that serves files only, never needs it.
import { colorOf } from './rule.ts';

let table: Promise<ReadonlyMap<string, string | null>> | undefined;

/** The colour of each language linguist knows, by its exact name (`#rrggbb` lower-cased, or null). */
export function linguistColors(): Promise<ReadonlyMap<string, string | null>> {
  table ??= import('linguist-languages').then(
    (languages) =>
      new Map(
        Object.values(languages as Record<string, { name: string; color?: string }>).map((l) => [
          l.name,
          colorOf(l.color),
        ]),
      ),
  );
  return table;
}
