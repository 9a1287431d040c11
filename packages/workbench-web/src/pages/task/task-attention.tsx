import { useEffect, useRef, useState } from 'react';
import { taskStatus, taskWorking } from '../../api/task-status.ts';
import type { Task } from '../../api/types.ts';

const notifyKey = 'keel-workbench-notify';
const shellTitle = 'Keel workbench';

/** Whether the user is looking at this page (its tab shown and its window focused). */
const looking = () => document.visibilityState === 'visible' && document.hasFocus();

/**
 * What the tab and the system tell a user who looks elsewhere while the task works: the tab title says what
 * it does ("● coding · todo 2 of 5 · Greet the user"), and once the work ends unseen it starts with "✓"
 * until the page is looked at again; with notifications on (opt-in, `NotifyToggle`), the end also comes as
 * a browser notification.
 */
export function useTaskAttention(task: Task | undefined): void {
  const working = task ? taskWorking(task) : false;
  const [endedUnseen, setEndedUnseen] = useState(false);
  const wasWorking = useRef(working);
  useEffect(() => {
    if (!task) return;
    const ended = wasWorking.current && !working;
    wasWorking.current = working;
    if (!ended || looking()) return;
    setEndedUnseen(true);
    if (localStorage.getItem(notifyKey) === '1' && 'Notification' in window) {
      if (Notification.permission === 'granted') {
        const status = taskStatus(task);
        new Notification(`Keel: ${task.description.split('\n')[0]}`, {
          body: `${status.label}. ${status.title}`,
          tag: task.id,
        });
      }
    }
  }, [task, working]);
  useEffect(() => {
    const seen = () => {
      if (looking()) setEndedUnseen(false);
    };
    window.addEventListener('focus', seen);
    document.addEventListener('visibilitychange', seen);
    return () => {
      window.removeEventListener('focus', seen);
      document.removeEventListener('visibilitychange', seen);
    };
  }, []);
  const label = task ? taskStatus(task).label : '';
  const name = task?.description.split('\n')[0] ?? '';
  useEffect(() => {
    if (!name) return;
    const mark = working ? '● ' : endedUnseen ? '✓ ' : '';
    document.title = `${mark}${label} · ${name} — ${shellTitle}`;
    return () => {
      document.title = shellTitle;
    };
  }, [working, endedUnseen, label, name]);
}

/**
 * "Notify me when work ends": off until the user turns it on (and the browser allows it); kept in this
 * browser for every task.
 */
export function NotifyToggle() {
  const supported = typeof window !== 'undefined' && 'Notification' in window;
  const [on, setOn] = useState(() => supported && localStorage.getItem(notifyKey) === '1');
  const [refused, setRefused] = useState(false);
  if (!supported) return null;
  return (
    <label className="hint">
      <input
        type="checkbox"
        checked={on}
        onChange={async (event) => {
          const wanted = event.target.checked;
          if (wanted && Notification.permission !== 'granted') {
            const answer = await Notification.requestPermission();
            if (answer !== 'granted') {
              setRefused(true);
              return;
            }
          }
          setRefused(false);
          localStorage.setItem(notifyKey, wanted ? '1' : '0');
          setOn(wanted);
        }}
      />{' '}
      Notify me when work ends
      {refused ? (
        <span className="hint" role="status">
          {' '}
          — the browser refused: allow notifications for this site in its settings.
        </span>
      ) : null}
    </label>
  );
}
