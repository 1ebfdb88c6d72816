// The payload types the code imports are generated from the schemas (builders/contract/payload-types.ts from
// schemas/, and a dataset folder's payload-types.ts from its own schema): regenerating them must give each
// file as committed, so that a schema change without `npm run generate:types` fails here rather than
// leaving the code typed against an old contract.
import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { payloadTypeFiles, TYPES_FILE } from '../builders/tools/payload-types.mjs';

describe('the generated payload types', () => {
  it('each generated file is what json-schema-to-typescript makes of its schemas now (run npm run generate:types if not)', async () => {
    // schemas/'s, and each folder's that its folder keeps (the languages keep theirs): a new dataset's folder
    // without one is no failure here, as adding a dataset turns no test red but the pinned list of ids; the
    // type-check fails if its code imports a file it does not have.
    const files = (await payloadTypeFiles()).filter(({ file }) => file === TYPES_FILE || existsSync(file));
    expect(files[0]!.file).toBe(TYPES_FILE);
    expect(files.map(({ file }) => file)).toContainEqual(
      expect.stringMatching(/\/datasets\/languages\/payload-types\.ts$/),
    );
    for (const { file, text } of files) expect(readFileSync(file, 'utf8'), file).toBe(text);
  });

  it('declares one type per schema, named by its title', () => {
    const text = readFileSync(TYPES_FILE, 'utf8');
    for (const name of ['MarketData', 'MarketPoint', 'GitHubContributions', 'GitHubContributionDay', 'ProblemDetails'])
      expect(text).toMatch(new RegExp(`^export interface ${name} \\{`, 'm'));
  });
});
