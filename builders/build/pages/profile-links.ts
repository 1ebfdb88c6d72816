// The profile's links as the top of the home page shows them (docs/site.md#profile-links): each link to a
// known profile site with that site's icon, and `rel="me"` on every link that leaves the site, so that a
// Mastodon instance (and any rel=me verifier) finds the link back. The icons are inline SVG taken at
// build time from two icon sets in the npm registry, never a font or a CDN: Simple Icons (CC0-1.0, the
// brands' own marks) and, for the two it lacks (LinkedIn asked for its removal; e-mail is no brand),
// Bootstrap Icons (MIT).
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { escapeHtml } from '../../render/html.ts';

export type ProfileSiteId =
  'github' | 'gitlab' | 'linkedin' | 'mastodon' | 'bluesky' | 'stackoverflow' | 'x' | 'youtube' | 'orcid' | 'email';

interface ProfileSite {
  /** The site's name, for the icon's tooltip-free reading: the link's own label is its accessible name. */
  name: string;
  /** The icon: a file of a registry package, `<package>/<path>.svg`. */
  icon: string;
  /** Host names of the site (a `www.` form matches too); none for Mastodon and e-mail, found otherwise. */
  hosts: readonly string[];
}

const SITES: Readonly<Record<ProfileSiteId, ProfileSite>> = {
  github: { name: 'GitHub', icon: 'simple-icons/icons/github.svg', hosts: ['github.com'] },
  gitlab: { name: 'GitLab', icon: 'simple-icons/icons/gitlab.svg', hosts: ['gitlab.com'] },
  linkedin: { name: 'LinkedIn', icon: 'bootstrap-icons/icons/linkedin.svg', hosts: ['linkedin.com'] },
  mastodon: { name: 'Mastodon', icon: 'simple-icons/icons/mastodon.svg', hosts: [] },
  bluesky: { name: 'Bluesky', icon: 'simple-icons/icons/bluesky.svg', hosts: ['bsky.app'] },
  stackoverflow: { name: 'Stack Overflow', icon: 'simple-icons/icons/stackoverflow.svg', hosts: ['stackoverflow.com'] },
  x: { name: 'X', icon: 'simple-icons/icons/x.svg', hosts: ['x.com', 'twitter.com'] },
  youtube: {
    name: 'YouTube',
    icon: 'simple-icons/icons/youtube.svg',
    hosts: ['youtube.com', 'm.youtube.com', 'youtu.be'],
  },
  orcid: { name: 'ORCID', icon: 'simple-icons/icons/orcid.svg', hosts: ['orcid.org'] },
  email: { name: 'E-mail', icon: 'bootstrap-icons/icons/envelope-fill.svg', hosts: [] },
};

export const PROFILE_SITES = Object.keys(SITES) as ProfileSiteId[];

/** Sites whose profile paths also read /@name but are not Mastodon instances. */
const NOT_MASTODON = ['medium.com', 'tiktok.com', 'threads.net', 'threads.com'];
/** A Mastodon profile: /@user on its instance (user: letters, digits, underscores), or /@user@other.host. */
const MASTODON_PATH = /^\/@[A-Za-z0-9_]+(?:@[A-Za-z0-9.-]+)?\/?$/;

const bare = (host: string) => host.toLowerCase().replace(/^www\./, '');

/** The profile site a URL belongs to, or null: by host, a LinkedIn country subdomain, a Mastodon /@user path, or mailto:. */
export function profileSiteOf(url: string): ProfileSiteId | null {
  const parsed = URL.parse(url);
  if (parsed === null) return null;
  if (parsed.protocol === 'mailto:') return 'email';
  if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') return null;
  const host = bare(parsed.hostname);
  for (const id of PROFILE_SITES) if (SITES[id].hosts.includes(host)) return id;
  if (host.endsWith('.linkedin.com')) return 'linkedin';
  if (MASTODON_PATH.test(parsed.pathname) && !NOT_MASTODON.includes(host)) return 'mastodon';
  return null;
}

const require = createRequire(import.meta.url);
const ICONS = new Map<ProfileSiteId, string>();

/**
 * The site's icon as inline SVG: the set's path(s) and viewBox, in the link's colour (currentColor),
 * hidden from assistive technology (the link's label names it). Read once per process.
 */
export function profileIcon(id: ProfileSiteId): string {
  let svg = ICONS.get(id);
  if (svg === undefined) {
    const source = readFileSync(require.resolve(SITES[id].icon), 'utf8');
    const viewBox = /viewBox="([\d. ]+)"/.exec(source)?.[1];
    const paths = [...source.matchAll(/<path\b[^>]*?\sd="([^"]+)"/g)].map((m) => m[1]!);
    if (viewBox === undefined || paths.length === 0) throw new Error(`no icon in ${SITES[id].icon}`);
    svg =
      `<svg class="icon" viewBox="${viewBox}" width="16" height="16" fill="currentColor" aria-hidden="true">` +
      `${paths.map((d) => `<path d="${escapeHtml(d)}"/>`).join('')}</svg>`;
    ICONS.set(id, svg);
  }
  return svg;
}

export interface ShownLink {
  label: string;
  /** The href as the page writes it (a path on this site, or an absolute URL). */
  href: string;
  /** True when it leaves the site: a profile link, with rel="me". */
  external: boolean;
}

/** One list item: the icon of a known profile site, the label, and rel="me" on a link that leaves the site. */
export function profileLinkHtml(link: ShownLink): string {
  const site = link.external ? profileSiteOf(link.href) : null;
  return (
    `<li><a class="${link.href.startsWith('mailto:') ? 'u-email' : 'u-url'}" href="${escapeHtml(link.href)}"${link.external ? ' rel="me"' : ''}${site === null ? '' : ` data-profile-site="${site}"`}>` +
    `${site === null ? '' : profileIcon(site)}${escapeHtml(link.label)}</a></li>`
  );
}
