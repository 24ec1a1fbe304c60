import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { silentLogger } from '../../observability/logger.ts';
import { validateJsSkill } from '../validate/validate-js.ts';
import { createSkillValidator } from '../validate/validator.ts';
import { createSkillIsolation } from './isolation.ts';
import { createSkillFixture, offersWall, type SkillFixture } from './testing/skill-fixture.ts';

/** A plugin as DESIGN.md describes it: Hearth's Plugin base class, imported from `hearth:skill`. */
const WEATHER = `
import { Plugin } from 'hearth:skill';

class Base extends Plugin {
  /** Says which units the plugin reports in. */
  units() {
    return this.unit;
  }
}

/**
 * Says the date (an exported function beside the plugin's methods).
 */
export function date() {
  return '2026-11-26';
}

export default class Weather extends Base {
  constructor() {
    super();
    this.unit = 'celsius';
    this.calls = 0;
  }

  /**
   * Today's forecast for a city.
   * @param {string} city - where
   * @param {integer} [days] - how many days ahead
   */
  async forecast(city, days = 0) {
    this.calls += 1;
    return \`\${city}: sunny in \${days} days (\${this.unit})\`;
  }

  /** How many forecasts this one instance gave. */
  count() {
    return this.calls;
  }

  static schema = {
    report: { description: 'A report as JSON.', parameters: { type: 'object', properties: { city: { type: 'string' } } } },
  };

  report({ city }) {
    return { city, sky: 'clear' };
  }

  _secret() {
    return 'not a tool';
  }

  get hidden() {
    return 'an accessor is not a tool';
  }

  static make() {
    return 'a static method is not a tool';
  }
}
`;

const walls = [
  { label: 'bubblewrap+permission', bwrapPath: undefined },
  { label: 'permission', bwrapPath: null },
] as const;

describe.each(walls)('a default-exported Plugin subclass in skill.mjs ($label)', (wall) => {
  const isolation = createSkillIsolation({
    executor: 'local',
    logger: silentLogger(),
    bwrapPath: wall.bwrapPath,
  });
  let fixture: SkillFixture;
  beforeAll(async () => {
    fixture = await createSkillFixture({ withoutWall: wall.bwrapPath === null });
  });
  afterAll(() => fixture.remove());

  it.skipIf(!offersWall(isolation.description, wall.label))(
    `passes layer 1, and the host makes one instance and serves its public methods with their JSDoc (needs ${wall.label})`,
    async () => {
      expect(validateJsSkill(WEATHER).problems).toEqual([]);
      const host = await isolation.start(await fixture.write('weather', 'mjs', WEATHER));
      try {
        expect(host.tools.map((tool) => tool.name)).toEqual([
          'date',
          'forecast',
          'count',
          'report',
          'units',
        ]);
        // The host's reading agrees with layer 1's (which is what GET /skills shows).
        expect(host.tools).toEqual(validateJsSkill(WEATHER).tools);
        expect(host.tools.find((tool) => tool.name === 'forecast')).toEqual({
          name: 'forecast',
          description: "Today's forecast for a city.",
          parameters: {
            type: 'object',
            properties: {
              city: { type: 'string', description: 'where' },
              days: { type: 'integer', description: 'how many days ahead' },
            },
            required: ['city'],
          },
        });
        expect(host.tools.find((tool) => tool.name === 'report')?.description).toBe(
          'A report as JSON.',
        );
        expect(await host.call('forecast', { city: 'Oslo', days: 2 })).toBe(
          'Oslo: sunny in 2 days (celsius)',
        );
        expect(await host.call('forecast', { city: 'Rome' })).toBe(
          'Rome: sunny in 0 days (celsius)',
        );
        expect(await host.call('count', {})).toBe('2');
        expect(await host.call('report', { city: 'Oslo' })).toBe('{"city":"Oslo","sky":"clear"}');
        expect(await host.call('units', {})).toBe('celsius');
        expect(await host.call('date', {})).toBe('2026-11-26');
        for (const hidden of ['_secret', 'hidden', 'make', 'constructor'])
          await expect(host.call(hidden, {})).rejects.toMatchObject({ reason: 'tool' });
      } finally {
        await host.close();
      }
    },
  );

  it.skipIf(!offersWall(isolation.description, wall.label))(
    `a constructor that throws is a load error, not a crash (needs ${wall.label})`,
    async () => {
      const source = [
        "import { Plugin } from 'hearth:skill';",
        'export default class Broken extends Plugin {',
        "  constructor() { super(); throw new Error('no config'); }",
        '  run() {}',
        '}',
      ].join('\n');
      await expect(
        isolation.start(await fixture.write('broken-plugin', 'mjs', source)),
      ).rejects.toMatchObject({ reason: 'load', message: expect.stringContaining('no config') });
    },
  );

  it.skipIf(!offersWall(isolation.description, wall.label))(
    `hearth:skill gives nothing else: the runtime's connection cannot be taken over (needs ${wall.label})`,
    async () => {
      const source = [
        "import { _connectHost, shell } from 'hearth:skill';",
        '/** Tries to replace the host connection. */',
        'export function hijack() {',
        '  try { _connectHost(() => Promise.resolve("forged")); return "taken"; }',
        '  catch (error) { return error.message; }',
        '}',
      ].join('\n');
      const host = await isolation.start(await fixture.write('hijack', 'mjs', source));
      try {
        expect(await host.call('hijack', {})).toBe('the skill host is already connected');
      } finally {
        await host.close();
      }
    },
  );
});

