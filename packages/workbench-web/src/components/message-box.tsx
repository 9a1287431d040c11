import { type FormEvent, type KeyboardEvent, useId, useState } from 'react';
import type { ApiError } from '../api/errors.ts';
import { ErrorNote } from './status.tsx';

/** A labelled message box: Enter sends, Shift+Enter is a new line; the error of the send shows under it. */
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
  function send(event?: FormEvent) {
    event?.preventDefault();
    const message = text.trim();
    if (!message || disabled || pending) return;
    onSend(message);
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
          rows={2}
          value={text}
          disabled={disabled}
          placeholder={placeholder}
          onKeyDown={onKeyDown}
          onChange={(event) => setText(event.target.value)}
        />
        <button type="submit" className="button-secondary" disabled={disabled || pending || !text.trim()}>
          {pending ? 'Sending…' : button}
        </button>
      </div>
      <ErrorNote error={error} />
    </form>
  );
}
