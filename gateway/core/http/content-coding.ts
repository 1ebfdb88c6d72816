// Accept-Encoding negotiation (RFC 9110 §12.5.3) between the three codings every text file is kept in.
// Results are memoised per header value: browsers and load generators send a handful of distinct values.

export type Coding = 'br' | 'gzip' | 'identity';

const MEMO_LIMIT = 256;
const memo = new Map<string, readonly Coding[]>();
const IDENTITY_ONLY: readonly Coding[] = ['identity'];

/**
 * The codings the client accepts, best first. "identity" is always last and always present: RFC 9110
 * lets a server send it unless it is explicitly refused, and a 406 for a public page helps nobody.
 */
export function acceptedCodings(header: string | undefined): readonly Coding[] {
  if (header === undefined || header === '') return IDENTITY_ONLY;
  const known = memo.get(header);
  if (known !== undefined) return known;
  const q: Record<'br' | 'gzip', number> = { br: 0, gzip: 0 };
  let wildcard: number | undefined;
  const explicit = new Set<string>();
  for (const part of header.split(',')) {
    const [name = '', ...params] = part.split(';');
    const coding = name.trim().toLowerCase();
    let weight = 1;
    for (const param of params) {
      const m = /^\s*q\s*=\s*([01](?:\.\d{0,3})?)\s*$/i.exec(param);
      if (m) weight = Number(m[1]);
    }
    if (coding === 'br') ((q.br = weight), explicit.add('br'));
    else if (coding === 'gzip' || coding === 'x-gzip') ((q.gzip = Math.max(q.gzip, weight)), explicit.add('gzip'));
    else if (coding === '*') wildcard = weight;
  }
  if (wildcard !== undefined) {
    if (!explicit.has('br')) q.br = wildcard;
    if (!explicit.has('gzip')) q.gzip = wildcard;
  }
  const result: Coding[] = (['br', 'gzip'] as const).filter((c) => q[c] > 0).sort((a, b) => q[b] - q[a]);
  result.push('identity');
  if (memo.size >= MEMO_LIMIT) memo.clear();
  memo.set(header, result);
  return result;
}
