/**
 * The host's sound devices as ALSA lists them (`arecord -l`, `aplay -l`). A machine without
 * alsa-utils, or a container without sound cards, honestly reports none.
 */
import { runCommand } from './run-command.ts';

export interface AudioDevice {
  name: string;
  index: number;
}

export interface AudioDevices {
  input: AudioDevice[];
  output: AudioDevice[];
  active: { input_device: string; output_device: string };
}

/** `card 1: Device [USB Audio Device], device 0: USB Audio [USB Audio]` → `hw:1,0 USB Audio Device: USB Audio`. */
export function parseAlsaList(text: string): AudioDevice[] {
  const devices: AudioDevice[] = [];
  const line = /^card (\d+): [^[]*\[([^\]]*)\], device (\d+): [^[]*\[([^\]]*)\]/;
  for (const row of text.split('\n')) {
    const match = line.exec(row.trim());
    if (!match) continue;
    const [, card, cardName, device, deviceName] = match;
    devices.push({
      name: `hw:${card},${device} ${cardName}: ${deviceName}`,
      index: devices.length,
    });
  }
  return devices;
}

async function list(command: string): Promise<AudioDevice[]> {
  try {
    const result = await runCommand(command, ['-l'], { timeoutMs: 5_000 });
    return result.code === 0 ? parseAlsaList(result.stdout.toString('utf8')) : [];
  } catch {
    return [];
  }
}

export async function listAudioDevices(
  commands: { record: string; play: string } = { record: 'arecord', play: 'aplay' },
): Promise<AudioDevices> {
  const [input, output] = await Promise.all([list(commands.record), list(commands.play)]);
  return {
    input,
    output,
    active: { input_device: input[0]?.name ?? '', output_device: output[0]?.name ?? '' },
  };
}
