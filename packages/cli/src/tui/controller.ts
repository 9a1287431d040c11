import { resolve } from 'node:path';
import type { RuntimeEvent, Session, SkillList } from '@keel/runtime';
import { loadImage } from '../images.ts';
import { runRequestFromFlags } from '../run-request-flags.ts';
import { errorText } from './error-text.ts';
import type { KeyAction } from './key-bindings.ts';
import { edit, submitted } from './line-editor.ts';
import { listServerModels, type ServerModels } from './model-picker.ts';
import { streamRun, type TuiRuntime } from './run-driver.ts';
import { historyEntries } from './session-history.ts';
import { type EffectiveSettings, effectiveSettings, type ModelFlags } from './settings.ts';
import { parseInput, type SlashCommandName } from './slash-commands.ts';
import { runSlashCommand, type SlashContext } from './slash-handlers.ts';
import { StateStore } from './state-store.ts';
import { applyEvent, type Entry, type Tone, withDecision, withNotice, withPrompt } from './transcript.ts';
import { initialState, type PendingInteraction, type TuiState } from './tui-state.ts';

export interface ControllerOptions {
  runtime: TuiRuntime;
  /** The directory the agent works in (already resolved). */
  workdir: string;
  flags: ModelFlags;
  env: NodeJS.ProcessEnv;
  /** Where relative `/image` paths start: the directory keel was started in. */
  cwd: string;
}

type Decision = { type: 'approve' } | { type: 'reject'; reason?: string } | { type: 'answer'; text: string };

const welcome: Entry = {
  kind: 'notice',
  tone: 'muted',
  text: 'Keel · Enter sends · /help lists commands · Esc cancels a run · Ctrl-C on an empty line quits',
};

// How long quitting waits for a cancelled run to record its end before leaving anyway.
const shutdownWaitMs = 5_000;

/**
 * The TUI's behaviour, apart from the screen: it turns submitted lines into runs, user input, answers and
 * slash commands, and runtime events into transcript entries, all through the SDK (`runtime.stream`,
 * `sendInput`, `approvals`, `sessions`): the TUI never runs a model or a tool itself.
 */
export class TuiController implements SlashContext {
  readonly store: StateStore<TuiState>;
  readonly #options: ControllerOptions;
  /** The command line's model choices, with the model `/model` chose in place of `--model`. */
  #flags: ModelFlags;
  readonly #quit = Promise.withResolvers<void>();
  #quitting = false;
  #showThinking = false;
  #abort: AbortController | null = null;
  #running: Promise<void> | null = null;
  #lastEnd: RuntimeEvent['type'] | null = null;
  /** Messages typed before the run had its id: sent as soon as it has one. */
  #early: string[] = [];

  constructor(options: ControllerOptions) {
    this.#options = options;
    this.#flags = { ...options.flags };
    let entries: Entry[] = [welcome];
    let model: string | null = null;
    try {
      const settings = effectiveSettings(options.flags, options.workdir, options.env);
      model = settings.model;
      this.#showThinking = settings.thinking;
    } catch (error) {
      // A broken config file: runs will fail with the same error; say it now, and stay usable.
      entries = withNotice(entries, 'error', errorText(error));
    }
    this.store = new StateStore(initialState({ entries, model, workdir: options.workdir }));
  }

  /** Settles when the user asked to leave (/quit, Ctrl-C or Ctrl-D on an empty line). */
  get quitRequested(): Promise<void> {
    return this.#quit.promise;
  }

  /** Acts on a key (scrolling is the view's own business). */
  perform(action: KeyAction): void {
    switch (action.type) {
      case 'edit':
        this.#update((state) => ({ ...state, editor: edit(state.editor, action.op) }));
        break;
      case 'submit':
        this.submit();
        break;
      case 'cancel-run':
        this.cancelRun();
        break;
      case 'quit':
        this.quit();
        break;
      case 'approve':
      case 'reject':
        void this.#decide({ type: action.type });
        break;
      default:
        break;
    }
  }

  /** Pasted text goes into the input line as typed (newlines included; Enter sends it all). */
  paste(text: string): void {
    this.perform({ type: 'edit', op: { type: 'insert', text } });
  }

  /** Enter: the line becomes a command, an answer, a message to the run in progress, or a new run. */
  submit(): void {
    const state = this.#state();
    const parsed = parseInput(state.editor.text);
    this.#update((current) => ({ ...current, editor: submitted(current.editor) }));
    if (parsed.kind === 'command') {
      void this.#command(parsed.name, parsed.argument);
    } else if (parsed.kind === 'unknown-command') {
      const hint = parsed.suggestion ? ` Did you mean /${parsed.suggestion}?` : '';
      this.notice('warning', `Unknown command /${parsed.name}.${hint} Type /help for the list.`);
    } else if (parsed.kind === 'prompt') {
      if (state.pending) void this.#answer(state.pending, parsed.text);
      else if (state.run) void this.#sendInput(parsed.text);
      else this.#startRun(parsed.text);
    }
  }

