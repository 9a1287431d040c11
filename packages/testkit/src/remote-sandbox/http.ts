import { lstat } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { z } from 'zod';
import { readLimited, resolveInside, segmentsOf } from './files.ts';
import { ProtocolError } from './protocol-error.ts';

/** Sends a JSON body (none: an empty response, as for 204). */
export function send(res: ServerResponse, status: number, body?: unknown): void {
  if (body === undefined) {
    res.writeHead(status).end();
    return;
  }
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
  res.end(text);
}

export function notFound(path: string): ProtocolError {
  return new ProtocolError(404, 'NOT_FOUND', `No endpoint at ${path}.`, { path });
}

export function decodeSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    throw new ProtocolError(
      400,
      'INVALID_PARAMS',
      `"${segment}" is not a valid percent-encoded path segment.`,
    );
  }
}

/** A JSON object body (or none, when `optional`), at most 1 MiB. */
export async function jsonBody(req: IncomingMessage, optional: boolean): Promise<unknown> {
  const text = (await readLimited(req, 1024 * 1024)).toString('utf8');
  if (text.trim() === '' && optional) return {};
  try {
    return JSON.parse(text);
  } catch {
    throw new ProtocolError(400, 'INVALID_PARAMS', 'The request body must be a JSON object.');
  }
}

export function parse<T>(schema: z.ZodType<T>, value: unknown): T {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  const field = issue?.path.join('.') || 'body';
  throw new ProtocolError(400, 'INVALID_PARAMS', `${field}: ${issue?.message ?? 'invalid'}`, { field });
}

/** A command's working directory: an existing directory inside the workdir, reached without symlinks. */
export async function directoryIn(workdir: string, cwd: string): Promise<string> {
  const absolute = await resolveInside(workdir, segmentsOf(cwd), false).catch(() => undefined);
  const info = absolute ? await lstat(absolute).catch(() => undefined) : undefined;
  if (!absolute || !info?.isDirectory()) {
    throw new ProtocolError(400, 'INVALID_PARAMS', `cwd "${cwd}" is not a directory in the sandbox.`, {
      cwd,
    });
  }
  return absolute;
}
