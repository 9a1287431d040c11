import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { api } from '../api/client.ts';
import { scrub } from '../api/error-words.ts';
import type { ApiError } from '../api/errors.ts';
import type { SettingsCheck } from '../api/types.ts';

export function useSettingsCheck() {
  return useQuery<SettingsCheck, ApiError>({ queryKey: ['settings', 'check'], queryFn: api.settings.check });
}

/**
 * `GET /api/settings/check` as a banner: what is missing before AI actions can run and which runners are
 * usable. Compact (on every page) it shows only when something is missing.
 */
export function CheckBanner({ compact = false }: { compact?: boolean }) {
  const check = useSettingsCheck();
  // A missing key is asked for by the key prompt, not reported as an outage; an outage has its own banner.
  if (check.error?.status === 401 || check.error?.code === 'NETWORK_ERROR') return null;
  if (check.error) {
    return (
      <div className="banner banner-bad" role="alert">
        The workbench service does not answer: {check.error.message}
      </div>
    );
  }
  const data = check.data;
  if (!data) return null;
  const usable = data.runners.filter((runner) => runner.usable);
  if (compact) {
    if (data.ready) return null;
    return (
      <div className="banner banner-warn" role="status">
        Before AI actions can run, set: <strong>{data.missing.join(', ')}</strong>.{' '}
        <Link to="/settings">Open settings</Link>
      </div>
    );
  }
  return (
    <section
      className={`banner ${data.ready ? 'banner-ok' : 'banner-warn'} check`}
      aria-label="Settings check"
      data-testid="settings-check"
    >
      <div>
        {data.ready ? (
          <strong>Ready: AI actions can run.</strong>
        ) : (
          <>
            <strong>Missing:</strong> {data.missing.join(', ')} — set it below and save; AI actions cannot run
            until then.
            {Object.values(data.reasons ?? {}).map((reason) => (
              <span key={reason} className="check-reason">
                {' '}
                {scrub(reason)}
              </span>
            ))}
          </>
        )}
      </div>
      <ul className="runner-list">
        {data.runners.map((runner) => (
          <li
            key={runner.config_id ?? runner.kind}
            className={runner.usable ? 'usable' : 'unusable'}
            data-testid="runner-availability"
            data-config-id={runner.config_id ?? runner.kind}
          >
            <span aria-hidden="true">{runner.usable ? '✓' : '✗'}</span> {runner.config_id ?? runner.kind}
            {runner.config_id && runner.config_id !== runner.kind ? (
              <span className="hint"> ({runner.kind})</span>
            ) : null}
            {runner.version ? ` ${runner.version}` : ''}
            <span className="sr-only">{runner.usable ? ' usable' : ' not usable'}</span>
            {!runner.usable && runner.reason ? <span className="hint"> — {runner.reason}</span> : null}
          </li>
        ))}
      </ul>
      <div className="hint">
        {usable.length} of {data.runners.length} runners usable on this machine.
      </div>
    </section>
  );
}
