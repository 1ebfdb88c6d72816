// The top of the home page (docs/site.md#the-top-of-the-home-page): the owner's picture, name, tagline,
// role and place, and the profile links with their icons, read first as a portfolio is. It holds from a
// 320 px phone (the picture above the name) to a wide screen (beside it).
import { escapeHtml } from '../../render/html.ts';
import type { PublishedAvatar } from '../artifact.ts';
import { profileLinkHtml, type ShownLink } from './profile-links.ts';

export interface ProfileHeader {
  name: string;
  tagline: string;
  location: string;
  /** The role line as HTML (the résumé's current role and its link), or ''. */
  roleHtml: string;
  avatar: PublishedAvatar | null;
  /** The avatar's src as the page writes it (sitePath of its path). */
  avatarSrc: string;
  links: readonly ShownLink[];
}

/** Drawn at this size, in CSS pixels: the attributes reserve its room before it loads. */
const AVATAR_SIZE = 112;

export function profileHeaderHtml(p: ProfileHeader): string {
  const picture =
    p.avatar === null
      ? ''
      : `<img class="avatar u-photo" src="${escapeHtml(p.avatarSrc)}" alt="${escapeHtml(p.name)}" width="${AVATAR_SIZE}" height="${AVATAR_SIZE}">\n`;
  // An h-card (microformats2): what IndieWeb readers and rel=me verifiers take as the owner, their name,
  // picture, place and links (each link's u-url, profileLinkHtml).
  return `<header class="profile h-card">
${picture}<div class="profile-text">
<h1 class="p-name">${escapeHtml(p.name)}</h1>
<p class="lede p-note">${escapeHtml(p.tagline)}</p>
${p.roleHtml}<p class="meta p-locality">${escapeHtml(p.location)}</p>
<ul class="profile-links" aria-label="Profiles and links">${p.links.map(profileLinkHtml).join('')}</ul>
</div>
</header>`;
}
