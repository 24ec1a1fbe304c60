import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import type { Command } from 'commander';
import { CliError, errorMessage } from '../../cli-error.ts';
import { clientId } from '../../client-id.ts';
import type { CommandContext } from '../../deps.ts';
import { locateGateway } from '../../locate-gateway.ts';
import { openMicrophone } from './microphone.ts';
import { openVoiceConnection, type VoiceConnection, type VoiceFrame } from './voice-connection.ts';
import { EXIT_USAGE } from '../../usage-exit.ts';
import { printResult } from '../../print-result.ts';

/** The WAV helpers and pulls, loaded only by the commands that use them. */
const voiceSupport = () => import('@hearth/gateway/voice-cli');

async function connect(ctx: CommandContext): Promise<VoiceConnection> {
  const client = await locateGateway(ctx);
  const id = encodeURIComponent(await clientId(ctx.deps.env.home));
  const url = `${client.baseUrl.replace(/^http/, 'ws')}/ws/voice?client_id=${id}`;
  const connection = await openVoiceConnection(url, await client.socketProtocols());
  await connection.next((frame) => frame.type === 'state', 10_000);
  return connection;
}

/** A WAV file as 16 kHz mono PCM16. */
async function readWav(file: string): Promise<Int16Array> {
  const { decodeWav, resample, INPUT_SAMPLE_RATE } = await voiceSupport();
  let bytes: Buffer;
  try {
    bytes = await readFile(file);
  } catch (error) {
    throw new CliError(`cannot read ${file}: ${errorMessage(error)}`);
  }
  try {
    return resample(decodeWav(bytes), INPUT_SAMPLE_RATE);
  } catch (error) {
    throw new CliError(`${file}: ${errorMessage(error)} (a 16-bit PCM WAV file is needed)`);
  }
}

async function waitForEnter(ctx: CommandContext, prompt: string): Promise<void> {
  const rl = createInterface({
    input: ctx.deps.input,
    output: ctx.deps.promptOutput,
    terminal: ctx.deps.isTTY,
  });
  try {
    rl.setPrompt(prompt);
    rl.prompt();
    await new Promise<void>((resolve) => {
      rl.once('line', () => resolve());
      rl.once('close', () => resolve());
    });
  } finally {
    rl.close();
  }
}

interface TurnOutcome {
  transcript: string;
  response: string;
  sessionId?: string;
  audio: Int16Array[];
  sampleRate: number;
}

/** Follows one turn's frames until the session is idle (or listening) again. */
function followTurn(
  connection: VoiceConnection,
  ctx: CommandContext,
  stream: boolean,
): Promise<TurnOutcome> {
  const outcome: TurnOutcome = { transcript: '', response: '', audio: [], sampleRate: 0 };
  let heard = false;
  connection.onFrame((frame: VoiceFrame) => {
    if (frame.type === 'transcript') {
      heard = true;
      outcome.transcript = String(frame.text);
      if (stream)
        ctx.deps.output.out(
          outcome.transcript ? `You said: ${outcome.transcript}` : '(nothing heard)',
        );
    } else if (frame.type === 'response_chunk' && stream) ctx.deps.output.write(String(frame.text));
    else if (frame.type === 'response_done') {
      outcome.response = String(frame.text);
      outcome.sessionId = String(frame.session_id);
      if (stream) ctx.deps.output.write('\n');
    } else if (frame.type === 'tts_audio') {
      const bytes = Buffer.from(String(frame.data), 'base64');
      const samples = new Int16Array(bytes.length / 2);
      for (let index = 0; index < samples.length; index += 1)
        samples[index] = bytes.readInt16LE(index * 2);
      outcome.audio.push(samples);
      outcome.sampleRate = Number(frame.sample_rate);
    }
  });
  return connection
    .next(
      (frame) =>
        heard && frame.type === 'state' && (frame.state === 'idle' || frame.state === 'listening'),
    )
    .then(() => outcome);
}

async function saveAudio(outcome: TurnOutcome, file: string): Promise<number> {
  const { encodeWav } = await voiceSupport();
  const total = outcome.audio.reduce((sum, part) => sum + part.length, 0);
  const samples = new Int16Array(total);
  let offset = 0;
  for (const part of outcome.audio) {
    samples.set(part, offset);
    offset += part.length;
  }
  await writeFile(file, encodeWav({ samples, sampleRate: outcome.sampleRate || 22_050 }));
  return total / (outcome.sampleRate || 22_050);
}

