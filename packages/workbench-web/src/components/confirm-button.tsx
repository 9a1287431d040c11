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
  onConfirm,
}: {
  label: string;
  question: string;
  confirm?: string;
  /** The button that backs out (default "Cancel"). */
  dismiss?: string;
  pending?: boolean;
  onConfirm: () => void;
}) {
  const [asking, setAsking] = useState(false);
  const cancel = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    if (asking) cancel.current?.focus();
  }, [asking]);
  if (!asking) {
    return (
      <button type="button" className="button-danger" disabled={pending} onClick={() => setAsking(true)}>
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
