// When a missing dataset's data were last available, for its "unavailable" card and status.json: the
// as-of time (builders/domain/freshness.ts) of the snapshot the last published site holds, read from the
// `--previous` folder or else the output folder before this build removes it. Only a file that is a
// valid snapshot of the dataset counts, in a site whose data are simulated exactly when this build's are
// (a demo's calendar never dates a real site's); anything else leaves the time unknown, which the card says.
import type { Validator } from '../contract/schemas.ts';
import type { DataResource } from '../contract/service.ts';
import { freshness } from '../domain/freshness.ts';
import { parseSnapshotText, previousSimulated, readInside } from './previous.ts';

export async function lastAvailableMs(
  dirs: readonly string[],
  resource: DataResource,
  validator: Validator,
  simulated: boolean,
): Promise<number | undefined> {
  for (const dir of dirs) {
    if ((await previousSimulated(dir)) !== simulated) continue;
    const read = await readInside(dir, resource.snapshotFiles[0]!);
    if (typeof read === 'string') continue;
    // Bounded before anything walks it (previous.ts): the validator recurses.
    const parsed = parseSnapshotText(read);
    if (typeof parsed === 'string') continue;
    try {
      const { payload } = parsed;
      validator.validate(resource.schema, payload);
      const known = freshness(payload, 0);
      if (known !== null) return known.asOfMs;
    } catch {
      // Not a snapshot of this dataset: the next folder may hold one.
    }
  }
  return undefined;
}
