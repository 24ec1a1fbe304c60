import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { isHearthError } from '../../errors.ts';
import { blockedPythonModules } from './blocked.ts';
import { createSkillValidator } from './validator.ts';

// The interpreter itself rather than a version manager's shim script, which takes seconds to start.
const python3Path = execFileSync('python3', ['-c', 'import sys; print(sys.executable)'], {
  encoding: 'utf8',
}).trim();
const validate = createSkillValidator({ python3Path, timeoutMs: 20_000 });

/** [what it tries, source, the construct the rejection names, its line]. */
const hostile: [string, string, string, number][] = [
  ['import subprocess', 'import subprocess', 'import subprocess', 1],
  ['an aliased import among others', 'import os, ctypes as c', 'import ctypes', 1],
  ['a submodule', 'import ctypes.util', 'import ctypes.util', 1],
  ['from … import', 'from subprocess import run', 'from subprocess import', 1],
  ['from a submodule', '\nfrom ctypes.util import find_library', 'from ctypes.util import', 2],
  ['winreg', 'import winreg', 'import winreg', 1],
  ['msvcrt', 'import msvcrt', 'import msvcrt', 1],
  ['pty', 'import pty', 'import pty', 1],
  ['tty', 'import tty', 'import tty', 1],
  ['termios', 'import termios', 'import termios', 1],
  ['fcntl', 'import fcntl', 'import fcntl', 1],
  [
    'an import inside a function',
    'def run():\n    import subprocess\n    return subprocess.run',
    'import subprocess',
    2,
  ],
  ['__import__ with a literal', "sp = __import__('subprocess')", "__import__('subprocess')", 1],
  [
    'importlib.import_module with a literal',
    "import importlib\nimportlib.import_module('pty')",
    "import_module('pty')",
    2,
  ],
  [
    'import_module imported by name',
    "from importlib import import_module\nimport_module('fcntl')",
    "import_module('fcntl')",
    2,
  ],
  [
    '__import__ with an expression',
    "name = 'sub' + 'process'\n__import__(name)",
    '__import__(<expression>)',
    2,
  ],
  [
    'import_module with an expression',
    "import importlib\nimportlib.import_module('sub' + 'process')",
    'import_module(<expression>)',
    2,
  ],
  ['__import__ as a value', 'load = __import__', '__import__ (as a value)', 1],
  [
    'getattr of __import__',
    "import builtins\ngetattr(builtins, '__import__')('pty')",
    "getattr(…, '__import__')",
    2,
  ],
  ['a subscript of __builtins__', "__builtins__['__import__']('pty')", "['__import__']", 1],
  ['exec of a literal that imports', "x = 1\nexec('import subprocess')", 'import subprocess', 2],
  ['exec of an expression', "code = 'import ' + 'pty'\nexec(code)", 'exec(<expression>)', 2],
  ['builtins.exec', "import builtins\nbuiltins.exec('x = 1')", 'builtins.exec', 2],
  [
    'an aliased import_module',
    "from importlib import import_module as load\nload('termios')",
    "import_module('termios')",
    2,
  ],
  [
    'an aliased __import__',
    "from builtins import __import__ as imp\nimp('tty')",
    "__import__('tty')",
    2,
  ],
  [
    'find_spec, then exec_module',
    "import importlib.util\nspec = importlib.util.find_spec('subprocess')",
    "find_spec('subprocess')",
    2,
  ],
  ['runpy.run_module', "import runpy\nrunpy.run_module('pty')", "run_module('pty')", 2],
  ['an aliased builtins.exec', "import builtins as b\nb.exec('x = 1')", 'b.exec', 2],
  [
    'a relative import_module',
    "import importlib\nimportlib.import_module('.util', 'ctypes')",
    "import_module('.util', …)",
    2,
  ],
  [
    'a relative __import__',
    "__import__('util', {'__package__': 'ctypes'}, None, [], 1)",
    "__import__('util', …)",
    1,
  ],
  ['exec through an imported builtins', "__import__('builtins').exec(payload)", 'builtins.exec', 1],
  [
    'getattr of builtins with a built name',
    "n = chr(95) + chr(95) + 'import' + chr(95) + chr(95)\ngetattr(__builtins__, n)('os')",
    'getattr(builtins, <expression>)',
    2,
  ],
  ['a syntax error', 'def f(:\n    pass', 'syntax error', 1],
];

