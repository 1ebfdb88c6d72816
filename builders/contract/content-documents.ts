// The types of the site's content documents (contract/pages.ts CONTENT_DOCUMENTS), as their schemas under
// schemas/ define them: the build writes these shapes and validates them; the CLI reads them after its
// own check against the same schemas. Types only: nothing here runs.

/** schemas/JsonFeed.schema.json: one item per published writing. */
export interface FeedItem {
  id: string;
  url: string;
  title: string;
  summary: string;
  date_published: string;
  content_html: string;
  content_text: string;
}

/** schemas/JsonFeed.schema.json: the members of a JSON Feed 1.1 the site writes. */
export interface JsonFeed {
  version: 'https://jsonfeed.org/version/1.1';
  title: string;
  home_page_url: string;
  feed_url: string;
  description: string;
  language: string;
  authors: Array<{ name: string; url: string }>;
  items: FeedItem[];
}

/** schemas/Profile.schema.json */
export interface ProfileDocument {
  url: string;
  name: string;
  tagline: string;
  location: string;
  github: string;
  description: string;
  about: string[];
  /** The résumé's current role, as the home page shows it; absent without one. */
  role?: string;
  /** site/projects.yaml's projects (absent on a site built before they were published here). */
  ownerProjects?: Array<{ title: string; url: string; description: string | null }>;
  links: Array<{ label: string; url: string }>;
}

/** schemas/Skills.schema.json */
export interface SkillsDocument {
  url: string;
  groups: Array<{ name: string; skills: Array<{ name: string; note?: string }> }>;
}
