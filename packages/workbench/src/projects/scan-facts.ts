import type { RepositoryScan } from '../scan/index.ts';

/** The facts of a scan that a contributor must respect, as constitution bullets (no AI involved). */
export function scanFacts(scan: RepositoryScan): string[] {
  const facts: string[] = [];
  const languages = scan.languages.slice(0, 3).map((share) => `${share.language} (${share.percent}%)`);
  if (languages.length) facts.push(`Languages: ${languages.join(', ')}; write new code in the main one.`);
  for (const manifest of scan.manifests.slice(0, 4)) {
    const scripts = Object.keys(manifest.scripts ?? {}).filter((name) =>
      /^(test|lint|build|format|check|typecheck)/.test(name),
    );
    const run = scripts.length
      ? `; its scripts ${scripts.map((name) => `\`${name}\``).join(', ')} must keep passing`
      : '';
    facts.push(
      `${manifest.kind} manifest \`${manifest.path}\`${manifest.name ? ` (${manifest.name})` : ''}${run}.`,
    );
  }
  if (scan.tests.files > 0) {
    const frameworks = scan.tests.frameworks.length ? ` with ${scan.tests.frameworks.join(', ')}` : '';
    const dirs = scan.tests.dirs.length
      ? ` in ${scan.tests.dirs
          .slice(0, 3)
          .map((dir) => `\`${dir}\``)
          .join(', ')}`
      : '';
    facts.push(
      `Tests: ${scan.tests.files} file(s)${dirs}${frameworks}; add tests beside them for new behaviour.`,
    );
  } else {
    facts.push('No tests were found; describe how a change was checked in its commit message.');
  }
  if (scan.entry_points.length)
    facts.push(
      `Entry points: ${scan.entry_points
        .slice(0, 5)
        .map((entry) => `\`${entry}\``)
        .join(', ')}.`,
    );
  return facts;
}
