// The owner's YAML (a page's front matter, skills.yaml), read within bounds. A YAML mistake is the
// owner's to fix, so every way it can fail is a ContentError naming the file (exit 2), never an
// exception of the parser (exit 70): a syntax error, a text too large, nesting too deep for the parser's
// recursion (200,000 levels took 4.6 s and 436 MB, then overflowed the stack), or aliases that expand
// to more than the text holds (a "billion laughs" bomb).
import { Composer, LineCounter, Parser, type CST } from 'yaml';
import { ContentError } from '../../lib/errors.ts';

/** Far above any front matter or skills list (the stock ones are under 2 kB). */
export const MAX_YAML_BYTES = 64 * 1024;
/** Collections within collections: the stock content nests 3 deep (skills: a list of groups of lists of maps). */
export const MAX_YAML_DEPTH = 32;
/**
 * yaml's own guard against alias expansion (its default too, said here so that it stays): an alias is
 * refused once the aliases resolved, times the nodes each one copies, pass it.
 */
export const MAX_YAML_ALIAS_COUNT = 100;

/**
 * The deepest flow nesting (`[` and `{`) of `text` outside quoted scalars, in one pass that allocates
 * nothing: flow collections nested thousands deep cost the concrete-syntax parser seconds and tens of
 * megabytes before the exact count below could see them. Brackets inside plain scalars or comments may
 * count too; that only ever refuses text with more than MAX_YAML_DEPTH of them open at once.
 */
function flowDepth(text: string): number {
  let depth = 0;
  let deepest = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '"') {
      for (i++; i < text.length && text[i] !== '"'; i++) if (text[i] === '\\') i++;
    } else if (c === "'") {
      // '' is a quote inside a single-quoted scalar: the loop simply goes on past it.
      for (i++; i < text.length && text[i] !== "'"; i++);
    } else if (c === '[' || c === '{') {
      if (++depth > deepest) deepest = depth;
    } else if ((c === ']' || c === '}') && depth > 0) {
      depth--;
    }
  }
  return deepest;
}

/**
 * How deep `token` nests collections, walked with a stack of its own: the concrete syntax tree is made
 * without recursion, and counting its depth must not recurse either. Stops counting past `limit`.
 */
function collectionDepth(token: CST.Token, limit: number): number {
  let deepest = 0;
  const stack: Array<[CST.Token | undefined, number]> = [[token, 0]];
  while (stack.length > 0) {
    const [node, above] = stack.pop()!;
    if (node === undefined) continue;
    let depth = above;
    if (node.type === 'block-map' || node.type === 'block-seq' || node.type === 'flow-collection') {
      depth = above + 1;
      if (depth > deepest) deepest = depth;
      if (deepest > limit) return deepest;
      for (const item of node.items) {
        if ('key' in item) stack.push([item.key ?? undefined, depth]);
        stack.push([item.value, depth]);
      }
    } else if (node.type === 'document') {
      stack.push([node.value, depth]);
    }
  }
  return deepest;
}

/**
 * The value of the YAML `text` (one document), `what` naming it in a refusal ("front matter"), which
 * starts on line `firstLine` of `file`. Throws a ContentError for `file` on anything but a value within
 * the bounds above.
 */
export function parseContentYaml(text: string, file: string, what = 'YAML', firstLine = 1): unknown {
  const bytes = Buffer.byteLength(text);
  if (bytes > MAX_YAML_BYTES)
    throw new ContentError(file, `its ${what} is ${bytes} bytes, more than ${MAX_YAML_BYTES}; shorten it`);
  if (flowDepth(text) > MAX_YAML_DEPTH)
    throw new ContentError(file, `its ${what} nests lists and mappings deeper than ${MAX_YAML_DEPTH} levels`);
  const lines = new LineCounter();
  const tokens = [...new Parser(lines.addNewLine).parse(text)];
  for (const token of tokens)
    if (collectionDepth(token, MAX_YAML_DEPTH) > MAX_YAML_DEPTH)
      throw new ContentError(file, `its ${what} nests lists and mappings deeper than ${MAX_YAML_DEPTH} levels`);
  const documents = [...new Composer({ prettyErrors: false }).compose(tokens, true, text.length)];
  if (documents.length > 1)
    throw new ContentError(file, `its ${what} holds more than one YAML document (a second --- line?)`);
  const document = documents[0]!;
  const error = document.errors[0];
  if (error !== undefined) {
    const at = lines.linePos(error.pos[0]);
    // The parser's first line says what is wrong; the lines after it quote the text, which the owner has.
    const reason = error.message.split('\n')[0]!;
    throw new ContentError(
      file,
      `its ${what} is not valid YAML at line ${at.line + firstLine - 1}, column ${at.col}: ${reason}`,
    );
  }
  try {
    return document.toJS({ maxAliasCount: MAX_YAML_ALIAS_COUNT });
  } catch (thrown) {
    // yaml's refusals of an alias: one that expands too far, or one whose anchor is not set before it.
    if (!(thrown instanceof ReferenceError)) throw thrown;
    throw new ContentError(
      file,
      /excessive alias count/i.test(thrown.message)
        ? `its ${what} uses aliases (*name) that expand to more than ${MAX_YAML_ALIAS_COUNT} copies; write the values out`
        : `its ${what}: ${thrown.message}`,
    );
  }
}
