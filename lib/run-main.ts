// The edge of a command-line program: turns main's outcome into the exit status and reports an
// unexpected failure once, as one line without a stack.
import { oneLine } from './one-line.ts';

export function runMain(name: string, main: () => Promise<number>): void {
  main().then(
    (code) => {
      process.exitCode = code;
    },
    (error: unknown) => {
      process.stderr.write(
        `${name}: failed: ${oneLine(error instanceof Error ? error.message : String(error), 1000)}\n`,
      );
      process.exitCode = 1;
    },
  );
}
