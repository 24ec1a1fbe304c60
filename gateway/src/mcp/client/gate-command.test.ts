import { describe, expect, it } from 'vitest';
import { analyseCommand } from '../../approvals/command-analysis/analyse-command.ts';
import { matchesAllowlist } from '../../approvals/command-analysis/match-allowlist.ts';
import { gateCommand } from './gate-command.ts';

const workspace = '/home/user/.hearth/workspace';
const allowed = (command: string, pattern: string) =>
  matchesAllowlist(analyseCommand(command), [{ pattern, arg_pattern: null }], {
    workdir: null,
    workspace,
  });

describe('the command an external MCP tool call is approved as', () => {
  it('names the server and tool, then the arguments as one quoted JSON word', () => {
    expect(gateCommand('files', 'read_file', {})).toBe('mcp:files/read_file');
    expect(gateCommand('files', 'read_file', { path: "it's" })).toBe(
      `mcp:files/read_file '{"path":"it'\\''s"}'`,
    );
  });

  it('is matched by an allowlist entry mcp:<server>/<tool>, or a glob of the server’s tools', () => {
    const command = gateCommand('files', 'read_file', { path: '/etc/hosts; rm -rf /' });
    expect(allowed(command, 'mcp:files/read_file')).toBe(true);
    expect(allowed(command, 'mcp:files/*')).toBe(true);
    expect(allowed(command, 'mcp:files/write_file')).toBe(false);
    expect(allowed(command, 'mcp:other/*')).toBe(false);
    expect(allowed(command, 'rm')).toBe(false);
    expect(allowed(command, '*')).toBe(false);
  });

  it('arguments cannot smuggle a second command past the allowlist', () => {
    for (const value of ["'; rm -rf / #", '$(reboot)', '`id`', '\n reboot', "\\' && reboot"]) {
      const command = gateCommand('files', 'read_file', { value });
      const analysis = analyseCommand(command);
      expect(
        analysis.commands.map((c) => c.programName),
        value,
      ).toEqual(['mcp:files/read_file']);
    }
  });
});
