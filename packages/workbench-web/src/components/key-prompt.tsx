import { useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useEffect, useState } from 'react';
import { onUnauthorized, setApiKey } from '../api/auth.ts';
import { api } from '../api/client.ts';
import { type ApiError, asApiError } from '../api/errors.ts';
import { ErrorNote } from './status.tsx';

/**
 * Asks for the workbench's API key when the service answers 401 (it runs with WORKBENCH_AUTH_API_KEY),
 * checks it, keeps it in this browser and reloads every query with it.
 */
export function KeyPrompt() {
  const queryClient = useQueryClient();
  const [needed, setNeeded] = useState(false);
  const [key, setKey] = useState('');
  const [error, setError] = useState<ApiError | null>(null);
  const [checking, setChecking] = useState(false);
  useEffect(() => onUnauthorized(() => setNeeded(true)), []);
  if (!needed) return null;

  async function submit(event: FormEvent) {
    event.preventDefault();
    setChecking(true);
    setError(null);
    setApiKey(key.trim());
    try {
      await api.settings.check();
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
      <form className="card form key-prompt" onSubmit={submit} aria-label="Workbench API key">
        <h2>This workbench needs its API key</h2>
        <p className="hint">
          The service runs with <code>WORKBENCH_AUTH_API_KEY</code>. The key stays in this browser.
        </p>
        <label className="field">
          <span>API key</span>
          <input
            name="workbench_key"
            type="password"
            value={key}
            required
            autoComplete="current-password"
            onChange={(event) => setKey(event.target.value)}
          />
        </label>
        <div className="form-actions">
          <button type="submit" className="button-primary" disabled={checking || !key.trim()}>
            {checking ? 'Checking…' : 'Continue'}
          </button>
          <ErrorNote error={error} />
        </div>
      </form>
    </div>
  );
}
