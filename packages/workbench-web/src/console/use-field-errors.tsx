import { useId } from 'react';
import type { ApiError } from '../api/errors.ts';
import { ErrorNote, invalidBy } from '../components/status.tsx';
import { fieldOfError } from './field-error.ts';

/**
 * A form's half of a refused request, shared by the project and task forms (create and edit): the field
 * the error names is marked invalid and described by the note under it (`role=alert`); an error about
 * no field is `general`, for the form to show by its button.
 */
export function useFieldErrors<Field extends string>(
  error: ApiError | null | undefined,
  fields: readonly Field[],
) {
  const id = useId();
  const named = fieldOfError(error, fields);
  const errorOf = (field: Field) => (named === field ? (error ?? null) : null);
  const noteId = (field: Field) => `${id}-${field}-error`;
  return {
    general: error && !named ? error : null,
    /** The control's aria-invalid and aria-describedby while the error is about `field`. */
    invalid: (field: Field) => invalidBy(errorOf(field), noteId(field)),
    /** The note under `field`'s control, or nothing. */
    note: (field: Field) =>
      errorOf(field) ? (
        <div className="field-error" data-error-for={field}>
          <ErrorNote error={errorOf(field)} id={noteId(field)} />
        </div>
      ) : null,
  };
}
