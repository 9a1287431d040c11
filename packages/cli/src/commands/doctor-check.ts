/** One line of `keel doctor`: what was checked, how it stands, and for anything not ok what to do. */
export interface DoctorCheck {
  name: string;
  status: 'ok' | 'warn' | 'fail';
  /** What was found, in a sentence. */
  detail: string;
  /** For a warning or a failure: the one thing to do (the flag, setting or variable, or the command). */
  fix?: string;
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
