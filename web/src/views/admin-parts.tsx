import type { ComponentChildren } from 'preact';
import { useEffect, useRef } from 'preact/hooks';
import type { Outcome, Resource } from '../resource-state.ts';
import './admin-parts.css';

/** The last action's result: a status line, or an alert with the gateway's `detail`. */
export function OutcomeLine({ outcome }: { outcome: Outcome | undefined }) {
  return (
    <p role="status" class={outcome?.ok === false ? 'error outcome' : 'outcome'}>
      {outcome ? (outcome.ok ? outcome.text : `Failed: ${outcome.text}`) : null}
    </p>
  );
}

/** Loading, the load's error (its `detail`), or an empty list's sentence; nothing once loaded. */
export function LoadState<T>(props: {
  resource: Resource<T>;
  empty: boolean;
  emptyText: string;
  what: string;
}) {
  const { resource, empty, emptyText, what } = props;
  if (resource.error !== undefined) {
    return (
      <p class="error" role="alert">
        Could not load {what}: {resource.error}
      </p>
    );
  }
  if (resource.data === undefined) return <p class="muted">Loading {what}…</p>;
  return empty ? <p class="muted">{emptyText}</p> : null;
}

/**
 * An inline "are you sure" card: says what will happen, takes the keyboard's focus when it opens
 * (Escape keeps things as they are), and gives it back to the page when it closes.
 */
export function ConfirmCard(props: {
  title: string;
  confirmLabel: string;
  busy?: boolean;
  onConfirm: () => void;
  onCancel: () => void;
  children?: ComponentChildren;
}) {
  const cancel = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    const opener = document.activeElement;
    cancel.current?.focus();
    return () => {
      if (opener instanceof HTMLElement && opener.isConnected) opener.focus();
    };
  }, []);
  const id = `confirm-${props.title.replace(/\W+/g, '-').toLowerCase()}`;
  return (
    <div
      class="card warn-card"
      role="alertdialog"
      aria-labelledby={id}
      onKeyDown={(e) => {
        if (e.key === 'Escape') props.onCancel();
      }}
    >
      <h4 id={id}>{props.title}</h4>
      {props.children}
      <div class="actions">
        <button type="button" class="danger" disabled={props.busy} onClick={props.onConfirm}>
          {props.confirmLabel}
        </button>
        <button type="button" ref={cancel} onClick={props.onCancel}>
          Cancel
        </button>
      </div>
    </div>
  );
}

export interface Finding {
  rule: string;
  line: number;
  severity: 'low' | 'medium' | 'high' | 'critical';
  message: string;
}

/** The scanner's findings, worst first, each with its severity, line and rule. */
export function Findings({ findings, flagged }: { findings: Finding[]; flagged: boolean }) {
  const order = ['critical', 'high', 'medium', 'low'];
  const sorted = [...findings].sort(
    (a, b) => order.indexOf(a.severity) - order.indexOf(b.severity) || a.line - b.line,
  );
  return (
    <div class="findings">
      <p class={flagged ? 'warn' : 'muted'}>
        {flagged ? 'Flagged by the scanner' : 'Not flagged by the scanner'}
        {findings.length === 0 ? ': no findings.' : `: ${findings.length} finding(s).`}
      </p>
      {sorted.length > 0 ? (
        <ul class="finding-list">
          {sorted.map((f, i) => (
            <li key={`${f.rule}-${f.line}-${i}`}>
              <span class={`severity severity-${f.severity}`}>{f.severity}</span> line {f.line}{' '}
              <code>{f.rule}</code>: {f.message}
            </li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}

/**
 * Source shown whole, as text: numbered lines, the lines with a finding marked, in a box that
 * scrolls (and that the keyboard can reach and scroll).
 */
export function CodeBlock(props: { code: string; label: string; findings?: Finding[] }) {
  const marked = new Map<number, string>();
  for (const f of props.findings ?? []) marked.set(f.line, f.severity);
  const lines = props.code.replace(/\n$/, '').split('\n');
  return (
    <pre class="code-block" tabIndex={0} role="region" aria-label={props.label}>
      <code>
        {lines.map((line, i) => (
          <span
            key={i}
            class={
              marked.has(i + 1)
                ? `code-line marked severity-line-${marked.get(i + 1)}`
                : 'code-line'
            }
            title={marked.has(i + 1) ? `Finding (${marked.get(i + 1)})` : undefined}
          >
            <span class="line-no" aria-hidden="true">
              {i + 1}
            </span>
            {line}
            {'\n'}
          </span>
        ))}
      </code>
    </pre>
  );
}

/** A list of names as inline code, or a dash. */
export function NameList({ names, none = '—' }: { names: string[]; none?: string }) {
  if (names.length === 0) return <span class="muted">{none}</span>;
  return (
    <span class="name-list">
      {names.map((name, i) => (
        <span key={name}>
          {i > 0 ? ', ' : null}
          <code>{name}</code>
        </span>
      ))}
    </span>
  );
}
