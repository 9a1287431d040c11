import { basename } from 'node:path';
import { pathToFileURL } from 'node:url';
import { ErrorCodes, ResponseError } from 'vscode-languageserver-protocol/node';

/**
 * What the client tells a server it can do in `initialize`: whole-document sync, pushed diagnostics with
 * versions, definition (with links), references, hover in Markdown or plain text, and configuration
 * requests. Positions are UTF-16, LSP's default, which JavaScript strings index natively.
 */
export const clientCapabilities = {
  general: { positionEncodings: ['utf-16'] },
  textDocument: {
    synchronization: { dynamicRegistration: false, didSave: false, willSave: false },
    publishDiagnostics: { relatedInformation: false, versionSupport: true },
    definition: { dynamicRegistration: false, linkSupport: true },
    references: { dynamicRegistration: false },
    hover: { dynamicRegistration: false, contentFormat: ['markdown', 'plaintext'] },
  },
  workspace: { configuration: true, workspaceFolders: true, didChangeConfiguration: {} },
  window: { workDoneProgress: false },
};

/**
 * The answer to one item of `workspace/configuration`: the part of `settings` at the dotted `section`
 * (`python.analysis`), the whole for no section, null where there is nothing (the server's defaults).
 */
export function settingsSection(settings: Record<string, unknown>, section: string | undefined): unknown {
  if (section === undefined || section === '') return settings;
  let value: unknown = settings;
  for (const key of section.split('.')) {
    if (value === null || typeof value !== 'object' || !(key in value)) return null;
    value = (value as Record<string, unknown>)[key];
  }
  return value;
}

/**
 * Answers a request the server makes of the client: configuration from the definition's settings, the
 * workspace folder, acknowledgements for registrations and progress; edits are refused (changes go
 * through the file tools, where they are guarded and recorded); anything else is an unknown method.
 */
export function answerServerRequest(
  method: string,
  params: unknown,
  settings: Record<string, unknown>,
  workdir: string,
): unknown {
  switch (method) {
    case 'workspace/configuration': {
      const items = (params as { items?: Array<{ section?: string }> } | undefined)?.items ?? [];
      return items.map((item) => settingsSection(settings, item.section));
    }
    case 'workspace/workspaceFolders':
      return [{ uri: pathToFileURL(workdir).href, name: basename(workdir) }];
    case 'client/registerCapability':
    case 'client/unregisterCapability':
    case 'window/workDoneProgress/create':
    case 'window/showMessageRequest':
      return null;
    case 'workspace/applyEdit':
      return { applied: false, failureReason: 'This client does not apply edits.' };
    default:
      return new ResponseError(ErrorCodes.MethodNotFound, `Unhandled method ${method}`);
  }
}
