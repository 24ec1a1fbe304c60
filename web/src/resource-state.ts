import { useCallback, useEffect, useState } from 'preact/hooks';

/** What a view loaded: the data, or the error's `detail`, and whether a load is under way. */
export interface Resource<T> {
  data: T | undefined;
  error: string | undefined;
  loading: boolean;
  reload(): Promise<void>;
}

/** Loads once on mount (and every `everyMs` if given); `reload` loads again. */
export function useResource<T>(load: () => Promise<T>, everyMs?: number): Resource<T> {
  const [data, setData] = useState<T>();
  const [error, setError] = useState<string>();
  const [loading, setLoading] = useState(true);
  const reload = useCallback(async () => {
    setLoading(true);
    try {
      setData(await load());
      setError(undefined);
    } catch (e) {
      setError((e as Error).message);
    } finally {
      setLoading(false);
    }
    // `load` is the view's own function, the same for the view's whole life.
  }, []);
  useEffect(() => {
    void reload();
    if (everyMs === undefined) return;
    const timer = setInterval(() => void reload(), everyMs);
    return () => clearInterval(timer);
  }, [reload, everyMs]);
  return { data, error, loading, reload };
}

/** The result of the last action a view ran: said in a status line, or an alert when it failed. */
export interface Outcome {
  ok: boolean;
  text: string;
}

/** Runs an action, and says what came of it: `done` names the success, an error its `detail`. */
export function useOutcome() {
  const [outcome, setOutcome] = useState<Outcome>();
  const [busy, setBusy] = useState(false);
  const run = useCallback(async <T>(action: () => Promise<T>, done: (value: T) => string) => {
    setBusy(true);
    try {
      const value = await action();
      setOutcome({ ok: true, text: done(value) });
      return value;
    } catch (e) {
      setOutcome({ ok: false, text: (e as Error).message });
      return undefined;
    } finally {
      setBusy(false);
    }
  }, []);
  return { outcome, busy, run, setOutcome };
}