  /** Esc or Ctrl-C during a run: the runtime cancels it (also one waiting for an answer). */
  cancelRun(): void {
    if (!this.#abort || this.#abort.signal.aborted) return;
    this.#update((state) => (state.run ? { ...state, run: { ...state.run, cancelling: true } } : state));
    this.#abort.abort();
  }

  quit(): void {
    this.#quitting = true;
    this.#quit.resolve();
  }

  /** Before leaving: cancels the run in progress and waits (a little) for it to record that. */
  async shutdown(): Promise<void> {
    this.#quitting = true;
    this.#abort?.abort();
    const running = this.#running;
    if (!running) return;
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([
      running.catch(() => undefined),
      new Promise((settle) => {
        timer = setTimeout(settle, shutdownWaitMs);
      }),
    ]);
    clearTimeout(timer);
  }

  // ---- SlashContext: what /commands act on ----

  busy(): boolean {
    return this.#state().run !== null;
  }

  currentSessionId(): string | null {
    return this.#state().sessionId;
  }

  attachedImages(): string[] {
    return this.#state().images.map((image) => image.filename ?? image.media_type);
  }

  notice(tone: Tone, text: string): void {
    this.#update((state) => ({ ...state, entries: withNotice(state.entries, tone, text) }));
  }

  clearTranscript(): void {
    this.#update((state) => ({ ...state, entries: [] }));
  }

  newSession(): void {
    this.#update((state) => ({ ...state, sessionId: null, usage: null, entries: [] }));
  }

  /** Shows a stored session's conversation and continues it; an unknown id throws SESSION_NOT_FOUND. */
  async openSession(id: string): Promise<void> {
    const { sessions } = this.#options.runtime;
    const session = sessions.get(id);
    const entries = withNotice(
      [],
      'info',
      `Session ${session.id} · ${session.title} · ${session.message_count} messages. Your next prompt continues it.`,
    );
    if (session.workdir && session.workdir !== this.#options.workdir) {
      entries.push({
        kind: 'notice',
        tone: 'warning',
        text: `It was started in ${session.workdir}; runs from here work in ${this.#options.workdir}.`,
      });
    }
    entries.push(...historyEntries(sessions.conversation(id)));
    this.#update((state) => ({ ...state, sessionId: session.id, usage: null, entries }));
  }

  recentSessions(): Session[] {
    return this.#options.runtime.sessions.list(20);
  }

  skills(): Promise<SkillList> {
    return this.#options.runtime.skills.list({ workdir: this.#options.workdir });
  }

  async attachImage(path: string): Promise<void> {
    const image = await loadImage(resolve(this.#options.cwd, path));
    const kilobytes = Math.ceil((image.data.length * 3) / 4 / 1024);
    this.#update((state) => ({ ...state, images: [...state.images, image] }));
    this.notice('info', `Attached ${image.filename} (${kilobytes} KB): it goes with your next prompt.`);
  }

  settings(): EffectiveSettings {
    return effectiveSettings(this.#flags, this.#options.workdir, this.#options.env);
  }

  serverModels(): Promise<ServerModels> {
    return listServerModels(this.#flags, this.#options.workdir, this.#options.env);
  }

  /** The next runs use this model, as `keel tui --model <id>` would have them. */
  chooseModel(id: string): void {
    this.#flags = { ...this.#flags, model: id };
    this.#update((state) => ({ ...state, model: id }));
  }

  // ---- runs ----

  #startRun(prompt: string): void {
    const { workdir, runtime } = this.#options;
    const state = this.#state();
    const imageNames = this.attachedImages();
    // The session and images are the TUI's own state; the model choices come from the command line
    // (the model from /model, when one was chosen).
    const request = runRequestFromFlags(
      prompt,
      workdir,
      { ...this.#flags, session: state.sessionId ?? undefined },
      state.images,
    );
    this.#update((current) => ({
      ...current,
      entries: withPrompt(current.entries, prompt, imageNames),
      images: [],
      run: { id: null, cancelling: false },
    }));
    const abort = new AbortController();
    this.#abort = abort;
    this.#lastEnd = null;
    this.#running = streamRun(runtime, request, {
      signal: abort.signal,
      onEvent: (event) => this.#onEvent(event),
      onRunId: (id) => {
        this.#update((current) => (current.run ? { ...current, run: { ...current.run, id } } : current));
        for (const text of this.#early.splice(0)) void this.#deliver(id, text);
      },
    })
      .catch((error: unknown) => this.notice('error', errorText(error)))
      .finally(() => this.#runEnded());
  }

  #onEvent(event: RuntimeEvent): void {
    if (event.type === 'done' || event.type === 'error' || event.type === 'cancelled')
      this.#lastEnd = event.type;
    this.#update((state) => {
      let { entries, pending } = state;
      if (pending && event.type !== 'interaction_request') {
        // It was decided from another terminal (the run went on), or the run ended while it waited.
        const outcome =
          event.type === 'cancelled' || event.type === 'error' ? 'not answered' : 'answered elsewhere';
        entries = withDecision(entries, pending.requestId, outcome);
        pending = null;
      }
      if (event.type === 'interaction_request') {
        pending = {
          requestId: event.request_id,
          ask: event.kind,
          prompt: event.prompt,
          options: event.options,
        };
      }
      return {
        ...state,
        entries: applyEvent(entries, event, { showThinking: this.#showThinking }),
        pending,
        queued:
          event.type === 'user_input_received' ? withoutFirst(state.queued, event.content) : state.queued,
        sessionId: event.type === 'session_start' ? event.session_id : state.sessionId,
        usage: event.type === 'done' ? event.usage : state.usage,
      };
    });
  }

  #runEnded(): void {
    this.#abort = null;
    this.#early = [];
    this.#running = null;
    const unseen = this.#state().queued;
    this.#update((state) => ({ ...state, run: null, pending: null, queued: [] }));
    if (unseen.length === 0 || this.#quitting) return;
    if (this.#lastEnd === 'done') {
      // Sent while the agent wrote its last answer: it never reached the model, so it starts the next run.
      this.notice('muted', 'Your message came after the agent’s last turn: sending it as the next prompt.');
      this.#startRun(unseen.join('\n\n'));
    } else {
      this.notice('warning', `Not delivered, the run ended first: ${unseen.join(' / ')} (↑ recalls it).`);
    }
  }

  async #sendInput(text: string): Promise<void> {
    const runId = this.#state().run?.id;
    // Shown as queued until the run confirms it with `user_input_received`.
    this.#update((state) => ({ ...state, queued: [...state.queued, text] }));
    // Typed before the run has its id (it is still starting): sent as soon as it has one.
    if (!runId) {
      this.#early.push(text);
      return;
    }
    await this.#deliver(runId, text);
  }

