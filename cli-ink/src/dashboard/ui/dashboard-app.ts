import { useApp, useInput, useWindowSize } from 'ink';
import { createElement as h, useState, useSyncExternalStore } from 'react';
import { approvalRow, reviewLines } from '../approval-review.ts';
import type { DashboardCore } from '../dashboard-core.ts';
import { approvalsPaneWidth, DashboardView, reviewRows } from './dashboard-view.ts';

/** Why the dashboard ended: the user quit, or asked for `hearth setup`. */
export type DashboardExit = 'quit' | 'setup';

export interface DashboardAppProps {
  core: Pick<
    DashboardCore,
    | 'getState'
    | 'subscribe'
    | 'select'
    | 'approveSelected'
    | 'denySelected'
    | 'sendChat'
    | 'refresh'
  >;
  color: boolean;
  onExit: (reason: DashboardExit) => void;
  /** Fixed size (tests); the terminal's size otherwise. */
  size?: { columns: number; rows: number };
}

/**
 * The dashboard's only stateful component: it reads the core's state, keeps what belongs to
 * the screen alone (help shown, chat input, the approval under review), and turns keys into
 * calls on the core. `a` approves at once only a command its row showed whole; any other opens
 * the review, where `a` approves only once the last line has been on screen (issue #27).
 */
export function DashboardApp(props: DashboardAppProps) {
  const { core } = props;
  const state = useSyncExternalStore(core.subscribe, core.getState);
  const terminal = useWindowSize();
  const size = props.size ?? terminal;
  const [help, setHelp] = useState(false);
  const [input, setInput] = useState<string | null>(null);
  /** The approval under review: the first line shown, and whether its last line was shown. */
  const [review, setReview] = useState<{ id: string; offset: number; seenEnd: boolean } | null>(
    null,
  );
  const [hint, setHint] = useState<string | null>(null);
  const app = useApp();
  const reviewed = review && state.pending.find((p) => p.id === review.id);
  const lines = reviewed ? reviewLines(reviewed, Math.max(20, size.columns)) : [];
  const visible = reviewRows(size.rows);
  const scrollTo = (offset: number) => {
    if (!review) return;
    const top = Math.min(Math.max(0, lines.length - visible), Math.max(0, offset));
    const seenEnd = review.seenEnd || top + visible >= lines.length;
    setReview({ ...review, offset: top, seenEnd });
    setHint(null);
  };
  const exit = (reason: DashboardExit) => {
    props.onExit(reason);
    app.exit();
  };

  useInput((key, special) => {
    if (input !== null) {
      if (special.escape) return setInput(null);
      if (special.return) {
        core.sendChat(input);
        return setInput('');
      }
      if (special.backspace || special.delete) return setInput(input.slice(0, -1));
      if (special.ctrl && key === 'c') return exit('quit');
      // Typed or pasted text; control characters and other special keys are not text.
      // eslint-disable-next-line no-control-regex -- keeping controls out of the chat input
      const text = key.replace(/[\u0000-\u001f\u007f]/g, '');
      if (text && !special.ctrl && !special.meta) setInput((input + text).slice(0, 4_000));
      return;
    }
    if (reviewed && review) {
      if (special.escape || key === 'q') return setReview(null);
      if (special.ctrl && key === 'c') return exit('quit');
      if (special.downArrow || key === 'j') return scrollTo(review.offset + 1);
      if (special.upArrow || key === 'k') return scrollTo(review.offset - 1);
      if (key === ' ' || special.pageDown) return scrollTo(review.offset + visible);
      if (special.pageUp) return scrollTo(review.offset - visible);
      if (key === 'a' || key === 'A') {
        if (!review.seenEnd) {
          const more = lines.length - (review.offset + visible);
          return setHint(
            `${more} more line${more === 1 ? '' : 's'} below: scroll to the end (space, ↓) before approving`,
          );
        }
        setReview(null);
        return void core.approveSelected(key === 'A', reviewed.id);
      }
      if (key === 'd') {
        setReview(null);
        return void core.denySelected(reviewed.id);
      }
      return;
    }
    if (key === '?') return setHelp(!help);
    if (special.escape && help) return setHelp(false);
    // The help hides the approvals: a decision needs them on screen first.
    if (help && ['a', 'A', 'd'].includes(key)) return setHelp(false);
    if (key === 'q' || (special.ctrl && key === 'c')) return exit('quit');
    if (special.upArrow || key === 'k') return core.select(-1);
    if (special.downArrow || key === 'j') return core.select(1);
    if (key === 'a' || key === 'A') {
      const selected = state.pending[state.selected];
      if (!selected) return void core.approveSelected(key === 'A');
      const width = approvalsPaneWidth(size.columns, size.rows);
      // The row showed the whole command: approve exactly that one. Else read it all first.
      if (approvalRow(selected, { selected: true, left: 0, width }).whole)
        return void core.approveSelected(key === 'A', selected.id);
      const total = reviewLines(selected, Math.max(20, size.columns)).length;
      setHint(null);
      return setReview({ id: selected.id, offset: 0, seenEnd: total <= visible });
    }
    if (key === 'd') return void core.denySelected(state.pending[state.selected]?.id);
    if (key === 'r') return void core.refresh();
    if (key === 'c' || special.tab) return setInput('');
    if (key === '/') return setInput('/');
    if (key === 's' && state.needsSetup) return exit('setup');
  });

  const more = lines.length - ((review?.offset ?? 0) + visible);
  return h(DashboardView, {
    state,
    input,
    help,
    review: reviewed
      ? {
          approval: reviewed,
          offset: review.offset,
          hint:
            hint ??
            (review.seenEnd
              ? 'a approve · A approve always · d deny · ↑↓ space scroll · esc back'
              : `${more} more line${more === 1 ? '' : 's'}: space/↓ to read on (a approves only after the end) · d deny · esc back`),
        }
      : null,
    color: props.color,
    columns: size.columns,
    rows: size.rows,
  });
}
