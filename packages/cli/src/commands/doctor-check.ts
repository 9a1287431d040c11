/** One line of `keel doctor`: what was checked, how it stands, and for anything not ok what to do. */
export interface DoctorCheck {
  name: string;
  status: 'ok' | 'warn' | 'fail';
  /** What was found, in a sentence. */
  detail: string;
  /** For a warning or a failure: the one thing to do (the flag, setting or variable, or the command). */
  fix?: string;
  /** `model-endpoint`: the server family, when its answers tell (`ollama`, `vllm`, `llamacpp`, `lmstudio`). */
  server?: string;
  /** `model-endpoint`: the models the endpoint lists, with what it says of each. */
  models?: DoctorModel[];
}

/** A model an endpoint lists, as `keel doctor --json` shows it. */
export interface DoctorModel {
  id: string;
  /** Its context window in tokens, where the server reports one. */
  context_length?: number;
  /** Whether the server says it can call tools (Ollama); absent where it does not say. */
  tools?: boolean;
}

export function ok(name: string, detail: string): DoctorCheck {
  return { name, status: 'ok', detail };
}

export function warn(name: string, detail: string, fix: string): DoctorCheck {
  return { name, status: 'warn', detail, fix };
}

export function fail(name: string, detail: string, fix: string): DoctorCheck {
  return { name, status: 'fail', detail, fix };
}

/** The text of whatever was thrown (checks turn errors into lines, never into stack traces). */
export function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** `1 warning`, `2 warnings`. */
export function count(n: number, noun: string): string {
  return `${n} ${noun}${n === 1 ? '' : 's'}`;
}
