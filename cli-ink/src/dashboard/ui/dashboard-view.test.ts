import { render } from 'ink-testing-library';
import { createElement as h } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import { cleanup } from 'ink-testing-library';
import { sampleState } from '../testing/sample-state.ts';
import { DashboardView, type ViewProps } from './dashboard-view.ts';
import { theme } from './theme.ts';

afterEach(() => cleanup());

const view = (props: Partial<ViewProps> = {}) =>
  render(
    h(DashboardView, {
      state: sampleState(),
      input: null,
      help: false,
      color: false,
      columns: 80,
      rows: 24,
      ...props,
    }),
  );

/** The frame's lines, trailing blanks removed. */
const lines = (frame: string | undefined) => (frame ?? '').split('\n').map((l) => l.trimEnd());

describe('dashboard view at 80×24', () => {
  it('fits the terminal: at most 24 lines, none wider than 80 columns', () => {
    const frame = view().lastFrame();
    expect(lines(frame).length).toBeLessThanOrEqual(24);
    for (const line of lines(frame)) expect([...line].length, line).toBeLessThanOrEqual(80);
  });

  it('shows every pane: status with fallbacks, approvals, usage, memory, sessions, channels, log, chat', () => {
    const frame = view().lastFrame() ?? '';
    expect(frame).toContain('Hearth http://127.0.0.1:7432 · ok · v0.1.0 · up 1h 2m');
    expect(frame).toContain('ok · phase ready · up 1h 2m · 2 live');
    expect(frame).toContain('cpu 3.5% · rss 120 MB · disk 41.2%');
    expect(frame).toContain('disk free 20 GB · runtime ready');
    expect(frame).toContain('fallbacks: short_term, vectors');
    expect(view({ columns: 160 }).lastFrame()).toContain(
      'fallbacks: short_term (in-process), vectors (in-memory)',
    );
    expect(frame).toContain('Approvals (2 pending)');
    expect(frame).toContain('Usage · total $0.04 · tokens in→out');
    expect(frame).toContain('gpt-4o 12.3k→678 $0.04');
    expect(frame).toContain('openrouter/some-model 10→5 unpriced');
    expect(frame).toContain('42 entries · semantic off');
    expect(frame).toContain('Sessions (2)');
    expect(frame).toContain('no channels');
    expect(frame).toContain('WARN  [providers] primary unreachable');
    expect(frame).toContain('agent: Hi! How can I help?');
    expect(frame).toContain('press c to chat');
  });

  it('counts each approval down from 120 s, the selected one marked', () => {
    const frame = view().lastFrame() ?? '';
    expect(frame).toContain('>  87s aaaaaaaa shell: ls -la /tmp');
    expect(frame).toContain('   10s bbbbbbbb browser: open');
    const later =
      view({ state: sampleState({ now: sampleState().now + 5_000, selected: 1 }) }).lastFrame() ??
      '';
    expect(later).toContain('   82s aaaaaaaa');
    expect(later).toContain('>   5s bbbbbbbb');
  });

  it('shows channels with unread counts when the gateway serves them', () => {
    const frame =
      view({
        state: sampleState({
          channels: [
            { name: 'telegram', status: 'connected', unread: 3, messages_total: 9 },
            { name: 'mail', status: 'disconnected', unread: 0, messages_total: 1 },
          ],
        }),
      }).lastFrame() ?? '';
    expect(frame).toContain('telegram 3 unread');
    expect(frame).toContain('mail (disconnected)');
  });

  it('shows a command with terminal escapes as escapes, never interpreted', () => {
    const sneaky = 'echo x #\u001b[2K\r\u001b[32mls -la\u202e';
    const state = sampleState();
    state.pending = [{ ...state.pending[0]!, command: sneaky }];
    state.logs = [{ time: 'x', level: 'info', msg: 'log \u001b]0;title\u0007' }];
    // Wide enough for the row to show the whole marked command with its stated length.
    const frame = view({ state, columns: 180 }).lastFrame() ?? '';
    expect(frame).not.toContain('\u001b');
    expect(frame).toContain('shell: echo x #\\x1b[2K\\r\\x1b[32mls -la\\u202e');
    expect(frame).toContain('log \\x1b]0;title\\x07');
  });

  it('asks for no colour or style at all with NO_COLOR (the tmux test checks the escapes)', () => {
    expect(theme(false)).toEqual({ styled: false });
    expect(theme(true)).toMatchObject({ ok: 'green', bad: 'red', styled: true });
    expect(view({ color: false }).lastFrame()).not.toContain('\u001b[');
  });

  it('says what is wrong when the gateway is unreachable, and offers setup when no provider works', () => {
    const down =
      view({
        state: sampleState({
          connection: 'unreachable',
          problem: 'no gateway answering at http://127.0.0.1:7432 (ECONNREFUSED)',
        }),
      }).lastFrame() ?? '';
    expect(down).toContain('unreachable: no gateway answering');
    expect(down).toContain('No gateway answers: run hearth start (or npm start) · q quit');
    const never =
      view({ state: sampleState({ connection: 'unreachable', status: null }) }).lastFrame() ?? '';
    expect(never).toContain('no gateway yet: run hearth start');
    const setup = view({ state: sampleState({ needsSetup: true }) }).lastFrame() ?? '';
    expect(setup).toContain('No provider works yet: press s to run hearth setup');
    expect(setup.split('\n')[0]).toContain('Hearth http://127.0.0.1:7432 · needs setup: no model');
  });

  it('says first that no model can answer and that s fixes it; why in the status pane', () => {
    const base = sampleState();
    const state = sampleState({
      needsSetup: true,
      status: {
        ...base.status!,
        model_ready: { ok: false, detail: 'no model can answer: Ollama is not reachable' },
      },
    });
    const lines = (view({ state }).lastFrame() ?? '').split('\n');
    expect(lines[0]?.trimEnd()).toBe(
      'Hearth http://127.0.0.1:7432 · needs setup: no model can answer, press s',
    );
    expect(lines[1]).toMatch(/^Status /);
    expect(lines[2]).toMatch(/^model: Ollama is not reachable {2}/);
    expect(lines.at(-1)).toContain('No provider works yet: press s to run hearth setup');
  });

  it('shows the keyboard help on ?', () => {
    const frame = view({ help: true }).lastFrame() ?? '';
    expect(frame).toContain('A          approve it and allow it from now on');
    expect(frame).toContain('/model <p>|auto');
    expect(lines(frame).length).toBeLessThanOrEqual(24);
  });

  it('shows the chat input while typing', () => {
    expect(view({ input: '/think hi' }).lastFrame()).toContain('> /think hi█');
  });
});

describe('dashboard view degrades gracefully', () => {
  it('below 80 columns: status, approvals and chat stacked, nothing wider than the terminal', () => {
    const frame = view({ columns: 50, rows: 24 }).lastFrame() ?? '';
    expect(frame).toContain('Approvals (2 pending)');
    expect(frame).toContain('Chat (connected');
    expect(frame).not.toContain('Usage');
    for (const line of lines(frame)) expect([...line].length, line).toBeLessThanOrEqual(50);
  });

  it('in a very small terminal (30×10) it still renders without throwing', () => {
    const frame = view({ columns: 30, rows: 10 }).lastFrame() ?? '';
    expect(frame).toContain('Hearth');
    for (const line of lines(frame)) expect([...line].length, line).toBeLessThanOrEqual(30);
  });

  it('on a big screen (200×60) the log and chat panes show more lines', () => {
    const state = sampleState({
      logs: Array.from({ length: 50 }, (_, i) => ({
        time: '2026-11-26T05:00:00Z',
        level: 'info',
        msg: `line ${i}`,
      })),
    });
    const frame = view({ state, columns: 200, rows: 60 }).lastFrame() ?? '';
    expect(frame).toContain('line 49');
    expect(frame).toContain('line 40');
  });
});