export function registerVoice(program: Command, ctx: CommandContext): void {
  const voice = program
    .command('voice')
    .description('talk to the agent: push-to-talk, wake word, voice models');
  const out = (text: string) => ctx.deps.output.out(text);

  voice
    .command('listen')
    .description(
      'push-to-talk from the terminal microphone (Enter stops), or a WAV file with --file',
    )
    .option('--file <wav>', 'speak this WAV file instead of the microphone')
    .option('--out <wav>', 'save the spoken reply as a WAV file')
    .option('--json', 'print JSON')
    .action(async (options: { file?: string; out?: string; json?: boolean }) => {
      const audio = options.file ? await readWav(options.file) : undefined;
      const connection = await connect(ctx);
      try {
        const turn = followTurn(connection, ctx, !options.json);
        // Awaited below; a failure before then (no microphone) must not go unhandled.
        turn.catch(() => undefined);
        connection.send({ type: 'ptt_start' });
        await connection.next(
          (frame) => frame.type === 'state' && frame.state === 'recording',
          10_000,
        );
        if (audio) connection.sendAudio(audio);
        else {
          const microphone = await openMicrophone();
          const pump = (async () => {
            for await (const chunk of microphone.chunks) connection.sendAudio(chunk);
          })();
          await waitForEnter(ctx, 'Recording… press Enter to stop. ');
          microphone.stop();
          await pump;
        }
        connection.send({ type: 'ptt_stop' });
        const outcome = await turn;
        const seconds =
          options.out && outcome.audio.length > 0 ? await saveAudio(outcome, options.out) : 0;
        if (options.json)
          out(
            JSON.stringify(
              {
                transcript: outcome.transcript,
                response: outcome.response,
                session_id: outcome.sessionId ?? null,
                audio_seconds:
                  Math.round(
                    (outcome.audio.reduce((s, p) => s + p.length, 0) / (outcome.sampleRate || 1)) *
                      100,
                  ) / 100,
              },
              null,
              2,
            ),
          );
        else if (options.out)
          out(
            seconds > 0
              ? `Reply audio: ${seconds.toFixed(1)} s in ${options.out}`
              : 'No reply audio (text-to-speech is unavailable).',
          );
      } finally {
        connection.close();
      }
    });

  voice
    .command('wake')
    .description(
      'continuous listening: after the wake word, the next utterance is a turn (Enter stops)',
    )
    .option('--file <wav>', 'listen to this WAV file instead of the microphone')
    .option('--json', 'print what was heard and answered as one JSON array at the end')
    .action(async (options: { file?: string; json?: boolean }) => {
      const audio = options.file ? await readWav(options.file) : undefined;
      const connection = await connect(ctx);
      /** With --json: the turns, printed once when listening stops. */
      const heard: { type: 'transcript' | 'response'; text: string }[] = [];
      const say = (type: 'transcript' | 'response', text: string) => {
        if (options.json) heard.push({ type, text });
        else out(type === 'transcript' ? `You said: ${text}` : text);
      };
      try {
        connection.onFrame((frame) => {
          if (frame.type === 'transcript' && typeof frame.text === 'string' && frame.text)
            say('transcript', frame.text);
          else if (frame.type === 'response_done') say('response', String(frame.text));
          else if (frame.type === 'error')
            ctx.deps.output.err(
              options.json
                ? JSON.stringify({ detail: String(frame.detail) })
                : `hearth: ${String(frame.detail)}`,
            );
        });
        connection.send({ type: 'continuous_start', wake: true });
        await connection.next(
          (frame) => frame.type === 'state' && frame.state === 'listening',
          10_000,
        );
        if (audio) {
          // The file, then a second of silence so its last utterance ends.
          connection.sendAudio(audio);
          connection.sendAudio(new Int16Array(16_000));
          connection.send({ type: 'continuous_stop' });
          await connection.next((frame) => frame.type === 'state' && frame.state === 'idle');
        } else {
          if (!options.json) out('Listening for the wake word… press Enter to stop.');
          const microphone = await openMicrophone();
          const pump = (async () => {
            for await (const chunk of microphone.chunks) connection.sendAudio(chunk);
          })();
          await waitForEnter(ctx, '');
          microphone.stop();
          await pump;
          connection.send({ type: 'continuous_stop' });
        }
        if (options.json) out(JSON.stringify(heard, null, 2));
      } finally {
        connection.close();
      }
    });

  voice
    .command('clone <name> <files...>')
    .description('clone a voice from WAV samples (no installed engine can: it says so)')
    .option('--json', 'print JSON')
    .action(async (name: string) => {
      if (!/^[\w-]{1,64}$/.test(name))
        throw new CliError('the voice name must be 1 to 64 letters, digits, _ or -', EXIT_USAGE);
      // Said before any sample is read: nothing is stored for an engine that is not there.
      throw new CliError((await voiceSupport()).NO_VOICE_CLONING);
    });

  voice
    .command('models')
    .description('local speech models')
    .command('pull')
    .description(
      'download Whisper (speech-to-text) or, with --tts, a Piper voice into {data_dir}/models',
    )
    .option('--tts', 'pull a Piper voice instead of Whisper')
    .option('--model <size>', 'Whisper size or org/name id', 'base')
    .option('--voice <name>', 'Piper voice', 'en_US-lessac-medium')
    .option('--json', 'print JSON')
    .action(async (options: { tts?: boolean; model: string; voice: string; json?: boolean }) => {
      const { pullPiperVoice, pullWhisperModel } = await voiceSupport();
      const { silentLogger } = await import('@hearth/gateway');
      const modelDir = join(ctx.deps.env.home, 'models');
      try {
        if (options.tts) {
          const pulled = await pullPiperVoice({
            modelDir,
            voice: options.voice,
            logger: silentLogger(),
          });
          printResult(
            ctx.deps.output,
            options,
            { ...pulled, folder: join(modelDir, 'piper') },
            () =>
              `Pulled Piper voice ${pulled.voice} into ${modelDir}/piper. Restart the gateway to use it.`,
          );
        } else {
          const pulled = await pullWhisperModel({
            modelDir,
            model: options.model,
            logger: silentLogger(),
          });
          printResult(
            ctx.deps.output,
            options,
            pulled,
            () => `Pulled ${pulled.modelId} into ${pulled.folder}. Restart the gateway to use it.`,
          );
        }
      } catch (error) {
        throw new CliError(errorMessage(error));
      }
    });
}
