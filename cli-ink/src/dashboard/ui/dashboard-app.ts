import { useApp, useInput, useWindowSize } from 'ink';
import { createElement as h, useState, useSyncExternalStore } from 'react';
import type { DashboardCore } from '../dashboard-core.ts';
import { DashboardView } from './dashboard-view.ts';

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
 * the screen alone (help shown, chat input), and turns keys into calls on the core.
 */
export function DashboardApp(props: DashboardAppProps) {
  const { core } = props;
  const state = useSyncExternalStore(core.subscribe, core.getState);
  const terminal = useWindowSize();
  const size = props.size ?? terminal;
  const [help, setHelp] = useState(false);
  const [input, setInput] = useState<string | null>(null);
  const app = useApp();
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
    if (key === '?') return setHelp(!help);
    if (special.escape && help) return setHelp(false);
    if (key === 'q' || (special.ctrl && key === 'c')) return exit('quit');
    if (special.upArrow || key === 'k') return core.select(-1);
    if (special.downArrow || key === 'j') return core.select(1);
    if (key === 'a') return void core.approveSelected(false);
    if (key === 'A') return void core.approveSelected(true);
    if (key === 'd') return void core.denySelected();
    if (key === 'r') return void core.refresh();
    if (key === 'c' || special.tab) return setInput('');
    if (key === '/') return setInput('/');
    if (key === 's' && state.needsSetup) return exit('setup');
  });

  return h(DashboardView, {
    state,
    input,
    help,
    color: props.color,
    columns: size.columns,
    rows: size.rows,
  });
}
