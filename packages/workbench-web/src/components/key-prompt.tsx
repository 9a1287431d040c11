import { useQueryClient } from '@tanstack/react-query';
import { type FormEvent, type ReactNode, useEffect, useId, useRef, useState } from 'react';
import { onUnauthorized, setApiKey } from '../api/auth.ts';
import { type ApiError, asApiError } from '../api/errors.ts';
import { ErrorNote, invalidBy } from './status.tsx';

/**
 * Asks for the service's API key when it answers 401 (it runs with an auth key), checks it with `check`
 * (any call that needs the key), keeps it in this browser and reloads every query with it.
 */
export function KeyPrompt({
  label,
  title,
  hint,
  check,
}: {
  /** The form's accessible name. */
  label: string;
  title: string;
  hint: ReactNode;
  check: () => Promise<unknown>;
}) {
  const queryClient = useQueryClient();
  const [needed, setNeeded] = useState(false);
  const [key, setKey] = useState('');
  const [error, setError] = useState<ApiError | null>(null);
  const [checking, setChecking] = useState(false);
  const input = useRef<HTMLInputElement>(null);
  const noteId = `${useId()}-error`;
  useEffect(() => onUnauthorized(() => setNeeded(true)), []);
  useEffect(() => {
    if (needed) input.current?.focus();
  }, [needed]);
  if (!needed) return null;

  async function submit(event: FormEvent) {
    event.preventDefault();
    setChecking(true);
    setError(null);
    setApiKey(key.trim());
    try {
      await check();
      setNeeded(false);
      setKey('');
      await queryClient.invalidateQueries();
    } catch (failure) {
      setApiKey(null);
      setError(asApiError(failure));
    } finally {
      setChecking(false);
    }
  }

  return (
    <div className="overlay">
      <form className="card form key-prompt" onSubmit={submit} aria-label={label}>
        <h2>{title}</h2>
        <p className="hint">{hint}</p>
        <label className="field">
          <span>API key</span>
          <input
            ref={input}
            name="api_key"
            type="password"
            value={key}
            required
            autoComplete="current-password"
            onChange={(event) => setKey(event.target.value)}
            {...invalidBy(error, noteId)}
          />
          <ErrorNote error={error} id={noteId} />
        </label>
        <div className="form-actions">
          <button type="submit" className="button-primary" disabled={checking || !key.trim()}>
            {checking ? 'Checking…' : 'Continue'}
          </button>
        </div>
      </form>
    </div>
  );
}
