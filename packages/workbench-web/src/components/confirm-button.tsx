import { useEffect, useRef, useState } from 'react';

/**
 * A destructive action asked twice, in place: the first press shows what will happen with "Yes" and
 * "Cancel" (focus moves to Cancel, Escape cancels), the second does it.
 */
export function ConfirmButton({
  label,
  question,
  confirm = label,
  dismiss = 'Cancel',
  pending = false,
  disabled = false,
  title,
  onConfirm,
}: {
  label: string;
  question: string;
  confirm?: string;
  /** The button that backs out (default "Cancel"). */
  dismiss?: string;
  pending?: boolean;
  /** Not possible now (`title` says why). */
  disabled?: boolean;
  title?: string | undefined;
  onConfirm: () => void;
}) {
  const [asking, setAsking] = useState(false);
  const cancel = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    if (asking) cancel.current?.focus();
  }, [asking]);
  if (!asking) {
    return (
      <button
        type="button"
        className="button-danger"
        disabled={pending || disabled}
        title={title}
        onClick={() => setAsking(true)}
      >
        {pending ? 'Working…' : label}
      </button>
    );
  }
  return (
    <fieldset
      className="confirm"
      aria-label={question}
      onKeyDown={(event) => {
        if (event.key === 'Escape') setAsking(false);
      }}
    >
      <span className="confirm-question">{question}</span>
      <button
        type="button"
        className="button-danger"
        onClick={() => {
          setAsking(false);
          onConfirm();
        }}
      >
        {confirm}
      </button>
      <button type="button" className="button-quiet" ref={cancel} onClick={() => setAsking(false)}>
        {dismiss}
      </button>
    </fieldset>
  );
}
