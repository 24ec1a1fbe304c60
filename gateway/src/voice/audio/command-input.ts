/**
 * Host audio in through a capture program that writes raw 16 kHz mono PCM16 to stdout:
 * `arecord` (ALSA) on a bare install, or `sox` reading a file (the CLI's `--file`, tests).
 * Available only when the program runs and, for a device, when a capture device exists.
 */
import { spawn } from 'node:child_process';
import { unavailable } from '../../errors.ts';
import type { AudioCapture, AudioInput, EngineAvailability } from '../ports.ts';
import { bytesToPcm16 } from './pcm.ts';
import { listAudioDevices } from './devices.ts';

export interface CommandInputOptions {
  name: string;
  command: string;
  args: readonly string[];
  /** Whether a source exists (e.g. a capture device); its reason when not. */
  probe: () => Promise<EngineAvailability>;
}

export function createCommandAudioInput(options: CommandInputOptions): AudioInput {
  return {
    name: options.name,
    availability: options.probe,
    async start(): Promise<AudioCapture> {
      const availability = await options.probe();
      if (!availability.available) throw unavailable(`no host audio input: ${availability.detail}`);
      const child = spawn(options.command, options.args, {
        stdio: ['ignore', 'pipe', 'ignore'],
        env: { PATH: '/usr/local/bin:/usr/bin:/bin' },
      });
      const exited = new Promise<void>((resolve) => {
        child.once('close', () => resolve());
        child.once('error', () => resolve());
      });
      let carry: Buffer = Buffer.alloc(0);
      async function* chunks(): AsyncGenerator<Int16Array> {
        for await (const data of child.stdout) {
          const bytes = Buffer.concat([carry, data as Buffer]);
          const even = bytes.length - (bytes.length % 2);
          carry = bytes.subarray(even);
          if (even > 0) yield bytesToPcm16(bytes.subarray(0, even));
        }
      }
      return {
        chunks: chunks(),
        async stop() {
          if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
          await exited;
        },
      };
    },
  };
}

/** ALSA capture with arecord, when alsa-utils is installed and a capture device exists. */
export function createArecordInput(): AudioInput {
  return createCommandAudioInput({
    name: 'arecord',
    command: 'arecord',
    args: ['-q', '-t', 'raw', '-f', 'S16_LE', '-r', '16000', '-c', '1'],
    probe: async () => {
      const devices = await listAudioDevices();
      return devices.input.length > 0
        ? { available: true, engine: 'arecord', detail: devices.active.input_device }
        : {
            available: false,
            engine: 'none',
            detail: 'no capture device (arecord -l lists none, or alsa-utils is not installed)',
          };
    },
  });
}

/** A WAV (or any sox-readable) file played as if it were a microphone, converted by sox. */
export function createFileAudioInput(file: string): AudioInput {
  return createCommandAudioInput({
    name: 'file',
    command: 'sox',
    args: [file, '-t', 'raw', '-r', '16000', '-c', '1', '-b', '16', '-e', 'signed-integer', '-'],
    probe: () => Promise.resolve({ available: true, engine: 'file', detail: file }),
  });
}
