// The fake GitHub's side of the projects (docs/upstreams.md#projects): the repositories a profile pins or
// shows as popular, the profile page's section in GitHub's markup, the GraphQL answer and the REST answer
// of one repository, exactly in the wire formats the clients read (datasets/projects/).

/** One repository as the fake GitHub holds it; its counts exact. */
export interface FakeRepository {
  owner: string;
  name: string;
  description: string | null;
  language: { name: string; color: string | null } | null;
  stars: number;
  forks: number;
}

/** How the projects' upstreams answer: the profile page, GraphQL's projects query and REST alike. */
export type ProjectsMode =
  | 'ok'
  | 'down'
  | 'slow'
  | 'server-error'
  | 'rate-limited'
  | 'markup-drift' // the page's items renamed; GraphQL without pinnedItems
  | 'unknown-account'
  | 'no-pins' // nothing pinned: the popular repositories
  | 'no-repos'; // no public repository at all

export interface FakeProjects {
  mode: ProjectsMode;
  /** The pinned repositories, in the profile's order; `gist` adds a pinned gist after the first. */
  pinned: FakeRepository[];
  /** The account's own public repositories, most stars first (the popular list). */
  popular: FakeRepository[];
  gist: boolean;
  /** The profile page answers exactly this 200 body (a hostile page), whatever the mode. */
  page?: string;
}

/** The simulated profile: a repository of another owner, a description with markup and spaces, an abbreviated count. */
export function defaultProjects(account: string): FakeProjects {
  const popular: FakeRepository[] = [
    {
      owner: account,
      name: 'static-plus-cron',
      description: 'A publisher that   fetches on a schedule\n and serves JSON snapshots.',
      language: { name: 'TypeScript', color: '#3178c6' },
      stars: 1234,
      forks: 56,
    },
    {
      owner: account,
      name: 'tiny-parser',
      description: 'Reads <one> tag at a time & never backtracks.',
      language: { name: 'Rust', color: '#dea584' },
      stars: 310,
      forks: 0,
    },
    { owner: account, name: 'dotfiles', description: null, language: null, stars: 0, forks: 0 },
  ];
  return {
    mode: 'ok',
    pinned: [
      {
        owner: 'octo-org',
        name: 'hello-world',
        description: 'My first repository on GitHub!',
        language: { name: 'Python', color: '#3572A5' },
        stars: 2612,
        forks: 12345,
      },
      popular[1]!,
      popular[0]!,
    ],
    popular,
    gist: true,
  };
}

const escape = (text: string) =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** GitHub's way of printing a count on the profile: digits with commas, abbreviated from 10,000 (`12.3k`). */
export function pageCount(n: number): string {
  if (n >= 1_000_000) return `${(Math.floor(n / 100_000) / 10).toFixed(1)}m`;
  if (n >= 10_000) return `${(Math.floor(n / 100) / 10).toFixed(1)}k`;
  return n.toLocaleString('en-US');
}

function itemHtml(repo: FakeRepository, account: string, drift: boolean): string {
  const other = repo.owner.toLowerCase() !== account.toLowerCase();
  const path = `/${repo.owner}/${repo.name}`;
  const count = (n: number, what: 'stargazers' | 'forks', icon: string) =>
    n === 0
      ? ''
      : `\n      <a href="${escape(`${path}/${what}`)}" class="pinned-item-meta Link--muted"><svg aria-label="${icon}" role="img" height="16" viewBox="0 0 16 16" width="16" class="octicon octicon-${icon === 'stars' ? 'star' : 'repo-forked'}"><path d="M8 .25a.75.75 0 0 1 .673.418Z"></path></svg>
        ${pageCount(n)}</a>`;
  return `<li class="mb-3 d-flex flex-content-stretch col-12 col-md-6 col-lg-6">
<div class="Box d-flex pinned-item-list-item p-3 width-full public source">
<div class="${drift ? 'pinned-card-content' : 'pinned-item-list-item-content'}">
  <span data-view-component="true" class="position-relative"><a id="${Math.abs(hash(path))}" href="${escape(path)}" class="Link mr-1 text-bold wb-break-word">
    ${other ? `<span class="owner text-normal">${escape(repo.owner)}/</span>` : ''}<span class="repo">${escape(repo.name)}</span></a></span>${
      repo.description === null
        ? ''
        : `
  <p class="pinned-item-desc color-fg-muted text-small mt-2 mb-0">
    ${escape(repo.description)}
  </p>`
    }
  <p class="mb-0 mt-2 f6 color-fg-muted">${
    repo.language === null
      ? ''
      : `
    <span class="d-inline-block mr-3"><span class="repo-language-color"${repo.language.color === null ? '' : ` style="background-color: ${escape(repo.language.color)}"`}></span>
    <span itemprop="programmingLanguage">${escape(repo.language.name)}</span></span>`
  }${count(repo.stars, 'stargazers', 'stars')}${count(repo.forks, 'forks', 'forks')}
  </p>
</div></div></li>`;
}

