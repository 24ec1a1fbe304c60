import { describe, expect, it } from 'vitest';
import { configSchema } from '../../config/schema.ts';
import { skillHostPlace } from './choose-isolation.ts';

const config = (raw: Record<string, unknown>) => configSchema.parse(raw);

describe('where skill hosts run', () => {
  it('auto: locally, or in the sidecar at sandbox_url when executor = "sandbox" (as before)', () => {
    expect(skillHostPlace(config({}))).toEqual({ place: 'local' });
    expect(
      skillHostPlace(
        config({
          security: {
            executor: 'sandbox',
            sandbox_url: 'http://sandbox-executor:7433',
            sandbox_token: 't',
          },
        }),
      ),
    ).toEqual({ place: 'sidecar', url: 'http://sandbox-executor:7433', token: 't' });
  });

  it('[skills] host is independent of the shell executor, and takes a Unix socket', () => {
    const skills = {
      host: 'sidecar',
      sidecar_url: 'unix:/run/hearth-skills/sandbox.sock',
      sidecar_token: 's',
    };
    expect(skillHostPlace(config({ skills }))).toEqual({
      place: 'sidecar',
      url: 'unix:/run/hearth-skills/sandbox.sock',
      token: 's',
    });
    expect(
      skillHostPlace(config({ skills: { host: 'local' }, security: { executor: 'sandbox' } })),
    ).toEqual({ place: 'local' });
  });

  it('refuses a sidecar_url that is neither http(s) nor unix:/absolute', () => {
    for (const sidecar_url of ['ftp://x', 'unix:relative.sock', '/run/x.sock']) {
      expect(() => config({ skills: { sidecar_url } }), sidecar_url).toThrow();
    }
  });
});
