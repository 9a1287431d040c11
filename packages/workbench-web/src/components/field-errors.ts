import { useState } from 'react';
import type { ApiError } from '../api/errors.ts';

/** Whether `field` is `edited` or inside it, or holds it (`repositories.0` and `repositories.0.path`). */
function touches(field: string, edited: string): boolean {
  return field === edited || field.startsWith(`${edited}.`) || edited.startsWith(`${field}.`);
}

/**
 * A form's API error split by field, each part cleared once its field is edited: `about(field)` is the
 * error's part about `field` (null when none or edited since), `edited(name)` marks a field changed
 * (a form's `onChange` passes the input's `name`), `general` is what no placed field shows.
 */
export function useFieldErrors(error: ApiError | null | undefined, placed: readonly string[] = []) {
  const [edits, setEdits] = useState<{ error: ApiError | null; fields: string[] }>({
    error: null,
    fields: [],
  });
  const fixed = edits.error === (error ?? null) ? edits.fields : [];
  const about = (field: string): ApiError | null => {
    if (!error?.isAbout(field)) return null;
    return error.narrowed(
      (each) =>
        (each === field || each.startsWith(`${field}.`)) && !fixed.some((edited) => touches(each, edited)),
    );
  };
  const edited = (name: string | undefined | null) => {
    if (!name || !error) return;
    setEdits((previous) => ({
      error,
      fields: [...(previous.error === error ? previous.fields : []), name],
    }));
  };
  const general = error && !placed.some((field) => error.isAbout(field)) ? error : null;
  /** A form's onChange: the changed input's name clears its error. */
  const onChange = (event: { target: unknown }) => {
    const name = (event.target as { name?: unknown } | null)?.name;
    edited(typeof name === 'string' ? name : null);
  };
  return { about, edited, general, onChange };
}