  async #deliver(runId: string, text: string): Promise<void> {
    try {
      await this.#options.runtime.sendInput(runId, text);
    } catch (error) {
      // Gone from the queue already: the run ended meanwhile and #runEnded took care of it.
      if (!this.#state().queued.includes(text)) return;
      this.#update((state) => ({ ...state, queued: withoutFirst(state.queued, text) }));
      this.notice('error', errorText(error));
    }
  }

  /** A line typed while the run waits: `y`/`n` (or a reason to reject) for approvals, the answer to a question. */
  #answer(pending: PendingInteraction, text: string): Promise<void> {
    if (pending.ask === 'question') {
      const option = /^\d+$/.test(text) ? pending.options[Number(text) - 1] : undefined;
      return this.#decide({ type: 'answer', text: option ?? text });
    }
    if (/^(y|yes|approve)$/i.test(text)) return this.#decide({ type: 'approve' });
    if (/^(n|no|reject)$/i.test(text)) return this.#decide({ type: 'reject' });
    return this.#decide({ type: 'reject', reason: text });
  }

  async #decide(decision: Decision): Promise<void> {
    const pending = this.#state().pending;
    if (!pending) return;
    const { approvals } = this.#options.runtime;
    const label =
      decision.type === 'approve'
        ? 'approved'
        : decision.type === 'answer'
          ? `answered: ${decision.text}`
          : `rejected${decision.reason ? `: ${decision.reason}` : ''}`;
    // The run goes on once the decision is stored; keys go back to steering the run at once.
    this.#update((state) => ({
      ...state,
      pending: null,
      entries: withDecision(state.entries, pending.requestId, label),
    }));
    try {
      if (decision.type === 'approve') await approvals.approve(pending.requestId);
      else if (decision.type === 'answer') await approvals.answer(pending.requestId, decision.text);
      else await approvals.reject(pending.requestId, decision.reason ? { reason: decision.reason } : {});
    } catch (error) {
      const stillPending = (await approvals.get(pending.requestId).catch(() => null))?.status === 'pending';
      this.#update((state) => ({
        ...state,
        pending: stillPending && state.run ? pending : state.pending,
        entries: withNotice(
          withDecision(
            state.entries,
            pending.requestId,
            stillPending ? 'waiting for your answer' : 'not recorded',
          ),
          'error',
          errorText(error),
        ),
      }));
    }
  }

  async #command(name: SlashCommandName, argument: string): Promise<void> {
    try {
      await runSlashCommand(name, argument, this);
    } catch (error) {
      this.notice('error', errorText(error));
    }
  }

  #state(): TuiState {
    return this.store.get();
  }

  #update(change: (state: TuiState) => TuiState): void {
    this.store.update(change);
  }
}

function withoutFirst(list: readonly string[], item: string): string[] {
  const index = list.indexOf(item);
  return index === -1 ? [...list] : [...list.slice(0, index), ...list.slice(index + 1)];
}
