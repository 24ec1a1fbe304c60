import { describe, expect, it } from 'vitest';
import { createSkillValidator } from './validator.ts';

const validate = createSkillValidator();
const toolsOf = async (source: string) => {
  const result = await validate(source, 'mjs');
  expect(result.problems).toEqual([]);
  return result.tools;
};

describe('every exported function not starting with _ is a tool, its JSDoc the description', () => {
  it('reads names, descriptions and @param types; _helpers and non-functions are not tools', async () => {
    const source = [
      '/**',
      ' * Current weather for a city.',
      ' * Uses wttr.in.',
      ' * @param {string} city - The city name',
      ' * @param {number} [days] How many days',
      " * @param {'metric'|'imperial'} units",
      ' * @param {boolean=} verbose',
      ' * @param {string[]} tags',
      ' * @param {Array<number>} scores',
      ' * @param {object} options',
      ' * @param {Date} when something unmappable',
      ' * @returns {Promise<string>}',
      ' */',
      'export async function weather(city, days, units, verbose, tags, scores, options, when) {}',
      '',
      '/** Internal. */',
      'export function _helper() {}',
      'export const VERSION = "1";',
      'function notExported() {}',
    ].join('\n');
    expect(await toolsOf(source)).toEqual([
      {
        name: 'weather',
        description: 'Current weather for a city. Uses wttr.in.',
        parameters: {
          type: 'object',
          properties: {
            city: { type: 'string', description: 'The city name' },
            days: { type: 'number', description: 'How many days' },
            units: { type: 'string', enum: ['metric', 'imperial'] },
            verbose: { type: 'boolean' },
            tags: { type: 'array', items: { type: 'string' } },
            scores: { type: 'array', items: { type: 'number' } },
            options: { type: 'object' },
            when: { description: 'something unmappable' },
          },
          required: ['city', 'units', 'tags', 'scores', 'options', 'when'],
        },
      },
    ]);
  });

  it('takes arrow functions, function expressions and export lists; the name stands in for a missing description', async () => {
    const source = [
      '/** Adds. @param {number} a @param {number} b */',
      'export const add = (a, b) => a + b;',
      'export const twice = function (x) { return 2 * x; };',
      'function shout(text) { return text.toUpperCase(); }',
      'export { shout, shout as yell };',
    ].join('\n');
    const tools = await toolsOf(source);
    expect(tools.map((tool) => [tool.name, tool.description])).toEqual([
      ['add', 'Adds.'],
      ['twice', 'twice'],
      ['shout', 'shout'],
      ['yell', 'yell'],
    ]);
    expect(tools[0]?.parameters).toEqual({
      type: 'object',
      properties: { a: { type: 'number' }, b: { type: 'number' } },
      required: ['a', 'b'],
    });
  });

  it('a JSDoc block counts only right before the export, not across other code', async () => {
    const source = '/** Not mine. */\nconst x = 1;\nexport function f() { return x; }';
    expect((await toolsOf(source))[0]?.description).toBe('f');
  });

  it('an exported schema literal overrides the parameters (a bare schema or { description, parameters })', async () => {
    const source = [
      '/** Searches. @param {string} q */',
      'export function search(args) {}',
      'export function fetchPage(args) {}',
      'export const schema = {',
      "  search: { type: 'object', properties: { q: { type: 'string', minLength: 1 } }, required: ['q'] },",
      "  fetchPage: { description: 'Fetches a page.', parameters: { type: 'object', properties: { n: { type: 'integer', minimum: -1 } } } },",
      '};',
    ].join('\n');
    const tools = await toolsOf(source);
    expect(tools).toEqual([
      {
        name: 'search',
        description: 'Searches.',
        parameters: {
          type: 'object',
          properties: { q: { type: 'string', minLength: 1 } },
          required: ['q'],
        },
      },
      {
        name: 'fetchPage',
        description: 'Fetches a page.',
        parameters: { type: 'object', properties: { n: { type: 'integer', minimum: -1 } } },
      },
    ]);
  });

  it('a schema that is not a plain literal, or names no tool, is rejected: it is read without running the skill', async () => {
    const computed = await validate(
      'export function f() {}\nconst base = {};\nexport const schema = {\n  f: { ...base },\n};',
      'mjs',
    );
    expect(computed.problems).toEqual([expect.objectContaining({ construct: 'schema', line: 4 })]);
    const called = await validate('export function f() {}\nexport const schema = make();', 'mjs');
    expect(called.problems).toEqual([expect.objectContaining({ construct: 'schema', line: 2 })]);
    const stray = await validate('export function f() {}\nexport const schema = { g: {} };', 'mjs');
    expect(stray.problems).toEqual([expect.objectContaining({ construct: 'schema.g', line: 2 })]);
  });

  it('a default-exported Plugin subclass adds its public methods as tools', async () => {
    const source = [
      "import { Plugin } from 'hearth-plugin';",
      '/** Top-level. */',
      'export function ping() {}',
      'class Weather extends Plugin {',
      '  constructor() { super(); }',
      '  /** Forecast for a city. @param {string} city */',
      '  async forecast(city) {}',
      '  _private() {}',
      '  #hidden() {}',
      '  static create() {}',
      '  get cached() { return 1; }',
      "  static schema = { today: { type: 'object', properties: {} } };",
      '  today() {}',
      '}',
      'export default Weather;',
    ].join('\n');
    const tools = await toolsOf(source);
    expect(tools.map((tool) => tool.name)).toEqual(['ping', 'forecast', 'today']);
    expect(tools[1]).toEqual({
      name: 'forecast',
      description: 'Forecast for a city.',
      parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
    });
    expect(tools[2]?.parameters).toEqual({ type: 'object', properties: {} });
  });

  it('a class not extending Plugin, or not the default export, gives no tools', async () => {
    expect(await toolsOf('export default class Thing { run() {} }')).toEqual([]);
    expect(await toolsOf('export class P extends Plugin { run() {} }')).toEqual([]);
  });

  it('rejects tool names a model cannot call and duplicate tools', async () => {
    const odd = await validate('export function $weather() {}', 'mjs');
    expect(odd.problems).toEqual([
      expect.objectContaining({ construct: 'tool $weather', line: 1 }),
    ]);
    const twice = await validate(
      'export function run() {}\nexport default class P extends Plugin {\n  run() {}\n}',
      'mjs',
    );
    expect(twice.problems).toEqual([expect.objectContaining({ construct: 'tool run', line: 3 })]);
  });

  it('a module that does not parse has no tools', async () => {
    const result = await validate('export function f( {', 'mjs');
    expect(result).toEqual({ ok: false, problems: [expect.any(Object)], tools: [] });
  });
});
