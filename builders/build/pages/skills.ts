// /skills and its twin: `## <Group>` then `- <Skill>` or `- <Skill>: <note>` lines; the same groups as
// data in /skills.json.
import type { Artifact, BuildContext } from '../artifact.ts';
import type { Skills as SkillsDocument } from '../../contract/payload-types.ts';
import type { SkillGroup } from '../content/site-content.ts';
import { renderMarkdown } from '../content/markdown.ts';
import { twin } from '../content/twins.ts';
import { absoluteUrl, PAGES } from '../../contract/pages.ts';
import { frameOf, renderLayout } from './layout.ts';

export const SKILLS_DESCRIPTION = 'What I work with, grouped by area.';

export function skillsBody(groups: SkillGroup[]): string {
  const sections = groups.map(
    (g) => `## ${g.group}\n\n${g.skills.map((s) => (s.note ? `- ${s.name}: ${s.note}` : `- ${s.name}`)).join('\n')}`,
  );
  return ['# Skills', ...sections].join('\n\n');
}

/** /skills.json (schemas/Skills.schema.json): the groups as the page lists them. */
export function skillsDocument(ctx: BuildContext, groups: SkillGroup[]): SkillsDocument {
  return {
    url: absoluteUrl(ctx.config.siteUrl, PAGES.skills.path),
    groups: groups.map((g) => ({ name: g.group, skills: g.skills })),
  };
}

export function renderSkills(ctx: BuildContext, groups: SkillGroup[]): Artifact[] {
  const body = skillsBody(groups);
  const html = renderLayout({
    ...frameOf(ctx),
    page: PAGES.skills,
    title: 'Skills',
    description: SKILLS_DESCRIPTION,
    nav: 'skills',
    main: renderMarkdown(body),
  });
  return [
    { file: PAGES.skills.htmlFile, body: html },
    {
      file: PAGES.skills.markdownFile,
      body: twin(
        { title: 'Skills', description: SKILLS_DESCRIPTION, url: absoluteUrl(ctx.config.siteUrl, PAGES.skills.path) },
        body,
      ),
    },
  ];
}
