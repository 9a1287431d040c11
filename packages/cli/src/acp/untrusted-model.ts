import { loadConfigReport } from '@keel/runtime';
import { readEnv } from '@keel/runtime/internal';

/**
 * When the folder's `.runtime/config.json` names the model (its endpoint, key or name) but the folder is not
 * trusted, those keys were ignored and the model configured elsewhere was used: a model error then says so,
 * and how to trust the folder, instead of only "could not reach the model endpoint". Empty otherwise.
 */
export function untrustedModelNote(env: NodeJS.ProcessEnv, workdir: string): string {
  try {
    const report = loadConfigReport(readEnv(env).home, workdir);
    const keys = report.ignored.map((entry) => entry.key).filter((key) => key.startsWith('model'));
    if (report.trusted || keys.length === 0) return '';
    return (
      ` ${report.projectFile} sets ${keys.join(', ')}, which apply only in a trusted folder, so they were ` +
      `ignored: if that is the model you meant, trust the folder with \`keel trust ${report.projectDir}\` in a terminal.`
    );
  } catch {
    // A broken config file is reported by the run itself.
    return '';
  }
}