describe('an explicit Plugin subclass in skill.py (spec rule 16)', () => {
  const validateSkill = createSkillValidator();
  const isolation = createSkillIsolation({ executor: 'local', logger: silentLogger() });
  let fixture: SkillFixture;
  beforeAll(async () => {
    fixture = await createSkillFixture();
  });
  afterAll(() => fixture.remove());

  it.skipIf(isolation.description !== 'bubblewrap+permission')(
    'is made once and its public methods are tools with their docstrings (needs bubblewrap)',
    async () => {
      const source = [
        'from hearth import Plugin',
        '',
        'def today():',
        '    """The date."""',
        '    return "2026-11-26"',
        '',
        'class Forecast(Plugin):',
        '    def __init__(self):',
        '        self.calls = 0',
        '',
        '    def forecast(self, city: str, days: int = 0):',
        '        """Forecast for a city.',
        '',
        '        Longer text."""',
        '        self.calls += 1',
        '        return f"{city}: sunny in {days} days"',
        '',
        '    def count(self):',
        '        return self.calls',
        '',
        '    def _private(self):',
        '        return "hidden"',
        '',
        '    @staticmethod',
        '    def helper():',
        '        return "not a tool"',
        '',
        '    @classmethod',
        '    def make(cls, city: str):',
        '        return "a factory, not a tool"',
        '',
        '    @property',
        '    def label(self):',
        '        return "not a tool either"',
        '',
        'class Seed(Plugin):',
        '    """Plugin predefined in the namespace, as the seed format wrote it."""',
        '    def ping(self):',
        '        return "pong"',
      ].join('\n');
      const host = await isolation.start(await fixture.write('forecast', 'py', source));
      try {
        expect(host.tools.map((tool) => tool.name)).toEqual(['today', 'forecast', 'count', 'ping']);
        expect(host.tools[1]).toEqual({
          name: 'forecast',
          description: 'Forecast for a city.',
          parameters: {
            type: 'object',
            properties: { city: { type: 'string' }, days: { type: 'integer' } },
            required: ['city'],
          },
        });
        expect(await host.call('forecast', { city: 'Oslo', days: 1 })).toBe(
          'Oslo: sunny in 1 days',
        );
        expect(await host.call('forecast', { city: 'Rome' })).toBe('Rome: sunny in 0 days');
        expect(await host.call('count', {})).toBe('2');
        expect(await host.call('ping', {})).toBe('pong');
        // The validator (proposal review, `skills validate`) lists exactly what is served.
        const validated = await validateSkill(source, 'py');
        expect(validated.tools).toEqual(host.tools);
        for (const hidden of ['_private', 'helper', 'make', 'label', 'Forecast'])
          await expect(host.call(hidden, {})).rejects.toMatchObject({ reason: 'tool' });
      } finally {
        await host.close();
      }
    },
  );
});
