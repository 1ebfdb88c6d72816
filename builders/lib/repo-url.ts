/**
 * A file of the repository, named from the module that reads it: a module's source lies two folders below
 * the root (`builders/lib/config.ts`), its bundle one (`.build/build.mjs`), so the same line finds the same
 * file either way.
 */
export function repoUrl(path: string, moduleUrl: string): URL {
  return new URL((moduleUrl.includes('/.build/') ? '../' : '../../') + path, moduleUrl);
}
