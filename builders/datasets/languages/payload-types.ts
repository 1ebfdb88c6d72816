// Generated from builders/datasets/languages/*.schema.json by builders/tools/payload-types.mjs (npm run generate:types): do not edit.
// A schema is the source of truth; change it and regenerate.

/**
 * What the owner writes, by size of code: the bytes per language GitHub's linguist reports, summed over the account's own public repositories (forks excluded, archived included), at most 100, the most recently pushed first, less the repositories and languages the owner leaves out (site.json `languages`).
 */
export interface GitHubLanguages {
  /**
   * The fixed GitHub account whose repositories were read.
   */
  username: string;
  /**
   * When the upstream answered (ISO 8601).
   */
  asOf: string;
  /**
   * How many repositories were summed, after the owner's exclusions.
   */
  repositories: number;
  /**
   * The sum of the languages' bytes; 0 when there are none.
   */
  totalBytes: number;
  /**
   * Every language with bytes > 0, largest first, ties by name in code-point order; empty when there are no bytes.
   */
  languages: {
    /**
     * The language as GitHub's linguist names it; no control, bidi or zero-width character.
     */
    name: string;
    /**
     * Its colour in GitHub's linguist table, lower-cased, or null when it has none.
     */
    color: string | null;
    /**
     * Its bytes, summed over the repositories.
     */
    bytes: number;
    /**
     * bytes / totalBytes x 100, rounded half-up to two decimals.
     */
    percent: number;
  }[];
}
