import { describe, expect, it } from 'vitest';
import { listAudioDevices, parseAlsaList } from './devices.ts';

describe('host sound devices', () => {
  it('reads the cards and devices of `arecord -l` / `aplay -l`', () => {
    const text = [
      '**** List of CAPTURE Hardware Devices ****',
      'card 0: PCH [HDA Intel PCH], device 0: ALC3246 Analog [ALC3246 Analog]',
      '  Subdevices: 1/1',
      '  Subdevice #0: subdevice #0',
      'card 1: Device [USB Audio Device], device 0: USB Audio [USB Audio]',
    ].join('\n');
    expect(parseAlsaList(text)).toEqual([
      { name: 'hw:0,0 HDA Intel PCH: ALC3246 Analog', index: 0 },
      { name: 'hw:1,0 USB Audio Device: USB Audio', index: 1 },
    ]);
  });

  it('a machine without sound cards lists none', () => {
    expect(parseAlsaList('arecord: device_list:274: no soundcards found...')).toEqual([]);
  });

  it('without alsa-utils, honestly none', async () => {
    expect(
      await listAudioDevices({ record: '/nonexistent/arecord', play: '/nonexistent/aplay' }),
    ).toEqual({ input: [], output: [], active: { input_device: '', output_device: '' } });
  });
});
