import { useEffect, useRef, useState } from 'preact/hooks';
import { MAX_LOG_LINES, streamLogs, type LogLine, type StreamState } from '../log-stream.ts';
import { count } from './admin-ui.tsx';

const LEVELS = ['trace', 'debug', 'info', 'warn', 'error', 'fatal'] as const;
type Level = (typeof LEVELS)[number];
const rank = (level: string): number => LEVELS.indexOf(level as Level);

/** A line with its place in the stream, its key in the list. */
interface Numbered {
  id: number;
  line: LogLine;
}

const STATE_TEXT: Record<StreamState, string> = {
  connecting: 'Connecting…',
  live: 'Live',
  unavailable: 'This gateway keeps no log for clients (its logger has no tail).',
  closed: 'Disconnected; reconnecting…',
};

/** One line as text: its time (local), level, area and message. */
function timeOf(line: LogLine): string {
  const date = new Date(line.time);
  return Number.isNaN(date.getTime()) ? line.time : date.toLocaleTimeString();
}

/**
 * The gateway's log as it happens: a level filter, pause (the lines go on arriving and are
 * shown on resume) and at most `MAX_LOG_LINES` lines kept.
 */
export function LogsView() {
  const buffer = useRef<Numbered[]>([]);
  const seq = useRef(0);
  const [shown, setShown] = useState<Numbered[]>([]);
  const [state, setState] = useState<StreamState>('connecting');
  const [paused, setPaused] = useState(false);
  const [missed, setMissed] = useState(0);
  const [minimum, setMinimum] = useState<Level>('info');
  const pausedRef = useRef(paused);
  pausedRef.current = paused;
  const list = useRef<HTMLOListElement>(null);

  useEffect(() => {
    let frame = 0;
    const render = () => {
      frame = 0;
      if (!pausedRef.current) setShown([...buffer.current]);
    };
    return streamLogs({
      onState: setState,
      onLines(lines, replace) {
        const numbered = lines.map((line) => ({ id: (seq.current += 1), line }));
        const next = replace ? numbered : [...buffer.current, ...numbered];
        buffer.current = next.slice(-MAX_LOG_LINES);
        if (pausedRef.current) setMissed((n) => n + lines.length);
        else if (frame === 0) frame = requestAnimationFrame(render);
      },
    });
  }, []);

  const visible = shown.filter(({ line }) => rank(line.level) >= rank(minimum));

  // Follow the newest line unless the reader scrolled up.
  useEffect(() => {
    const element = list.current;
    if (element && element.scrollHeight - element.scrollTop - element.clientHeight < 80) {
      element.scrollTop = element.scrollHeight;
    }
  }, [visible.length]);

  const togglePause = () => {
    if (paused) {
      setShown([...buffer.current]);
      setMissed(0);
    }
    setPaused(!paused);
  };

  return (
    <section aria-labelledby="logs-title">
      <h2 id="logs-title">Live log</h2>
      <p role="status" class={state === 'live' ? 'muted' : 'error'}>
        {STATE_TEXT[state]}
        {paused ? ` Paused: ${count(missed)} new line${missed === 1 ? '' : 's'} since.` : ''}
      </p>
      <div class="row">
        <label for="log-level">Lowest level</label>
        <select
          id="log-level"
          value={minimum}
          onChange={(e) => setMinimum(e.currentTarget.value as Level)}
        >
          {LEVELS.map((level) => (
            <option key={level} value={level}>
              {level}
            </option>
          ))}
        </select>
        <button type="button" aria-pressed={paused} onClick={togglePause}>
          {paused ? 'Resume' : 'Pause'}
        </button>
        <button
          type="button"
          class="danger"
          onClick={() => {
            buffer.current = [];
            setShown([]);
            setMissed(0);
          }}
        >
          Clear the page
        </button>
      </div>
      <p class="muted">
        Showing {count(visible.length)} of {count(shown.length)} lines (the newest{' '}
        {count(MAX_LOG_LINES)} are kept).
      </p>
      {visible.length === 0 ? (
        <p class="muted">
          {state === 'live' ? `No line at ${minimum} or above yet.` : 'No line yet.'}
        </p>
      ) : null}
      <ol
        ref={list}
        class="log-lines"
        aria-label="Log lines"
        tabIndex={0}
        hidden={visible.length === 0}
      >
        {visible.map(({ id, line }) => (
          <li key={id} class={`level-${line.level}`}>
            <span class="muted">{timeOf(line)}</span>{' '}
            <span class={`level level-${line.level}`}>{line.level}</span>{' '}
            {line.area ? <span class="muted">[{line.area}] </span> : null}
            <span>{line.msg}</span>
          </li>
        ))}
      </ol>
    </section>
  );
}
