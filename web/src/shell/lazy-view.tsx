import { useEffect, useState } from 'preact/hooks';
import type { ViewComponent, ViewEntry, ViewProps } from '../views/registry.ts';

/** Views already loaded, by id (a chunk is fetched once per page). */
const loaded = new Map<string, ViewComponent>();

/** A registry entry's component: at once when it is eager or loaded, else after its chunk. */
export function LazyView(props: { view: ViewEntry; context: ViewProps }) {
  const { view, context } = props;
  const ready = view.component ?? loaded.get(view.id);
  const [, setTick] = useState(0);
  const [error, setError] = useState<string>();
  useEffect(() => {
    if (ready || !view.load) return;
    let current = true;
    setError(undefined);
    view.load().then(
      (component) => {
        loaded.set(view.id, component);
        if (current) setTick((n) => n + 1);
      },
      () => {
        if (current) setError(`The ${view.label} view could not be loaded: reload the page.`);
      },
    );
    return () => {
      current = false;
    };
  }, [view, ready]);
  if (error) return <p role="alert">{error}</p>;
  if (!ready) return <p role="status">Loading {view.label}…</p>;
  const Component = ready;
  return <Component {...context} />;
}
