// `npm start`: the gateway as a program. The only place that prints startup failures and picks exit
// statuses: 2 for an invalid variable (CONTRACT §2), 1 when it cannot start, 0 after a clean shutdown.
import { existsSync } from 'node:fs';
import { identityChanges, previousBuild } from '../builders/prune.ts';
import { siteIdentity } from '../builders/site-identity.ts';
import { loadConfig, type Config } from '../core/config.ts';
import { ConfigError } from '../core/errors.ts';
import { oneLine } from './error-lines.ts';
import { startGateway, type Gateway } from './server.ts';

const err = (line: string) => void process.stderr.write(`gateway: ${oneLine(line)}\n`);
const message = (error: unknown) => (error instanceof Error ? error.message : String(error));

/** Why dist/ must be built again for this configuration, or undefined (also when no build recorded its settings). */
async function staleSettings(distDir: string, config: Config): Promise<string | undefined> {
  const { identity } = await previousBuild(distDir);
  if (identity === undefined) return undefined;
  const changes = identityChanges(identity, siteIdentity(config, config.demoSimulated));
  return changes.length ? `${distDir} was built with other settings than ${changes.join(', ')}` : undefined;
}

async function main(): Promise<number | undefined> {
  let config: Config;
  try {
    config = loadConfig(process.env);
  } catch (error) {
    if (error instanceof ConfigError) {
      err(`invalid configuration: ${error.message}`);
      return 2;
    }
    throw error;
  }
  const { distDir } = config;

  // A fresh clone: build the site first (CONTRACT §1), then serve whatever could be built. The same
  // when the last build into dist/ recorded other site settings (SITE_URL, the account...): its
  // documents would say other things than this gateway. The build reports each snapshot it could not
  // write in one line naming the upstream and the reason.
  const reason = existsSync(distDir) ? await staleSettings(distDir, config) : `${distDir} is missing`;
  if (reason !== undefined) {
    err(`${reason}; building it first`);
    // Loaded only here: the site generator and its packages are most of the gateway's start time otherwise.
    const { build } = await import('../builders/build.ts');
    await build(config, { outDir: distDir, nowMs: Date.now(), log: () => {}, warn: (line) => err(line) });
  }

  let gateway: Gateway;
  try {
    gateway = await startGateway(config, { distDir });
  } catch (error) {
    // A HOST that is well-formed but names no address of this machine is an invalid value too (CONTRACT §2).
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EADDRNOTAVAIL' || code === 'ENOTFOUND') {
      err(`invalid configuration: HOST "${config.host}" is not an address of this machine (${code})`);
      return 2;
    }
    err(`cannot start: ${message(error)}`);
    return 1;
  }

  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    gateway.close().then(
      () => process.exit(0),
      (error: unknown) => {
        err(`shutdown after ${signal} failed: ${message(error)}`);
        process.exit(1);
      },
    );
  };
  process.once('SIGTERM', () => stop('SIGTERM'));
  process.once('SIGINT', () => stop('SIGINT'));
  return undefined;
}

process.on('uncaughtException', (error) => {
  err(`unexpected error: ${message(error)}`);
  process.exit(1);
});
process.on('unhandledRejection', (error) => {
  err(`unexpected error: ${message(error)}`);
  process.exit(1);
});

main().then(
  (code) => {
    if (code !== undefined) process.exit(code);
  },
  (error: unknown) => {
    err(`cannot start: ${message(error)}`);
    process.exit(1);
  },
);
