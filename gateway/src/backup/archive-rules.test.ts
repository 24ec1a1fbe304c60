import { describe, expect, it } from 'vitest';
import { DEFAULT_ARCHIVE_LIMITS, memberProblem, type MemberHeader } from './archive-rules.ts';

const rule = (header: Partial<MemberHeader> & { path: string }) =>
  memberProblem({ type: 'File', size: 1, ...header }, DEFAULT_ARCHIVE_LIMITS);

describe('the member rules of a restore', () => {
  it('accept the manifest and files and folders under state/', () => {
    expect(rule({ path: 'manifest.json' })).toBeNull();
    expect(rule({ path: 'state/memory.db' })).toBeNull();
    expect(rule({ path: './state/skills/a/skill.py' })).toBeNull();
    expect(rule({ path: 'state/workspace/', type: 'Directory', size: 0 })).toBeNull();
  });

  it.each([
    ['/etc/passwd', 'absolute path'],
    ['C:/Windows/evil', 'absolute path'],
    ['\\\\server\\share', 'absolute path'],
    ['state\\..\\evil', 'backslash'],
    ['state/../../evil', 'path traversal'],
    ['..', 'path traversal'],
    ['state/a\0b', 'NUL'],
    ['elsewhere/file', 'not part of a Hearth backup'],
  ])('reject the name %j (%s)', (path, reason) => {
    expect(rule({ path })).toContain(reason);
  });

  it('reject links, naming the ones that point outside', () => {
    expect(rule({ path: 'state/l', type: 'SymbolicLink', linkpath: '../../etc' })).toContain(
      'points outside the archive',
    );
    expect(rule({ path: 'state/l', type: 'SymbolicLink', linkpath: '/etc/passwd' })).toContain(
      'points outside the archive',
    );
    expect(rule({ path: 'state/l', type: 'Link', linkpath: '/etc/shadow' })).toContain(
      'hard link to "/etc/shadow" points outside',
    );
    expect(rule({ path: 'state/l', type: 'SymbolicLink', linkpath: 'memory.db' })).toContain(
      'a Hearth backup holds none',
    );
  });

  it('reject device files, FIFOs and other member types', () => {
    expect(rule({ path: 'state/null', type: 'CharacterDevice' })).toContain('device file');
    expect(rule({ path: 'state/disk', type: 'BlockDevice' })).toContain('device file');
    expect(rule({ path: 'state/pipe', type: 'FIFO' })).toContain('FIFO');
  });

  it.each([
    ['SparseFile', 'GNU sparse file'],
    ['ContiguousFile', 'contiguous file'],
    ['NextFileHasLongPath', 'GNU long name'],
    ['NextFileHasLongLinkpath', 'GNU long link name'],
    ['OldGnuLongPath', 'old GNU long name'],
    ['GNUDumpDir', 'GNU dump directory'],
    ['ContinuationFile', 'GNU multi-volume continuation'],
    ['TapeVolumeHeader', 'GNU volume label'],
    ['GlobalExtendedHeader', 'pax global header'],
    ['OldExtendedHeader', 'Solaris extended header'],
    ['SolarisACL', 'Solaris ACL'],
    ['Unknown(0x51)', 'unknown member type'],
  ])('reject a %s member by name and type', (type, what) => {
    expect(rule({ path: 'state/x', type })).toBe(
      `"state/x": ${what} (${type}); a Hearth backup holds only regular files and directories`,
    );
  });

  it('reject a regular file whose name ends like a directory', () => {
    expect(rule({ path: 'state/x/' })).toBe('"state/x/": a regular file named like a directory');
    expect(rule({ path: 'state/x/', type: 'Directory', size: 0 })).toBeNull();
  });

  it('reject a member larger than the limit by its declared size', () => {
    expect(
      memberProblem(
        { path: 'state/big', type: 'File', size: 11 },
        { ...DEFAULT_ARCHIVE_LIMITS, maxMemberBytes: 10 },
      ),
    ).toContain('exceeds the limit of 10 per member');
  });
});
