// `npm start`: the gateway as a program, run after `build --if-stale` has built dist/ when it was missing or
// stale (package.json), so it imports no builder. The only place that prints startup failures and picks exit
// statuses: 2 for an invalid variable (docs/configuration.md#variables), 1 when it cannot start, 0 after a clean shutdown.
import { loadConfig, type Config } from '../builders/lib/config.ts';
import { ConfigError } from '../builders/lib/errors.ts';
import { oneLine } from '../builders/lib/text/one-line.ts';
import { portTakenReason } from '../builders/lib/port-hint.ts';
import { errorMessage, runServer } from '../builders/lib/run-main.ts';
import { MAX_ERROR_LINE } from './http/error-lines.ts';
import { startGateway, type Gateway } from './server.ts';

const err = (line: string) => void process.stderr.write(`gateway: ${oneLine(line, MAX_ERROR_LINE)}\n`);

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

  let gateway: Gateway;
  try {
    gateway = await startGateway(config, { distDir });
  } catch (error) {
    // TRUST_PROXY is parsed by the gateway, which alone uses it.
    if (error instanceof ConfigError) {
      err(`invalid configuration: ${error.message}`);
      return 2;
    }
    // A HOST that is well-formed but names no address of this machine is an invalid value too (docs/configuration.md#variables).
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EADDRNOTAVAIL' || code === 'ENOTFOUND') {
      err(`invalid configuration: HOST "${config.host}" is not an address of this machine (${code})`);
      return 2;
    }
    if (code === 'EADDRINUSE') {
      // The demo's hint (test/demo/main.ts), in the gateway's words: a site's links name its port, so the way
      // out is another PORT (and the build --if-stale of `npm start` rewrites the links for it).
      err(`cannot start: ${portTakenReason(config.host, config.port)}`);
      return 1;
    }
    err(`cannot start: ${errorMessage(error)}`);
    return 1;
  }

  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    gateway.close().then(
      () => process.exit(0),
      (error: unknown) => {
        err(`shutdown after ${signal} failed: ${errorMessage(error)}`);
        process.exit(1);
      },
    );
  };
  process.once('SIGTERM', () => stop('SIGTERM'));
  process.once('SIGINT', () => stop('SIGINT'));
  return undefined;
}

runServer(main, err);
