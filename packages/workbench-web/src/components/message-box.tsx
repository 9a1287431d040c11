import { type FormEvent, type KeyboardEvent, useEffect, useId, useRef, useState } from 'react';
import type { ApiError } from '../api/errors.ts';
import { ErrorNote, invalidBy } from './status.tsx';

/**
 * A labelled message box: Enter sends, Shift+Enter is a new line; the error of the send shows under it, and
 * the refused message comes back into the box to be corrected rather than typed again.
 */
export function MessageBox({
  label,
  placeholder,
  button = 'Send',
  disabled = false,
  pending = false,
  error,
  onSend,
}: {
  label: string;
  placeholder?: string;
  button?: string;
  disabled?: boolean;
  pending?: boolean;
  error?: ApiError | null;
  onSend: (message: string) => void;
}) {
  const id = useId();
  const [text, setText] = useState('');
  const [lastSent, setLastSent] = useState('');
  // Only a NEW error brings the message back: the previous refusal is still shown for a moment after the
  // corrected message is sent (the mutation resets a tick later), and must not refill the box with it.
  const restoredFor = useRef<ApiError | null>(null);
  useEffect(() => {
    if (!error || error === restoredFor.current || !lastSent) return;
    restoredFor.current = error;
    setText((current) => current || lastSent);
  }, [error, lastSent]);
  function send(event?: FormEvent) {
    event?.preventDefault();
    const message = text.trim();
    if (!message || disabled || pending) return;
    onSend(message);
    setLastSent(message);
    setText('');
  }
  function onKeyDown(event: KeyboardEvent) {
    if (event.key === 'Enter' && !event.shiftKey && !event.nativeEvent.isComposing) {
      event.preventDefault();
      send();
    }
  }
  return (
    <form className="message-box" onSubmit={send}>
      <label htmlFor={id}>{label}</label>
      <div className="row">
        <textarea
          id={id}
          data-shortcut="message"
          rows={2}
          value={text}
          disabled={disabled}
          placeholder={placeholder}
          onKeyDown={onKeyDown}
          onChange={(event) => setText(event.target.value)}
          {...invalidBy(error, `${id}-error`)}
        />
        <button type="submit" className="button-secondary" disabled={disabled || pending || !text.trim()}>
          {pending ? 'Sending…' : button}
        </button>
      </div>
      <ErrorNote error={error} id={`${id}-error`} />
    </form>
  );
}
