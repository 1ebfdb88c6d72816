// What each page of a PDF Chromium printed shows: whether it draws any text. A page object
// (`/Type /Page`) names its content streams (`/Contents 12 0 R` or `[12 0 R 14 0 R]`); each stream is
// read (inflated when `/FlateDecode`) and a page shows text when a stream holds a text-showing operator
// (`Tj`, `TJ`, `'` or `"`, PDF 32000-1 §9.4.3). Enough for the PDFs Skia writes, not a general reader.
import { inflateSync } from 'node:zlib';

/** The body of each object of `pdf` by its number. */
function objects(pdf: Buffer): Map<number, { dict: string; stream: Buffer | null }> {
  const text = pdf.toString('latin1');
  const found = new Map<number, { dict: string; stream: Buffer | null }>();
  const header = /(\d+) 0 obj\s*/g;
  for (let m = header.exec(text); m !== null; m = header.exec(text)) {
    const start = m.index + m[0].length;
    const end = text.indexOf('endobj', start);
    const body = text.slice(start, end);
    const streamAt = body.indexOf('stream');
    if (streamAt === -1) {
      found.set(Number(m[1]), { dict: body, stream: null });
      continue;
    }
    const dict = body.slice(0, streamAt);
    const length = /\/Length (\d+)/.exec(dict);
    let from = start + streamAt + 'stream'.length;
    if (text[from] === '\r') from++;
    if (text[from] === '\n') from++;
    const bytes = pdf.subarray(from, length ? from + Number(length[1]) : start + body.lastIndexOf('endstream'));
    found.set(Number(m[1]), { dict, stream: /\/FlateDecode/.test(dict) ? inflateSync(bytes) : bytes });
  }
  return found;
}

/** For each page of `pdf`, in the order the objects come (Chromium writes them in page order), whether it shows text. */
export function pagesWithText(pdf: Buffer): boolean[] {
  const all = objects(pdf);
  const pages = [...all.values()].filter((o) => /\/Type\s*\/Page(?![s\w])/.test(o.dict));
  return pages.map((page) => {
    const contents = /\/Contents\s*(\[[^\]]*\]|\d+ 0 R)/.exec(page.dict)?.[1] ?? '';
    const refs = [...contents.matchAll(/(\d+) 0 R/g)].map((r) => Number(r[1]));
    return refs.some((ref) => {
      const stream = all.get(ref)?.stream;
      return stream !== null && stream !== undefined && /(?:\]|\)|>)\s*(?:TJ|Tj|'|")/.test(stream.toString('latin1'));
    });
  });
}
