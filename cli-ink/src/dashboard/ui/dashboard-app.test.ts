import { cleanup, render } from 'ink-testing-library';
import { createElement as h } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { DashboardState } from '../dashboard-state.ts';
import { sampleState } from '../testing/sample-state.ts';
import { DashboardApp, type DashboardAppProps, type DashboardExit } from './dashboard-app.ts';

afterEach(() => cleanup());

/** A core whose state the test sets and whose actions it records. */
function fakeCore(initial: DashboardState) {
  let state = initial;
  const listeners = new Set<() => void>();
  return {
    getState: () => state,
    subscribe: (listener: () => void) => {
      listeners.add(listener);
      return () => void listeners.delete(listener);
    },
    set(patch: Partial<DashboardState>) {
      state = { ...state, ...patch };
      for (const l of listeners) l();
    },
    select: vi.fn<(delta: number) => void>(),
    approveSelected: vi.fn<(always: boolean, id?: string) => Promise<void>>(() =>
      Promise.resolve(),
    ),
    denySelected: vi.fn<(id?: string) => Promise<void>>(() => Promise.resolve()),
    sendChat: vi.fn<(text: string) => void>(),
    refresh: vi.fn<() => Promise<void>>(() => Promise.resolve()),
  } satisfies DashboardAppProps['core'] & { set: unknown };
}

const tick = () => new Promise((resolve) => setTimeout(resolve, 30));

function mount(state = sampleState()) {
  const core = fakeCore(state);
  const exits: DashboardExit[] = [];
  const app = render(
    h(DashboardApp, {
      core,
      color: false,
      onExit: (r) => exits.push(r),
      size: { columns: 80, rows: 24 },
    }),
  );
  return { core, exits, app };
}

describe('dashboard keys', () => {
  it('a, A and d approve, approve always and deny; arrows and j/k move the selection', async () => {
    const { core, app } = mount();
    await tick();
    for (const key of ['a', 'A', 'd', 'j', 'k', '\u001b[B', '\u001b[A']) {
      app.stdin.write(key);
      await tick();
    }
    // Each decision names the approval the pane showed (the selection cannot shift under it).
    const shown = sampleState().pending[0]!.id;
    expect(core.approveSelected.mock.calls).toEqual([
      [false, shown],
      [true, shown],
    ]);
    expect(core.denySelected.mock.calls).toEqual([[shown]]);
    expect(core.select.mock.calls).toEqual([[1], [-1], [1], [-1]]);
  });

  it('? shows the keyboard help and hides it again', async () => {
    const { app } = mount();
    await tick();
    app.stdin.write('?');
    await tick();
    expect(app.lastFrame()).toContain('A          approve it and allow it from now on');
    app.stdin.write('?');
    await tick();
    expect(app.lastFrame()).toContain('Approvals (2 pending)');
  });

  it('c opens the chat input: typed text, backspace, Enter sends, Esc leaves', async () => {
    const { core, app } = mount();
    await tick();
    app.stdin.write('c');
    await tick();
    app.stdin.write('hellx');
    await tick();
    app.stdin.write('\u007f'); // backspace
    await tick();
    app.stdin.write('o');
    await tick();
    expect(app.lastFrame()).toContain('> hello█');
    app.stdin.write('\r');
    await tick();
    expect(core.sendChat).toHaveBeenCalledWith('hello');
    // Keys are text while typing: `a` does not approve.
    app.stdin.write('a');
    await tick();
    expect(core.approveSelected).not.toHaveBeenCalled();
    app.stdin.write('\u001b');
    await tick();
    expect(app.lastFrame()).toContain('press c to chat');
  });

  it('/ starts a slash command; control characters never reach the input', async () => {
    const { core, app } = mount();
    await tick();
    app.stdin.write('/');
    await tick();
    app.stdin.write('model auto\u0007');
    await tick();
    app.stdin.write('\r');
    await tick();
    expect(core.sendChat).toHaveBeenCalledWith('/model auto');
  });

  it('q quits; s asks for setup only when no provider works', async () => {
    const first = mount();
    await tick();
    first.app.stdin.write('s');
    await tick();
    expect(first.exits).toEqual([]);
    first.app.stdin.write('q');
    await tick();
    expect(first.exits).toEqual(['quit']);

    cleanup();
    const second = mount(sampleState({ needsSetup: true }));
    await tick();
    second.app.stdin.write('s');
    await tick();
    expect(second.exits).toEqual(['setup']);
  });

  it('renders the new state when the core changes (a new approval, its countdown)', async () => {
    const { core, app } = mount(sampleState({ pending: [] }));
    await tick();
    expect(app.lastFrame()).toContain('nothing is waiting');
    const now = core.getState().now;
    core.set({
      pending: [
        {
          id: 'cccccccc-1',
          tool_name: 'shell',
          command: 'make',
          session_id: 's',
          created_at: now / 1000,
          expires_at: now / 1000 + 120,
        },
      ],
    });
    await tick();
    expect(app.lastFrame()).toContain('> 120s cccccccc shell: make');
    core.set({ now: now + 1_000 });
    await tick();
    expect(app.lastFrame()).toContain('> 119s cccccccc shell: make');
  });
});
