/**
 * The terminal's microphone through `arecord` (ALSA), as 16 kHz mono PCM16 chunks. Without
 * alsa-utils or a capture device it fails with the reason and the `--file` alternative.
 */
import { spawn } from 'node:child_process';
import { CliError } from '../../cli-error.ts';

export interface Microphone {
  chunks: AsyncIterable<Int16Array>;
  stop(): void;
}

export async function openMicrophone(): Promise<Microphone> {
  const child = spawn('arecord', ['-q', '-t', 'raw', '-f', 'S16_LE', '-r', '16000', '-c', '1'], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  const failure = await new Promise<string | undefined>((resolve) => {
    child.once('error', (error) => resolve(error.message));
    child.once('exit', (code) => resolve(`arecord exited with ${String(code)}: ${stderr.trim()}`));
    // Still running after a moment: it is recording.
    setTimeout(() => resolve(undefined), 300);
  });
  if (failure)
    throw new CliError(
      `no microphone (${failure.trim()}); record a WAV file and use --file <path>`,
    );
  let carry = Buffer.alloc(0);
  async function* chunks(): AsyncGenerator<Int16Array> {
    for await (const data of child.stdout) {
      const bytes = Buffer.concat([carry, data as Buffer]);
      const even = bytes.length - (bytes.length % 2);
      carry = bytes.subarray(even);
      const samples = new Int16Array(even / 2);
      for (let index = 0; index < samples.length; index += 1)
        samples[index] = bytes.readInt16LE(index * 2);
      yield samples;
    }
  }
  return { chunks: chunks(), stop: () => void child.kill('SIGTERM') };
}
