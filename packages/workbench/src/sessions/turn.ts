import { WorkbenchError } from '../errors.ts';
import type {
  ModelSetting,
  Runner,
  RunnerConfig,
  RunnerEvent,
  RunnerImage,
  RunnerKind,
  RunnerOutcome,
} from '../runners/index.ts';
import type { SettingsService } from '../settings/index.ts';
import { stopReasons } from './holds.ts';
import type { SessionRecorder } from './session-recorder.ts';
import type { SessionKind, SessionRecord } from './types.ts';
import { withoutSecret } from './without-secret.ts';

export interface RunnerSource {
  get(kind: RunnerKind): Runner;
}

/** Work that follows every turn of one kind of session (writing plan.md, parsing the todo list, ...). */
export type TurnHandler = (session: SessionRecord, outcome: RunnerOutcome) => void | Promise<void>;

export interface TurnInput {
  prompt: string;
  images?: RunnerImage[];
  /** Logged as the user's message instead of the full prompt (the prompt may carry a whole scan). */
  shownAs?: string;
  /**
   * A turn the workbench starts on its own (a repair): logged as this step (done: it was asked) instead of
   * a user message.
   */
  step?: { step: string; detail: string };
  /**
   * Work that belongs to the turn's end (a todo's after-snapshot and final status): it runs after the
   * kind's turn handler and before the session's final status is written and broadcast, so a client that
   * sees the session end reads the owner's final state. When it throws, the turn ends failed.
   */
  finish?: (outcome: RunnerOutcome) => void | Promise<void>;
}

/** What one turn needs from the session runner. */
export interface TurnDeps {
  settings: SettingsService;
  runners: RunnerSource;
  recorder: SessionRecorder;
  /** What follows each turn of a kind of session. */
  afterTurn: ReadonlyMap<SessionKind, TurnHandler>;
  /** Why the work under this controller was aborted (undefined: by the user). */
  stopReason: (controller: AbortController) => string | undefined;
}

/**
 * One turn of a session to its end: the row marked running, the user's message (or the workbench's step)
 * logged, the runner's events scrubbed of the model key, logged and broadcast, the kind's turn handler and
 * the input's `finish` run, and the row's final status written. Throws only when it could not be recorded.
 */
export async function runTurn(
  deps: TurnDeps,
  session: SessionRecord,
  input: TurnInput,
  controller: AbortController,
): Promise<RunnerOutcome> {
  const { settings, recorder } = deps;
  const config = await settings.runnerConfig(session.runner_config_id);
  const model = await settings.model(config);
  await recorder.started(session.id, config.kind);
  recorder.record(
    session.id,
    input.step
      ? { type: 'step', status: 'done', ...input.step }
      : { type: 'message', role: 'user', content: input.shownAs ?? input.prompt },
  );
  // The one place a runner's words are scrubbed of the model key before anything keeps or sends them.
  const secret = model.apiKey;
  const emit = async (raw: RunnerEvent) => {
    const event = withoutSecret(raw, secret);
    recorder.record(session.id, event);
    // Awaited, as the runner awaits emit: the log keeps up, and a failed append stops the turn here.
    await recorder.recorded(session.id);
    await recorder.runnerIds(session.id, event);
  };
  let outcome: RunnerOutcome;
  if (!controller.signal.aborted)
    outcome = withoutSecret(await run(deps, session, input, config, model, controller, emit), secret);
  else outcome = { status: 'cancelled', output: '' }; // stopped in the gap between its 202 and its turn
  if (controller.signal.aborted && outcome.status !== 'succeeded') {
    // A stop is not a runner failure: the log and the row say who stopped it, whatever the runner said.
    const stopped = {
      code: 'CANCELLED',
      message: deps.stopReason(controller) ?? stopReasons.user,
      ...(outcome.error && outcome.error.code !== 'CANCELLED'
        ? { details: { runner_error: outcome.error } }
        : {}),
    };
    recorder.record(session.id, { type: 'error', error: stopped });
    outcome = { ...outcome, status: 'cancelled', error: stopped };
  }
  const handler = deps.afterTurn.get(session.kind);
  const { finish } = input;
  const steps = [
    handler && ((ended: RunnerOutcome) => handler({ ...session, runner: config.kind }, ended)),
    finish,
  ];
  for (const step of steps) {
    if (!step) continue;
    try {
      await step(outcome);
    } catch (error) {
      const failure = WorkbenchError.is(error)
        ? error.toJSON()
        : { code: 'SERVER_ERROR', message: (error as Error).message };
      recorder.record(session.id, { type: 'error', error: failure });
      outcome = { ...outcome, status: 'failed', error: failure };
    }
  }
  await recorder.ended(session, outcome);
  return outcome;
}

/** The runner's run; only a broken request throws (the contract), and it still ends as a failed turn. */
async function run(
  deps: TurnDeps,
  session: SessionRecord,
  input: TurnInput,
  config: RunnerConfig,
  model: ModelSetting,
  controller: AbortController,
  emit: (event: RunnerEvent) => Promise<void>,
): Promise<RunnerOutcome> {
  try {
    const runner = deps.runners.get(config.kind);
    return await runner.run(
      {
        prompt: input.prompt,
        workdir: session.context.workdir,
        ...(session.context.allowedRoots ? { allowedRoots: session.context.allowedRoots } : {}),
        ...(session.context.instructions ? { instructions: session.context.instructions } : {}),
        ...(input.images?.length ? { images: input.images } : {}),
        ...(session.runner_session_id ? { resumeSessionId: session.runner_session_id } : {}),
        model,
        mcpServers: (await deps.settings.stored()).mcp_servers.filter((server) => server.enabled),
        skillDirs: session.context.skillDirs,
        ...(session.context.readOnly ? { readOnly: true } : {}),
        config,
        signal: controller.signal,
      },
      emit,
    );
  } catch (error) {
    // Only a broken request throws (the contract); it still ends as a failed session, never a hang.
    const failure = withoutSecret(
      WorkbenchError.is(error)
        ? error.toJSON()
        : { code: 'RUNNER_FAILED', message: (error as Error).message },
      model.apiKey,
    );
    deps.recorder.record(session.id, { type: 'error', error: failure });
    return { status: 'failed', output: '', error: failure };
  }
}
