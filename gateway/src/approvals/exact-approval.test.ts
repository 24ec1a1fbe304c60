/**
 * The approval gate judges exactly what runs, over real chat turns with the fake LLM:
 * `always` stores the program name (the spec's state table), but for a program that can run
 * other code exactly the approved command line in exactly its directory; the working
 * directory the model picks is part of the request (shown, matched, stored); the browser is
 * judged by the URL it will open.
 */
import { mkdir, mkdtemp, rm, stat, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { INSPECTORS } from '../testing/fakes/fake-llm/inspect.ts';
import type { ReplyScript } from '../testing/fakes/fake-llm/script.ts';
import type { RecordedRequest } from '../testing/fakes/fake-llm/wire.ts';
import { startChatTestBed, type ChatTestBed } from '../testing/gateway/chat-gateway.ts';
import { DENIED_TEXT } from './approval-service.ts';
import { pendingApprovals, waitForPending } from '../testing/gateway/approval-polling.ts';

type Json = Record<string, unknown>;
type Frame = Json & { type: string };

const shell = (command: string, workdir?: string): ReplyScript => ({
  toolCalls: [
    { name: 'shell', arguments: workdir === undefined ? { command } : { command, workdir } },
  ],
});

const navigate = (url: string): ReplyScript => ({
  toolCalls: [{ name: 'browser', arguments: { action: 'navigate', url } }],
});

const toolResults = (request: RecordedRequest | undefined): string[] =>
  request ? INSPECTORS['openai-chat'].toolResults(request).map((r) => r.output) : [];

async function exists(path: string): Promise<boolean> {
  return stat(path).then(
    () => true,
    () => false,
  );
}

/** The first frame of `socket` that `match` accepts (bounded: 5 s). */
function nextFrame(socket: WebSocket, match: (frame: Frame) => boolean): Promise<Frame> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('no matching frame within 5 s')), 5_000);
    const onMessage = (data: Buffer) => {
      const frame = JSON.parse(data.toString()) as Frame;
      if (!match(frame)) return;
      clearTimeout(timer);
      socket.off('message', onMessage);
      resolve(frame);
    };
    socket.on('message', onMessage);
  });
}