describe('layer 1 rejects rule 16 imports in skill.py, with construct and line', () => {
  it.each(hostile)('%s', async (_what, source, construct, line) => {
    const result = await validate(source, 'py');
    expect(result.ok).toBe(false);
    expect(result.problems).toContainEqual(expect.objectContaining({ construct, line }));
  });

  it('the list is exactly rule 16: the eight modules and nothing else', async () => {
    expect(blockedPythonModules).toEqual([
      'subprocess',
      'ctypes',
      'winreg',
      'msvcrt',
      'pty',
      'tty',
      'termios',
      'fcntl',
    ]);
    const source = [
      'import os, sys, json, socket, importlib, shutil',
      'from urllib.request import urlopen',
      'from . import subprocess  # a module of the skill itself, not the standard library',
      'import subprocessing, ctypes_helper',
      '"""import subprocess"""',
      '# import pty',
      "re_pattern = __import__('re')",
      "exec('x = 1')",
    ].join('\n');
    const result = await validate(source, 'py');
    expect(result.problems).toEqual([]);
  });
});

describe('skill.py tools: top-level callables not starting with _, docstrings as descriptions', () => {
  it('reads functions, annotations, defaults and a Plugin subclass', async () => {
    const source = [
      'def weather(city: str, days: int = 1, metric: bool = True, tags: list[str] = None, *rest, **extra):',
      '    """Current weather for a city.',
      '    Uses wttr.in.',
      '',
      '    Longer notes."""',
      'async def ping(): pass',
      'def _helper(): pass',
      'class Forecast(Plugin):',
      '    def week(self, city: str, scale: float):',
      '        """The week ahead."""',
      '    def _cache(self): pass',
      '    @staticmethod',
      '    def util(): pass',
      'class NotATool: pass',
    ].join('\n');
    const result = await validate(source, 'py');
    expect(result.problems).toEqual([]);
    expect(result.tools).toEqual([
      {
        name: 'weather',
        description: 'Current weather for a city. Uses wttr.in.',
        parameters: {
          type: 'object',
          properties: {
            city: { type: 'string' },
            days: { type: 'integer' },
            metric: { type: 'boolean' },
            tags: { type: 'array' },
          },
          required: ['city'],
        },
      },
      {
        name: 'ping',
        description: 'ping',
        parameters: { type: 'object', properties: {}, required: [] },
      },
      {
        name: 'week',
        description: 'The week ahead.',
        parameters: {
          type: 'object',
          properties: { city: { type: 'string' }, scale: { type: 'number' } },
          required: ['city', 'scale'],
        },
      },
    ]);
  });

  it('lists only what the runtime serves: plain methods, not class/static methods or properties', async () => {
    const source = [
      'import functools',
      'def shared(): pass',
      'class Station(Plugin):',
      '    def reading(self, sensor: str): pass',
      '    @classmethod',
      '    def build(cls, city: str): pass',
      '    @staticmethod',
      '    def util(): pass',
      '    @property',
      '    def name(self): pass',
      '    @name.setter',
      '    def name(self, value): pass',
      '    @functools.cached_property',
      '    def cache(self): pass',
      '    def shared(self): pass',
    ].join('\n');
    const result = await validate(source, 'py');
    expect(result.problems).toEqual([]);
    expect(result.tools.map((tool) => tool.name)).toEqual(['shared', 'reading']);
  });

  it('reads a byte-order mark and CRLF line ends as Python does', async () => {
    const result = await validate('\ufeffdef ok():\r\n    pass\r\nimport tty\r\n', 'py');
    expect(result.problems).toEqual([
      expect.objectContaining({ construct: 'import tty', line: 3 }),
    ]);
    expect(result.tools.map((tool) => tool.name)).toEqual(['ok']);
  });

  it('the source is parsed, never run', async () => {
    const result = await validate("raise SystemExit(3)\nopen('/tmp/x', 'w')\ndef ok(): pass", 'py');
    expect(result.ok).toBe(true);
    expect(result.tools.map((tool) => tool.name)).toEqual(['ok']);
  });

  it('survives hostile input: deep nesting, NUL bytes, huge sources', async () => {
    const deep = await validate(`x = ${'('.repeat(100_000)}1${')'.repeat(100_000)}`, 'py');
    expect(deep.ok).toBe(false);
    const nul = await validate('x = 1\0', 'py');
    expect(nul.ok).toBe(false);
    const big = await validate(`${'x = 1\n'.repeat(20_000)}import pty\n`, 'py');
    expect(big.problems).toEqual([
      expect.objectContaining({ construct: 'import pty', line: 20_001 }),
    ]);
  });
});

describe('the Python check fails closed', () => {
  it('a missing python3 is an error saying so, not a pass', async () => {
    const missing = createSkillValidator({ python3Path: '/nonexistent/python3' });
    const error: unknown = await missing('def f(): pass', 'py').catch((caught: unknown) => caught);
    expect(isHearthError(error) && error.code).toBe('unavailable');
    expect((error as Error).message).toMatch(/python3.*not found/);
  });

  it('a check that does not finish in time is an error, not a pass', async () => {
    const slow = createSkillValidator({ python3Path, timeoutMs: 1 });
    const error: unknown = await slow('def f(): pass', 'py').catch((caught: unknown) => caught);
    expect(isHearthError(error) && error.code).toBe('unavailable');
  });
});
