// `npm run fork-schedule -- [<owner>/<repo>] [--zone <IANA zone>]` (docs/deploying.md#your-forks-own-minutes):
// gives a fork's Publish workflow minutes of its own. GitHub runs scheduled workflows at best effort, and every
// fork of this repository fires at the same minutes as the others unless it moves them; a cron line cannot read
// a repository variable, so the minutes are written into .github/workflows/publish.yml once, at setup, derived
// from the repository's name (the same name always gives the same minutes). `--zone` also moves the daily run
// to the midnight of the fork's CALENDAR_TIME_ZONE. Plain Node, no dependency: it edits the lines it owns.
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** The minutes GitHub's scheduler is busiest at (the top of the hour, and every fifth minute people pick). */
const usable = (from, to) => Array.from({ length: to - from + 1 }, (_, i) => from + i).filter((m) => m % 5 !== 0);
/** The daily run: within a quarter of an hour after midnight. The hourly run: later in the hour, never the same minute. */
const MIDNIGHT_MINUTES = usable(1, 14);
const HOURLY_MINUTES = usable(16, 59);

/** FNV-1a, 32 bits: a stable spread of names, no cryptography needed. */
function hash(text) {
  let h = 0x811c9dc5;
  for (const byte of new TextEncoder().encode(text)) h = Math.imul(h ^ byte, 0x01000193) >>> 0;
  return h;
}

/** The minutes of `repository` (`owner/repo`, case-insensitive, as GitHub treats it). */
export function forkMinutes(repository) {
  const h = hash(repository.trim().toLowerCase());
  return {
    hourly: HOURLY_MINUTES[h % HOURLY_MINUTES.length],
    midnight: MIDNIGHT_MINUTES[Math.floor(h / HOURLY_MINUTES.length) % MIDNIGHT_MINUTES.length],
  };
}

/**
 * publish.yml with its hourly line at minute `hourly`, its daily line at 00:`midnight` in `zone` (kept when
 * undefined), and the keep-alive job's condition naming the new daily line. Throws when the file no longer
 * has the lines this tool owns.
 */
export function withForkSchedule(text, { hourly, midnight, zone }) {
  const hourlyLine = /^(\s*- cron: ')\d{1,2}( \* \* \* \*')/m;
  const dailyLine = /^(\s*- cron: ')(\d{1,2})( 0 \* \* \*')(\s*\n\s*timezone: )(\S+)/m;
  const daily = dailyLine.exec(text);
  if (!hourlyLine.test(text) || daily === null)
    throw new Error("publish.yml has no hourly '<m> * * * *' line, or no daily '<m> 0 * * *' line with timezone:");
  const oldDaily = `${daily[2]} 0 * * *`;
  const newDaily = `${midnight} 0 * * *`;
  return text
    .replace(hourlyLine, `$1${hourly}$2`)
    .replace(dailyLine, (_, a, _m, b, c, oldZone) => `${a}${midnight}${b}${c}${zone ?? oldZone}`)
    .replaceAll(`github.event.schedule == '${oldDaily}'`, `github.event.schedule == '${newDaily}'`);
}

/** `owner/repo` of the checkout's `origin` (https or ssh remote). */
function originRepository() {
  const url = execFileSync('git', ['remote', 'get-url', 'origin'], { encoding: 'utf8' }).trim();
  const match = /github\.com[/:]([^/]+\/[^/]+?)(?:\.git)?$/.exec(url);
  if (match === null) throw new Error(`origin (${url}) is not a GitHub repository: name it, owner/repo`);
  return match[1];
}

function main(argv) {
  const zoneAt = argv.indexOf('--zone');
  const zone = zoneAt === -1 ? undefined : argv[zoneAt + 1];
  if (zoneAt !== -1 && (zone === undefined || !Intl.supportedValuesOf('timeZone').concat('UTC').includes(zone)))
    throw new Error(`--zone ${zone ?? ''}: not an IANA time zone (such as Europe/Berlin)`);
  const named = argv.filter((a, i) => a !== '--zone' && i !== zoneAt + 1);
  if (named.length > 1 || (named[0] !== undefined && !/^[\w.-]+\/[\w.-]+$/.test(named[0])))
    throw new Error('usage: npm run fork-schedule -- [<owner>/<repo>] [--zone <IANA zone>]');
  const repository = named[0] ?? originRepository();
  const file = fileURLToPath(new URL('../../.github/workflows/publish.yml', import.meta.url));
  const minutes = forkMinutes(repository);
  writeFileSync(file, withForkSchedule(readFileSync(file, 'utf8'), { ...minutes, zone }));
  process.stdout.write(
    `fork-schedule: ${repository} publishes hourly at minute ${minutes.hourly} and daily at 00:${String(minutes.midnight).padStart(2, '0')}` +
      `${zone ? ` in ${zone}` : ''}; commit .github/workflows/publish.yml and push\n`,
  );
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  try {
    main(process.argv.slice(2));
  } catch (error) {
    process.stderr.write(`fork-schedule: ${error.message}\n`);
    process.exitCode = 2;
  }
}
