import { useEffect } from 'preact/hooks';
import type { ViewEntry } from '../views/registry.ts';

/** What the keyboard shortcuts do (the shell supplies each). */
export interface ShortcutActions {
  go(view: ViewEntry): void;
  focusInput(): void;
  help(): void;
  escape(): void;
}

/** How long after `g` its letter is awaited. */
const SEQUENCE_MS = 1500;

/** Whether a key press belongs to a field the user is typing in. */
function typing(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  return target.isContentEditable || target.closest('input, textarea, select') !== null;
}

/**
 * The page's shortcuts: `/` or Ctrl+K (⌘K) focus the view's input, `g` then a view's letter
 * goes there, `?` opens the shortcuts dialog, Esc closes the drawer. Only Ctrl+K and Esc act
 * while typing in a field; none acts under an open modal dialog (it has its own keys).
 */
export function useShortcuts(views: readonly ViewEntry[], actions: ShortcutActions): void {
  useEffect(() => {
    let awaiting = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const onKey = (event: KeyboardEvent) => {
      if (event.defaultPrevented || event.isComposing) return;
      if (event.key === 'Escape') {
        actions.escape();
        return;
      }
      if (document.querySelector('dialog[open]')) return;
      if ((event.ctrlKey || event.metaKey) && !event.altKey && event.key.toLowerCase() === 'k') {
        event.preventDefault();
        actions.focusInput();
        return;
      }
      if (event.ctrlKey || event.metaKey || event.altKey || typing(event.target)) return;
      if (awaiting) {
        awaiting = false;
        clearTimeout(timer);
        const view = views.find((v) => v.key === event.key);
        if (view) {
          event.preventDefault();
          actions.go(view);
        }
        return;
      }
      if (event.key === 'g') {
        awaiting = true;
        timer = setTimeout(() => (awaiting = false), SEQUENCE_MS);
      } else if (event.key === '/') {
        event.preventDefault();
        actions.focusInput();
      } else if (event.key === '?') {
        event.preventDefault();
        actions.help();
      }
    };
    document.addEventListener('keydown', onKey);
    return () => {
      clearTimeout(timer);
      document.removeEventListener('keydown', onKey);
    };
  }, [views, actions]);
}

/**
 * The view's main input: one marked `data-primary-input`, else its first text area, search
 * field or text field. Undefined when the view has none.
 */
export function primaryInput(): HTMLElement | undefined {
  const main = document.getElementById('main');
  if (!main) return undefined;
  const found =
    main.querySelector<HTMLElement>('[data-primary-input]') ??
    main.querySelector<HTMLElement>('textarea') ??
    main.querySelector<HTMLElement>('input[type=search]') ??
    main.querySelector<HTMLElement>('input[type=text], input:not([type])');
  return found ?? undefined;
}
