import { createInterface, type Interface } from 'node:readline';
import { Writable } from 'node:stream';

export interface Prompter {
  /** Asks and returns the trimmed answer ('' at end of input). */
  ask(question: string): Promise<string>;
  /** Asks for a secret: what is typed is not echoed. */
  askSecret(question: string): Promise<string>;
  /** Writes one line (a note or why an answer is asked again). */
  say(text: string): void;
  /** True once the input has ended: every later answer is '' (asking again is pointless). */
  ended(): boolean;
  close(): void;
}

/**
 * Line prompts on the CLI's input and prompt output. Secrets are read with the echo muted: the
 * prompt is written, then everything readline would echo is dropped until the line ends.
 */
export function createPrompter(
  input: NodeJS.ReadableStream,
  output: NodeJS.WritableStream,
  terminal: boolean,
): Prompter {
  let muted = false;
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      if (!muted) output.write(chunk);
      done();
    },
  });
  const rl: Interface = createInterface({ input, output: sink, terminal });
  const lines: string[] = [];
  const waiting: ((line: string | undefined) => void)[] = [];
  let closed = false;
  rl.on('line', (line) => {
    const next = waiting.shift();
    if (next) next(line);
    else lines.push(line);
  });
  rl.on('close', () => {
    closed = true;
    for (const next of waiting.splice(0)) next(undefined);
  });
  const nextLine = (): Promise<string> => {
    const buffered = lines.shift();
    if (buffered !== undefined) return Promise.resolve(buffered.trim());
    if (closed) return Promise.resolve('');
    return new Promise((resolve) => waiting.push((line) => resolve((line ?? '').trim())));
  };
  return {
    async ask(question) {
      output.write(question);
      return nextLine();
    },
    async askSecret(question) {
      output.write(question);
      muted = true;
      try {
        return await nextLine();
      } finally {
        muted = false;
        output.write('\n');
      }
    },
    say: (text) => void output.write(`${text}\n`),
    ended: () => closed && lines.length === 0,
    close: () => rl.close(),
  };
}