describe('the approval gate judges exactly what runs', () => {
  let bed: ChatTestBed;
  let workspace: string;
  /** A directory outside the workspace the model may name. */
  let outside: string;

  beforeAll(async () => {
    bed = await startChatTestBed();
    workspace = join(bed.gw.home, 'workspace');
    outside = await mkdtemp(join(tmpdir(), 'hearth-outside-'));
  });
  afterAll(async () => {
    await bed.close();
    await rm(outside, { recursive: true, force: true });
  });
  afterEach(async () => {
    bed.fake.reset();
    await bed.post('/approvals/policy', { security: 'allowlist', ask: 'on-miss' });
    for (const approval of await pendingApprovals(bed)) {
      await bed.post(`/approvals/${approval.id}/deny`, {});
    }
    const { entries } = (await bed.get('/approvals/allowlist')).body as {
      entries: { id: number }[];
    };
    for (const entry of entries) {
      await fetch(`${bed.gw.url}/api/v1/approvals/allowlist/${entry.id}`, { method: 'DELETE' });
    }
  });

  /** Runs one model turn that asks for `script`; resolves with the tool results it got back. */
  async function turn(script: ReplyScript, session: string): Promise<string[]> {
    bed.fake.reset();
    bed.fake.reply(script, { text: 'done' });
    const { body } = await bed.post('/chat', { message: 'go', session_id: session });
    expect(body.reply).toBe('done');
    return toolResults(bed.fake.requests[1]);
  }

  /** Starts a turn for `command` and waits until it is pending; `settle` then decides it. */
  async function prompted(script: ReplyScript, command: string, session: string) {
    bed.fake.reset();
    bed.fake.reply(script, { text: 'done' });
    const reply = bed.post('/chat', { message: 'go', session_id: session });
    const approval = await waitForPending(bed, command);
    return {
      approval,
      async deny(): Promise<string[]> {
        await bed.post(`/approvals/${approval.id}/deny`, {});
        expect((await reply).body.reply).toBe('done');
        return toolResults(bed.fake.requests[1]);
      },
      async approve(always: boolean): Promise<string[]> {
        const decided = await bed.post(`/approvals/${approval.id}/approve`, { always });
        expect(decided.status).toBe(200);
        expect((await reply).body.reply).toBe('done');
        return toolResults(bed.fake.requests[1]);
      },
    };
  }

  describe('always: true allows exactly the approved command line of a program that runs other code (item 1)', () => {
    it.each([
      ['git --version', "git -c 'alias.x=!touch git-marker' x", 'git-marker'],
      ['sed -n 1p notes.txt', "sed '1e touch sed-marker' notes.txt", 'sed-marker'],
      [
        'tar --version',
        'tar -cf /dev/null --checkpoint=1 --checkpoint-action=exec=touch\\ tar-marker notes.txt',
        'tar-marker',
      ],
    ])(
      'after %j is approved with always, %j still prompts and never runs unseen',
      async (approved, hostile, marker) => {
        await writeFile(join(workspace, 'notes.txt'), 'one line\n');
        const first = await prompted(shell(approved), approved, 'always-exact');
        await first.approve(true);
        const { entries } = (await bed.get('/approvals/allowlist')).body as { entries: Json[] };
        expect(entries).toEqual([
          expect.objectContaining({
            pattern: approved.split(' ')[0],
            arg_pattern: `^${approved.replaceAll('.', '\\.')}$`,
            directory: workspace,
            note: expect.stringMatching(
              / can run other code \(.*\): only this exact command is allowed$/,
            ),
          }),
        ]);

        // The approved line itself now runs without a prompt (in a session of its own: the
        // first turn read the command's output, so its conversation holds untrusted content)…
        const again = await turn(shell(approved), `always-exact-${marker}`);
        expect(again).toHaveLength(1);
        expect(again[0]).not.toBe(DENIED_TEXT);
        expect(await pendingApprovals(bed)).toEqual([]);

        // …but the same program with other arguments is a new request for the human.
        const wider = await prompted(shell(hostile), hostile, 'always-exact');
        expect(await wider.deny()).toEqual([DENIED_TEXT]);
        expect(await exists(join(workspace, marker))).toBe(false);
      },
    );

    it('the notice says what always allows for this command, and shows the directory', async () => {
      const socket = new WebSocket(`ws://127.0.0.1:${bed.gw.port}/ws`);
      await new Promise((resolve, reject) => socket.once('open', resolve).once('error', reject));
      try {
        bed.fake.reply(shell('echo notice', 'sub'), { text: 'done' });
        await mkdir(join(workspace, 'sub'), { recursive: true });
        const request = nextFrame(socket, (f) => f.type === 'approval_request');
        socket.send(JSON.stringify({ type: 'chat', message: 'go', session_id: 'notice' }));
        const frame = await request;
        const short = String(frame.id).slice(0, 8);
        expect(frame.text).toBe(
          `Approval needed [${short}] shell: echo notice\n` +
            `in ${join(workspace, 'sub')}\n` +
            `Reply "approve ${short}" or "deny ${short}" within 120 s; ` +
            `"approve ${short} always" always allows echo with any arguments in the workspace from now on.`,
        );
        const done = nextFrame(socket, (f) => f.type === 'message_done' && f.text === 'done');
        socket.send(
          JSON.stringify({ type: 'chat', message: `deny ${short}`, session_id: 'notice' }),
        );
        await done;
      } finally {
        socket.close();
      }
    });
  });

  describe('the working directory is part of the request (item 2)', () => {
    it('an allowlisted command runs unprompted in the workspace, and prompts in a directory the model chose outside it', async () => {
      await bed.post('/approvals/allowlist', { pattern: 'rm', arg_pattern: '^rm -rf build$' });
      await mkdir(join(outside, 'build'), { recursive: true });
      await mkdir(join(workspace, 'build'), { recursive: true });

      const elsewhere = await prompted(shell('rm -rf build', outside), 'rm -rf build', 'wd');
      expect(elsewhere.approval.arguments).toEqual({
        command: 'rm -rf build',
        timeout: 60,
        workdir: outside,
      });
      expect(await elsewhere.deny()).toEqual([DENIED_TEXT]);
      expect(await exists(join(outside, 'build'))).toBe(true);

      expect(await turn(shell('rm -rf build'), 'wd')).toEqual(['exit code 0']);
      expect(await exists(join(workspace, 'build'))).toBe(false);
    });

    it.each([
      ['a parent reached with ..', '..'],
      ['an absolute path', '/'],
    ])('%s is outside the workspace: it prompts, with the resolved directory', async (_w, dir) => {
      await bed.post('/approvals/allowlist', { pattern: 'ls' });
      const request = await prompted(shell('ls', dir), 'ls', 'wd-escape');
      expect(request.approval.arguments.workdir).toBe(dir === '..' ? bed.gw.home : '/');
      expect(await request.deny()).toEqual([DENIED_TEXT]);
    });

    it('a symlink in the workspace that leads out is judged by where it leads', async () => {
      await bed.post('/approvals/allowlist', { pattern: 'ls' });
      await symlink(outside, join(workspace, 'way-out')).catch(() => undefined);
      const request = await prompted(shell('ls', 'way-out'), 'ls', 'wd-link');
      expect(request.approval.arguments.workdir).toBe(outside);
      expect(await request.deny()).toEqual([DENIED_TEXT]);
    });

    it('a relative directory is inside the workspace; the pending record shows it resolved', async () => {
      await mkdir(join(workspace, 'project'), { recursive: true });
      const request = await prompted(shell('pwd', 'project'), 'pwd', 'wd-relative');
      expect(request.approval.arguments.workdir).toBe(join(workspace, 'project'));
      expect(await request.approve(false)).toEqual([
        `exit code 0\nstdout:\n${join(workspace, 'project')}\n`,
      ]);
    });

    it('always in a directory outside the workspace allows that program there only', async () => {
      await writeFile(join(outside, 'f.txt'), 'outside\n');
      const first = await prompted(shell('cat f.txt', outside), 'cat f.txt', 'wd-always');
      await first.approve(true);
      const { entries } = (await bed.get('/approvals/allowlist')).body as { entries: Json[] };
      expect(entries).toEqual([
        expect.objectContaining({
          pattern: 'cat',
          arg_pattern: null,
          directory: outside,
          note: null,
        }),
      ]);
      // A session of its own: the first turn's conversation holds the file it read.
      expect(await turn(shell('cat f.txt', outside), 'wd-always-again')).toEqual([
        'exit code 0\nstdout:\noutside\n',
      ]);
      expect(await turn(shell('cat -n f.txt', outside), 'wd-always-numbered')).toEqual([
        'exit code 0\nstdout:\n     1\toutside\n',
      ]);
      // The same line in the workspace was never approved there.
      const inWorkspace = await prompted(shell('cat f.txt'), 'cat f.txt', 'wd-always');
      expect(inWorkspace.approval.arguments.workdir).toBe(workspace);
      expect(await inWorkspace.deny()).toEqual([DENIED_TEXT]);
    });

    it('POST /approvals/allowlist takes a directory; 422 for one that is not absolute and normalised', async () => {
      const added = await bed.post('/approvals/allowlist', {
        pattern: 'make',
        arg_pattern: '^make test$',
        directory: outside,
      });
      expect(added.status).toBe(200);
      expect(added.body).toMatchObject({ pattern: 'make', directory: outside });
      for (const directory of ['relative/dir', '/srv/../etc', '/srv/app/', '/srv//app', '']) {
        const refused = await bed.post('/approvals/allowlist', { pattern: 'make', directory });
        expect(refused.status, directory).toBe(422);
        expect(String(refused.body.detail), directory).toContain('directory');
      }
      const { count } = (await bed.get('/approvals/allowlist')).body;
      expect(count).toBe(1);
    });
  });

  describe('the browser is judged by the URL it will open (item 3)', () => {
    const docsOnly = {
      pattern: 'navigate',
      arg_pattern: '^navigate https://docs\\.example\\.com(/|$)',
    };

    it('a tab before @ cannot pass for the allowlisted host: refused before the gate, nothing opened', async () => {
      await bed.post('/approvals/allowlist', docsOnly);
      await bed.post('/approvals/policy', { ask: 'off' });
      const [result] = await turn(navigate('https://docs.example.com\t@evil.example/'), 'url-at');
      expect(result).toMatch(/^Error: The browser does not open URLs with a user name or password/);
      expect(await pendingApprovals(bed)).toEqual([]);
    });

    it('a tab that joins the host onto another name is matched and shown as the host it opens', async () => {
      await bed.post('/approvals/allowlist', docsOnly);
      const request = await prompted(
        navigate('https://docs.example.com\t.evil.example/x'),
        'navigate https://docs.example.com.evil.example/x',
        'url-tab',
      );
      expect(request.approval.tool_name).toBe('browser');
      expect(await request.deny()).toEqual([DENIED_TEXT]);
    });

    it.each(['javascript:alert(1)', 'file:///etc/passwd', 'data:text/html,hi', 'not a url'])(
      '%j is refused without a prompt',
      async (url) => {
        const [result] = await turn(navigate(url), 'url-scheme');
        expect(result).toMatch(/^Error: (The browser only opens http|Not a valid URL)/);
        expect(await pendingApprovals(bed)).toEqual([]);
      },
    );

    it('a URL is normalised before it is described, so quoting cannot split it', async () => {
      const request = await prompted(
        navigate(' HTTPS://Docs.Example.com/a b?q=1&r=2 '),
        "navigate 'https://docs.example.com/a%20b?q=1&r=2'",
        'url-normal',
      );
      expect(await request.deny()).toEqual([DENIED_TEXT]);
      await bed.post('/approvals/allowlist', docsOnly);
      await bed.post('/approvals/policy', { ask: 'off' });
      // Allowlisted and normalised: it reaches the browser (which may be absent in the test bed).
      const [result] = await turn(navigate('https://DOCS.example.com/guide'), 'url-normal');
      expect(result).not.toBe(DENIED_TEXT);
    });
  });
});
