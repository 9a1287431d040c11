import { linkMark } from './tree.ts';
import type { Manifest, RepositoryScan } from './types.ts';

const maxListedDependencies = 40;
const maxListedLinks = 40;

/** A Markdown summary of a scan (Languages, Manifests, Entry points, Tests, Links, Tree) for a model prompt. */
export function scanToMarkdown(scan: RepositoryScan): string {
  const none = '_None found._';
  const languages = scan.languages.map(
    (share) => `- ${share.language}: ${share.files} files (${share.percent}%)`,
  );
  const entries = scan.entry_points.map((path) => `- \`${path}\``);
  const tests = [
    `- Frameworks: ${scan.tests.frameworks.join(', ') || 'none detected'}`,
    `- Test files: ${scan.tests.files}`,
    `- Test folders: ${scan.tests.dirs.map((dir) => `\`${dir}\``).join(', ') || 'none'}`,
  ];
  return [
    `# Repository scan of \`${scan.root}\``,
    `${scan.files_total} files (git-ignored files excluded).`,
    '## Languages',
    languages.join('\n') || none,
    '## Manifests',
    scan.manifests.map(manifestMarkdown).join('\n') || none,
    '## Entry points',
    entries.join('\n') || none,
    '## Tests',
    tests.join('\n'),
    ...linksMarkdown(scan.links),
    '## Tree',
    `\`\`\`text\n${scan.tree}\n\`\`\``,
    '',
  ].join('\n\n');
}

function manifestMarkdown(manifest: Manifest): string {
  const title = `- \`${manifest.path}\` (${manifest.kind})${manifest.name ? `: ${manifest.name}` : ''}`;
  const lines = [title];
  const scripts = Object.entries(manifest.scripts ?? {});
  if (scripts.length > 0)
    lines.push(`  - Scripts: ${scripts.map(([name, command]) => `\`${name}\` → \`${command}\``).join('; ')}`);
  const shown = manifest.dependencies.slice(0, maxListedDependencies);
  const more = manifest.dependencies.length - shown.length;
  if (shown.length > 0)
    lines.push(`  - Dependencies: ${shown.join(', ')}${more > 0 ? `, and ${more} more` : ''}`);
  return lines.join('\n');
}

/** The links, named only: the scan neither read nor followed them, and says so. */
function linksMarkdown(links: readonly string[]): string[] {
  if (links.length === 0) return [];
  const shown = links.slice(0, maxListedLinks).map((link) => `- \`${link}\`${linkMark}`);
  const more = links.length - shown.length;
  if (more > 0) shown.push(`- and ${more} more`);
  return [
    '## Symbolic links',
    'Not read and not followed by this scan (they may point outside the repository):',
    shown.join('\n'),
  ];
}