const GIST_ITEM = `<li class="mb-3 d-flex flex-content-stretch col-12 col-md-6 col-lg-6">
<div class="Box d-flex pinned-item-list-item p-3 width-full public gist">
<div class="pinned-item-list-item-content">
  <span class="position-relative"><a href="https://gist.github.com/octocat/0123456789abcdef" class="Link mr-1 text-bold wb-break-word"><span class="repo">notes.md</span></a></span>
  <p class="pinned-item-desc color-fg-muted text-small mt-2 mb-0">Scratch notes</p>
</div></div></li>`;

function hash(text: string): number {
  let h = 0;
  for (let i = 0; i < text.length; i++) h = (Math.imul(h, 31) + text.charCodeAt(i)) | 0;
  return h;
}

/** The public profile page of `account`, its projects section as GitHub draws it (only the parts read). */
export function renderProfileHtml(account: string, projects: FakeProjects): string {
  const drift = projects.mode === 'markup-drift';
  const pinned = projects.mode === 'no-pins' || projects.mode === 'no-repos' ? [] : projects.pinned;
  const list = pinned.length > 0 ? pinned : projects.mode === 'no-repos' ? [] : projects.popular;
  const items = list.map((r) => itemHtml(r, account, drift));
  if (pinned.length > 0 && projects.gist) items.splice(1, 0, GIST_ITEM);
  const section =
    list.length === 0
      ? `<div class="blankslate"><p>${escape(account)} doesn’t have any public repositories yet.</p></div>`
      : `<div class="js-pinned-items-reorder-container">
<h2 class="f4 mb-2 text-normal">
      ${pinned.length > 0 ? 'Pinned' : 'Popular repositories'}
</h2>
<ol class="d-flex flex-wrap list-style-none gutter-condensed mb-2 js-pinned-items-reorder-list">
${items.join('\n')}
</ol></div>`;
  return `<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>${escape(account)} (The Octocat) · GitHub</title></head>
<body><div class="application-main"><main>
<div class="h-card"><h1 class="vcard-names"><span class="p-nickname vcard-username">${escape(account)}</span></h1></div>
<div class="mt-4">
${section}
</div>
</main></div></body></html>`;
}

/** A repository as a GraphQL node (`... on Repository { … }`). */
const node = (r: FakeRepository) => ({
  name: r.name,
  owner: { login: r.owner },
  description: r.description,
  primaryLanguage: r.language,
  stargazerCount: r.stars,
  forkCount: r.forks,
});

/** The GraphQL `data` of the projects query: pinned nodes (a gist as `{}`) and the popular ones. */
export function projectsGraphqlData(projects: FakeProjects): unknown {
  if (projects.mode === 'markup-drift') return { user: { repositories: { nodes: [] } } };
  const pinned = projects.mode === 'no-pins' || projects.mode === 'no-repos' ? [] : projects.pinned.map(node);
  if (pinned.length > 0 && projects.gist) pinned.splice(1, 0, {} as ReturnType<typeof node>);
  const popular = projects.mode === 'no-repos' ? [] : projects.popular.map(node);
  return { user: { pinnedItems: { nodes: pinned }, repositories: { nodes: popular } } };
}

/** `GET /repos/<owner>/<name>`: the REST answer of a repository the fake knows, or undefined (a 404). */
export function repositoryJson(projects: FakeProjects, owner: string, name: string): unknown {
  const repo = [...projects.pinned, ...projects.popular].find(
    (r) => r.owner.toLowerCase() === owner.toLowerCase() && r.name.toLowerCase() === name.toLowerCase(),
  );
  if (repo === undefined) return undefined;
  return {
    id: Math.abs(hash(`${owner}/${name}`)),
    name: repo.name,
    full_name: `${repo.owner}/${repo.name}`,
    owner: { login: repo.owner },
    html_url: `https://github.com/${repo.owner}/${repo.name}`,
    description: repo.description,
    fork: false,
    language: repo.language?.name ?? null,
    stargazers_count: repo.stars,
    watchers_count: repo.stars,
    forks_count: repo.forks,
  };
}

/**
 * A sign-in page where the profile should be (GitHub asks a crawler to sign in): no projects section,
 * and the no-repository sentence only where a browser does not show it (a comment, a script, a style, an
 * attribute, a template, the title, a `hidden` element). It is not an empty account: the markup changed.
 */
export function signInPage(account: string): string {
  const sentence = `${escape(account)} doesn’t have any public repositories yet.`;
  return `<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><meta name="description" content="${sentence}">
<title>Sign in to GitHub · ${sentence}</title>
<style>.blankslate::after { content: "${sentence}"; }</style>
<script>window.emptyProfile = "${sentence}";</script></head>
<body class="logged-out session-authentication"><div class="application-main"><main>
<!-- <div class="blankslate"><p>${sentence}</p></div> -->
<div class="auth-form px-3" id="login"><h1>Sign in to GitHub</h1>
<form action="/session" method="post"><label for="login_field">Username or email address</label>
<input type="text" name="login" id="login_field" placeholder="${sentence}">
<input type="submit" name="commit" value="Sign in"></form>
<template id="empty-profile"><p>${sentence}</p></template>
<p hidden>${sentence}</p>
<noscript><p>${sentence}</p></noscript>
</div></main></div></body></html>`;
}
