import type { ComponentChildren } from 'preact';
import { useCallback, useEffect, useRef, useState } from 'preact/hooks';
import './admin.css';

/** What a load is at: not yet answered, answered, or failed with the gateway's detail. */
export type Loaded<T> =
  { state: 'loading' } | { state: 'ready'; data: T } | { state: 'error'; error: string };

/**
 * Loads `fetcher` once and again on `reload()` (or every `everyMs`); the previous data stays
 * on screen while a reload runs.
 */
export function useLoad<T>(
  fetcher: () => Promise<T>,
  deps: readonly unknown[],
  everyMs?: number,
): [Loaded<T>, () => Promise<void>] {
  const [loaded, setLoaded] = useState<Loaded<T>>({ state: 'loading' });
  const load = useCallback(fetcher, deps);
  const reload = useCallback(
    () =>
      load().then(
        (data) => setLoaded({ state: 'ready', data }),
        (e: unknown) => setLoaded({ state: 'error', error: (e as Error).message }),
      ),
    [load],
  );
  useEffect(() => {
    setLoaded({ state: 'loading' });
    void reload();
    if (everyMs === undefined) return undefined;
    const timer = setInterval(() => void reload(), everyMs);
    return () => clearInterval(timer);
  }, [reload, everyMs]);
  return [loaded, reload];
}

/** Loading, error and empty states around a loaded value; `children` renders the data. */
export function LoadState<T>(props: {
  loaded: Loaded<T>;
  what: string;
  empty?: (data: T) => ComponentChildren | undefined;
  children: (data: T) => ComponentChildren;
}) {
  const { loaded } = props;
  if (loaded.state === 'loading') return <p class="muted">Loading {props.what}…</p>;
  if (loaded.state === 'error') {
    return (
      <p class="error" role="alert">
        Could not load {props.what}: {loaded.error}
      </p>
    );
  }
  const empty = props.empty?.(loaded.data);
  return <>{empty === undefined ? props.children(loaded.data) : <p class="muted">{empty}</p>}</>;
}

/** The outcome of the last action, read out by screen readers (`role=status`). */
export function useOutcome(): [
  { text: string; ok: boolean } | undefined,
  (promise: Promise<string>) => Promise<boolean>,
] {
  const [outcome, setOutcome] = useState<{ text: string; ok: boolean }>();
  const run = useCallback(
    (promise: Promise<string>) =>
      promise.then(
        (text) => {
          setOutcome({ text, ok: true });
          return true;
        },
        (e: unknown) => {
          setOutcome({ text: (e as Error).message, ok: false });
          return false;
        },
      ),
    [],
  );
  return [outcome, run];
}

export function Outcome(props: { outcome: { text: string; ok: boolean } | undefined }) {
  return (
    <p role="status" class={props.outcome?.ok === false ? 'error' : 'muted'}>
      {props.outcome?.text}
    </p>
  );
}

/** Figures as a definition list: `[label, value]` pairs. */
export function Stats(props: { items: [string, ComponentChildren][]; class?: string }) {
  return (
    <dl class={props.class ?? 'stats'}>
      {props.items.map(([label, value]) => (
        <div key={label}>
          <dt>{label}</dt>
          <dd>{value}</dd>
        </div>
      ))}
    </dl>
  );
}

/** A confirmation asked in the page (not `confirm()`), focused when it appears; Escape cancels. */
export function Confirm(props: {
  title: string;
  children?: ComponentChildren;
  confirm: string;
  cancel: string;
  onConfirm: () => void;
  onCancel: () => void;
}) {
  const id = `confirm-${props.title.replace(/\W+/g, '-').toLowerCase()}`;
  const first = useRef<HTMLButtonElement>(null);
  useEffect(() => first.current?.focus(), []);
  return (
    <div
      class="card warn-card"
      role="alertdialog"
      aria-labelledby={id}
      onKeyDown={(e) => {
        if (e.key === 'Escape') props.onCancel();
      }}
    >
      <h3 id={id}>{props.title}</h3>
      {props.children}
      <div class="actions">
        <button type="button" class="danger" ref={first} onClick={props.onConfirm}>
          {props.confirm}
        </button>
        <button type="button" onClick={props.onCancel}>
          {props.cancel}
        </button>
      </div>
    </div>
  );
}

/** A date and time in the reader's locale. */
export function when(epochMs: number): string {
  return new Date(epochMs).toLocaleString();
}

export const count = (value: number): string => value.toLocaleString('en-US');
