// The Nu HTML Checker (npm vnu-jar, run with Java). Missing Java skips the check on a developer machine
// and fails it under CI, where .ci/run installs Debian's default-jre-headless.
import { execFile, execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { IS_CI } from './ci.ts';
import { ROOT } from './run.ts';

export const VNU_JAR = join(ROOT, 'node_modules/vnu-jar/build/dist/vnu.jar');

export type JavaAvailability = { available: true } | { available: false; reason: string; mustFail: boolean };

export function javaAvailability(): JavaAvailability {
  try {
    execFileSync('java', ['-version'], { stdio: 'ignore' });
    return { available: true };
  } catch {
    return {
      available: false,
      mustFail: IS_CI,
      reason: `java not found: install it with \`apt-get install -y default-jre-headless\`${IS_CI ? ' (CI is set, so this is a failure)' : ' (skipping the HTML checker)'}`,
    };
  }
}

export interface VnuMessage {
  type: string;
  subType?: string;
  url: string;
  message: string;
  extract?: string;
  lastLine?: number;
}

/** Checks the files in one JVM run (it takes seconds to start); returns the errors, as "file:line: message". */
export async function vnuErrors(files: string[]): Promise<string[]> {
  const { stderr } = await promisify(execFile)(
    'java',
    ['-Xss4m', '-jar', VNU_JAR, '--format', 'json', '--exit-zero-always', ...files],
    { maxBuffer: 64 * 2 ** 20, timeout: 120_000 },
  );
  const { messages } = JSON.parse(stderr) as { messages: VnuMessage[] };
  return messages
    .filter((m) => m.type === 'error' || (m.type === 'non-document-error' && m.subType !== 'warning'))
    .map((m) => `${m.url.replace(/^file:/, '')}:${m.lastLine ?? '?'}: ${m.message}`);
}
