import { useEffect, useRef, useState } from 'react';
import { useNavigate } from 'react-router';

/** Every shortcut, as the help lists it. */
const shortcuts: [keys: string, what: string][] = [
  ['?', 'Show or hide this help'],
  ['n', "The current stage's next step (Confirm, Lock plan, Start coding, Run all, Commit and open MR)"],
  ['x', 'Stop the running work'],
  ['/', 'Go to the message box'],
  ['Enter', 'Send the message (Shift+Enter: a new line)'],
  ['g then p', 'Projects'],
  ['g then t', 'Tasks'],
  ['g then c', 'Conversations'],
  ['g then s', 'Settings'],
  ['Escape', 'Close this help'],
];

const places: Record<string, string> = { p: '/projects', t: '/tasks', c: '/conversations', s: '/settings' };

/** Whether a key press belongs to what the user is typing in. */
function typing(target: EventTarget | null): boolean {
  const element = target as HTMLElement | null;
  if (!element) return false;
  return element.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(element.tagName);
}

/** The first control marked for a shortcut that is on screen and usable now. */
function control(name: string): HTMLElement | undefined {
  return [...document.querySelectorAll<HTMLElement>(`[data-shortcut="${name}"]`)].find(
    (element) => element.offsetParent !== null && !(element as HTMLButtonElement).disabled,
  );
}

/**
 * The keyboard shortcuts of the whole app (never while typing in a field): `?` for their help, `n` for the
 * stage's next step, `x` to stop, `/` for the message box, `g` then a letter to go to a page. Controls take
 * part by their `data-shortcut` attribute, so the shortcut does exactly what the visible button does.
 */
export function Shortcuts() {
  const navigate = useNavigate();
  const [help, setHelp] = useState(false);
  const dialog = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    let pendingG = false;
    const onKey = (event: KeyboardEvent) => {
      if (event.ctrlKey || event.metaKey || event.altKey || typing(event.target)) return;
      if (pendingG) {
        pendingG = false;
        const place = places[event.key];
        if (place) {
          event.preventDefault();
          navigate(place);
        }
        return;
      }
      if (event.key === '?') {
        event.preventDefault();
        setHelp((shown) => !shown);
      } else if (event.key === 'g') {
        pendingG = true;
      } else if (event.key === 'n' || event.key === 'x') {
        const target = control(event.key === 'n' ? 'next' : 'stop');
        if (target) {
          event.preventDefault();
          target.click();
        }
      } else if (event.key === '/') {
        const box = control('message');
        if (box) {
          event.preventDefault();
          box.focus();
        }
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [navigate]);
  useEffect(() => {
    const element = dialog.current;
    if (!element) return;
    if (help && !element.open) element.showModal();
    if (!help && element.open) element.close();
  }, [help]);
  return (
    <dialog
      ref={dialog}
      className="shortcuts"
      aria-labelledby="shortcuts-title"
      onClose={() => setHelp(false)}
    >
      <h2 id="shortcuts-title">Keyboard shortcuts</h2>
      <table>
        <tbody>
          {shortcuts.map(([keys, what]) => (
            <tr key={keys}>
              <th scope="row">
                <kbd>{keys}</kbd>
              </th>
              <td>{what}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <form method="dialog">
        <button type="submit" className="button-secondary">
          Close
        </button>
      </form>
    </dialog>
  );
}
