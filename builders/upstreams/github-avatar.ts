// The owner's GitHub picture (docs/site.md#the-owners-picture), fetched once at build time so that the
// site serves it itself (img-src 'self'): GET ${GITHUB_WEB_URL}/<account>.png. github.com answers with a
// redirect to its picture host (avatars.githubusercontent.com); one redirect is followed, to an https
// URL or to the same origin (never to a lower scheme), and the picture must be at most 2 MiB, a PNG,
// JPEG or WebP by its bytes, and within the pixels bound by its header (builders/lib/image-type.ts). Anything else
// is an UpstreamError: the build says so in one line and the pages go without a picture.
import { UpstreamError } from '../lib/errors.ts';
import { imageTypeOf, MAX_AVATAR_BYTES, pictureSizeFault, type ImageType, type Picture } from '../lib/image-type.ts';
import { readBody, userAgent } from './http.ts';

export interface AvatarRequest {
  githubWebUrl: string;
  account: string;
  siteUrl: string;
  timeoutMs: number;
}

/** What pictures a fetch takes: their types by their bytes, named in a refusal, and their largest size. */
export interface PictureKinds {
  typeOf: (bytes: Uint8Array) => ImageType | null;
  /** "a PNG, JPEG or WebP". */
  named: string;
  /** The request's Accept header. */
  accept: string;
  maxBytes: number;
}

/** The owner's picture: PNG, JPEG or WebP, at most 2 MiB. */
const AVATAR_KINDS: PictureKinds = {
  typeOf: imageTypeOf,
  named: 'a PNG, JPEG or WebP',
  accept: 'image/png,image/jpeg,image/webp',
  maxBytes: MAX_AVATAR_BYTES,
};

/** RFC 9110 §15.4: the statuses whose Location a client may follow for a GET. */
const REDIRECTS = new Set([301, 302, 303, 307, 308]);

/** The account's GitHub picture: GET ${GITHUB_WEB_URL}/<account>.png, by the rules of fetchPicture. */
export function fetchGithubAvatar(request: AvatarRequest): Promise<Picture> {
  return fetchPicture(`${request.githubWebUrl}/${encodeURIComponent(request.account)}.png`, request, 'github-avatar');
}

/**
 * One picture, once per build: the runtime's fetch with redirects in hand, under one deadline for both hops.
 * Also the résumé's `basics.image` when it is an https URL (docs/site.md#resumejson), by the same rules.
 */
export async function fetchPicture(
  first: string,
  request: Pick<AvatarRequest, 'siteUrl' | 'timeoutMs'>,
  upstream: 'github-avatar' | 'resume-image' | 'writing-picture',
  kinds: PictureKinds = AVATAR_KINDS,
): Promise<Picture> {
  const { timeoutMs } = request;
  const headers = { 'user-agent': userAgent(request.siteUrl), accept: kinds.accept };
  const deadline = new AbortController();
  const timer = setTimeout(
    () => deadline.abort(new DOMException(`The deadline of ${timeoutMs} ms passed`, 'TimeoutError')),
    timeoutMs,
  );
  const fail = (reason: string, cause?: unknown) =>
    new UpstreamError(upstream, reason, cause === undefined ? undefined : { cause });
  const discard = (response: Response) => void response.body?.cancel().catch(() => undefined);
  try {
    let url = first;
    for (let hop = 0; ; hop++) {
      const what = `GET ${url}`;
      const response = await fetch(url, { headers, signal: deadline.signal, redirect: 'manual' }).catch(
        (error: unknown) => {
          throw fail(deadline.signal.aborted ? `${what} timed out after ${timeoutMs} ms` : `${what} failed`, error);
        },
      );
      if (REDIRECTS.has(response.status)) {
        discard(response);
        const location = response.headers.get('location');
        const next = location === null ? null : URL.parse(location, url);
        if (hop > 0) throw fail(`${what} redirected again (${response.status}); one redirect is followed`);
        if (next === null) throw fail(`${what} redirected (${response.status}) to no usable Location`);
        if (next.protocol !== 'https:' && next.origin !== new URL(url).origin)
          throw fail(`${what} redirected to ${next.origin}, not https; not followed`);
        url = next.href;
        continue;
      }
      if (response.status !== 200) {
        discard(response);
        throw fail(`${what} answered ${response.status}`);
      }
      const bytes = await readBody(upstream, what, response, {
        maxBytes: kinds.maxBytes,
        signal: deadline.signal,
        timeoutMs,
      });
      const type = kinds.typeOf(bytes);
      if (type === null) throw fail(`${what}: the answer is not ${kinds.named} picture`);
      const fault = pictureSizeFault(bytes);
      if (fault !== null) throw fail(`${what}: the picture ${fault}`);
      return { bytes, type };
    }
  } finally {
    clearTimeout(timer);
  }
}
