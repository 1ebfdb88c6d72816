// The edge of a command-line program: turns main's outcome into the exit status and reports an
// unexpected failure once, as one line without a stack.
import { oneLine } from './text/one-line.ts';

/**
 * The exit status of an internal error: main threw, or an exception escaped it (a bug, or an output that
 * cannot be written). It is never a verdict on the data, so it is none of the statuses a program gives
 * itself (0, 1, 2): a caller that goes on after `npm run build` exits 1 (a dataset missing, the rest
 * written) stops on this one. 70 is sysexits.h's EX_SOFTWARE, "an internal software error has been detected".
 */
export const EXIT_INTERNAL_ERROR = 70;

/** What a program's main() reads and writes: the process's environment and output, or a test's own. */
export interface MainIo {
  env: Record<string, string | undefined>;
  stdout: { write(text: string): unknown };
  stderr: { write(text: string): unknown };
}

/** The process's own environment and output, what a program's main() uses unless a test gives it others. */
export function processIo(): MainIo {
  return { env: process.env, stdout: process.stdout, stderr: process.stderr };
}

/** The one stderr line of an internal error: the program, the error's name and message, no stack. */
export function internalErrorLine(name: string, error: unknown): string {
  const what = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  return `${name}: internal error: ${oneLine(what, 1000)}`;
}

/** main's exit status; EXIT_INTERNAL_ERROR, with internalErrorLine on `warn`, when main throws. */
export async function exitStatus(
  name: string,
  main: () => Promise<number>,
  warn: (line: string) => void = (line) => process.stderr.write(`${line}\n`),
): Promise<number> {
  try {
    return await main();
  } catch (error) {
    warn(internalErrorLine(name, error));
    return EXIT_INTERNAL_ERROR;
  }
}

export function runMain(name: string, main: () => Promise<number>): void {
  // An exception that escapes main's promise (a stray rejection, an emitter's error) is the same internal
  // error: Node's own status for it, 1, would pass for a verdict on the data.
  const fail = (error: unknown) => {
    process.stderr.write(`${internalErrorLine(name, error)}\n`);
    process.exit(EXIT_INTERNAL_ERROR);
  };
  process.on('uncaughtException', fail);
  process.on('unhandledRejection', fail);
  void exitStatus(name, main).then((code) => {
    process.exitCode = code;
  });
}

/** An error's message, or the thrown value as text. */
export const errorMessage = (error: unknown) => (error instanceof Error ? error.message : String(error));

/**
 * The edge of a long-running program (the gateway, its Worker's local run): `main` resolves with a status
 * when it does not start (a refused variable: 2), or with undefined once it serves, after which it exits on
 * its own (a signal). `say` writes one line in the program's words. A main that throws cannot start; an
 * exception that escapes it later is unexpected: either is said once, without a stack, and exits 1.
 */
export function runServer(main: () => Promise<number | undefined>, say: (line: string) => void): void {
  const fail = (error: unknown) => {
    say(`unexpected error: ${errorMessage(error)}`);
    process.exit(1);
  };
  process.on('uncaughtException', fail);
  process.on('unhandledRejection', fail);
  main().then(
    (code) => {
      if (code !== undefined) process.exit(code);
    },
    (error: unknown) => {
      say(`cannot start: ${errorMessage(error)}`);
      process.exit(1);
    },
  );
}
