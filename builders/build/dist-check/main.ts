// `npm run check:dist`'s main(): checks the built dist/ (or `--dir <dir>`, or DIST_DIR) on a Pages-like host
// under SITE_URL's base path (check.ts), prints what it found and gives the exit status (builders/build/check-dist-main.ts
// is the program around it). Exit 0: every link resolves with 200; 1: some do not (listed, one per line); 2: usage
// or configuration. `--allow-missing-data` (the Publish workflow, which deploys a build that exited 1): a dataset
// the build left out whole is named on stdout instead of failing the check.
import { parseArgs } from 'node:util';
import { resolve } from 'node:path';
import { loadConfig } from '../../lib/config.ts';
import { oneLine } from '../../lib/text/one-line.ts';
import type { MainIo } from '../../lib/run-main.ts';
import { checkDist } from './check.ts';
import { dataResource, listPhrase, type ServiceTables } from '../../contract/service.ts';
import { serviceTables } from '../../datasets/registry.ts';

const MAX_LISTED = 50;

export async function main(argv: readonly string[], io: MainIo): Promise<number> {
  let siteUrl: string;
  let dir: string;
  let allowMissingData: boolean;
  let service: ServiceTables;
  try {
    const config = loadConfig(io.env);
    const { values } = parseArgs({
      args: [...argv],
      options: { dir: { type: 'string' }, 'allow-missing-data': { type: 'boolean' } },
      strict: true,
    });
    allowMissingData = values['allow-missing-data'] === true;
    siteUrl = config.siteUrl;
    service = serviceTables(config);
    dir = values.dir === undefined ? config.distDir : resolve(values.dir);
  } catch (error) {
    io.stderr.write(
      `check:dist: ${oneLine((error as Error).message, 1000)} (usage: npm run check:dist [-- --dir <dir>] [--allow-missing-data])\n`,
    );
    return 2;
  }
  const report = await checkDist(dir, siteUrl, { allowMissingData, service });
  for (const id of report.missingData)
    io.stdout.write(
      `check:dist: ${dataResource(service, id).title.toLowerCase()} not published (the build left it out): its paths and cards not requested\n`,
    );
  const where = `${report.checked} site URLs linked from ${report.documents} documents in ${dir}, served like GitHub Pages under ${siteUrl}/`;
  if (report.failures.length === 0) {
    io.stdout.write(`check:dist: ok: ${where} all answer 200\n`);
    return 0;
  }
  // After a build that exited 1 (an upstream failed, often simply offline) the broken links are that
  // dataset's files; the line says so and names the option that checks everything else.
  const absent = report.failures.filter((f) => f.absentDataset !== undefined).length;
  const titles = listPhrase(report.absentData.map((id) => `the ${dataResource(service, id).title.toLowerCase()}`));
  const hint =
    absent === 0
      ? ''
      : `; ${absent === report.failures.length ? 'all of them are' : `${absent} of them are`} files of ${titles}, which the build left out (an upstream gave no data): npm run check:dist -- --allow-missing-data checks the rest`;
  io.stderr.write(`check:dist: ${report.failures.length} broken: ${where}${hint}\n`);
  for (const f of report.failures.slice(0, MAX_LISTED))
    io.stderr.write(`  ${oneLine(`${f.url}: ${f.problem} (linked from ${f.from.join(', ')})`, 2000)}\n`);
  if (report.failures.length > MAX_LISTED) io.stderr.write(`  … and ${report.failures.length - MAX_LISTED} more\n`);
  return 1;
}
