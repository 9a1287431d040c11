import { toErrorObject } from '@keel/runtime';

/** `Error [CODE]: message`, as every keel command shows errors (the view draws it terminal-safe). */
export function errorText(error: unknown): string {
  const { code, message } = toErrorObject(error);
  return `Error [${code}]: ${message}`;
}
