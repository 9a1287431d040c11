import { mkdir, writeFile } from 'node:fs/promises';
import { extname, join } from 'node:path';
import type {
  RunnerErrorObject,
  RunnerEvent,
  RunnerImage,
  RunnerKind,
  RunnerRequest,
  RunnerUsage,
} from '../contract.ts';

/** What an adapter knows when it builds one run of its agent. */
export interface AgentContext {
  request: RunnerRequest;
  /** The session's private home: HOME and every config dir of the agent point into it. */
  home: string;
  /** The request's model, else the runner config's. */
  model: string | undefined;
  /**
   * The service's environment, to look things up in (a vendor's model key when the settings hold none). The
   * agent never gets it whole: only `agentEnvironment` of it, plus the adapter's variables and the config's.
   */
  env: NodeJS.ProcessEnv;
  /** The workdir as given and its real path, to make the agent's absolute paths relative. */
  workdirs: string[];
}

/** How to start the agent: `args` + the config's extra_args + `tail` (the prompt, which goes last). */
export interface AgentInvocation {
  args: string[];
  tail: string[];
  /** Variables set on top of the runner's environment (the config's env still wins). */
  env: Record<string, string>;
}

/** Turns one agent's JSON events of one run into normalised events, and remembers what the outcome needs. */
export interface AgentEventMapper {
  map(event: Record<string, unknown>): RunnerEvent[];
  /** Events held back until the output ends (a text still being streamed, usage summed over steps). */
  finish(): RunnerEvent[];
  readonly sessionId: string | undefined;
  /** The final answer text. */
  readonly output: string;
  readonly usage: RunnerUsage | undefined;
  /** A failure the agent itself reported (already emitted as an `error` event by `map`). */
  readonly error: RunnerErrorObject | undefined;
}

/** One command-line agent: its program, how to start it, how to read it. */
export interface AgentAdapter {
  readonly kind: RunnerKind;
  /** Program names, looked up in order. */
  readonly binaryNames: readonly string[];
  /** A different root for the private homes (Codex: not under the temp dir). */
  homesRoot?(root: string | undefined, env: NodeJS.ProcessEnv): Promise<string>;
  /** Writes the agent's config into the home and answers the command line and environment. */
  prepare(context: AgentContext): Promise<AgentInvocation>;
  createMapper(context: AgentContext): AgentEventMapper;
}

/** Writes the request's images into the home (agents take files, not data), answering their paths. */
export async function writeImages(home: string, images: RunnerImage[] | undefined): Promise<string[]> {
  if (!images?.length) return [];
  const dir = join(home, 'images');
  await mkdir(dir, { recursive: true });
  return Promise.all(
    images.map(async (image, index) => {
      const subtype = image.media_type.split('/')[1]?.replace(/[^\w]/g, '') || 'png';
      // The given name is only a hint: its extension, never its directories.
      const extension = image.filename && extname(image.filename) ? extname(image.filename) : `.${subtype}`;
      const path = join(dir, `image-${index + 1}${extension.replace(/[^\w.]/g, '')}`);
      await writeFile(path, Buffer.from(image.data, 'base64'));
      return path;
    }),
  );
}

/** A base URL without a trailing slash and without the API version an agent appends itself. */
export function baseUrlWithout(url: string, suffixes: readonly string[]): string {
  let trimmed = url.replace(/\/+$/, '');
  for (const suffix of suffixes) {
    if (trimmed.endsWith(suffix)) trimmed = trimmed.slice(0, -suffix.length);
  }
  return trimmed;
}
