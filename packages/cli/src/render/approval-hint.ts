import { terminalSafe } from './terminal-safe.ts';

/**
 * What a user needs to decide an approval or answer a question from any terminal: what is asked, its id
 * and the commands. `keelArgs` is appended to the commands (` -w <dir>` when the store comes from a
 * project's config). `kind` is the event's (`approval`, `question`) or the record's (`tool`, `node`,
 * `question`). The prompt comes from a model or a tool: it is shown terminal-safe.
 */
export function approvalHint(
  approval: { id: string; prompt: string; kind?: string; options?: readonly string[] },
  keelArgs = '',
): string {
  if (approval.kind === 'question') {
    const choices = approval.options?.length ? ` (${approval.options.join(' / ')})` : '';
    return terminalSafe(
      [
        `? ${approval.prompt}${choices}`,
        `  Question ${approval.id} waits for an answer; the run continues once it is given, from any terminal:`,
        `    keel approvals answer ${approval.id}${keelArgs} "<answer>"`,
      ].join('\n'),
    );
  }
  return terminalSafe(
    [
      `? ${approval.prompt}`,
      `  Approval ${approval.id} is pending; the run waits until it is decided, from any terminal:`,
      `    keel approvals approve ${approval.id}${keelArgs}`,
      `    keel approvals reject ${approval.id}${keelArgs} --reason "<why>"`,
    ].join('\n'),
  );
}
