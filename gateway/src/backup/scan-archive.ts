import { list } from 'tar';
import {
  DEFAULT_ARCHIVE_LIMITS,
  isFileType,
  memberName,
  memberProblem,
  type ArchiveLimits,
} from './archive-rules.ts';

export interface ScannedMember {
  name: string;
  size: number;
  directory: boolean;
}

export interface ArchiveScan {
  /** Members that passed every rule, by normalised name. */
  members: Map<string, ScannedMember>;
  /** Every rule broken, in archive order; empty when the archive may be extracted. */
  problems: string[];
}

/**
 * Reads every header of a tar.gz without writing anything and applies the member rules,
 * plus duplicates and the total size and count. A damaged archive (bad gzip, truncated tar,
 * bad checksum) is a problem too.
 */
export async function scanArchive(
  file: string,
  limits: ArchiveLimits = DEFAULT_ARCHIVE_LIMITS,
): Promise<ArchiveScan> {
  const members = new Map<string, ScannedMember>();
  const problems: string[] = [];
  let total = 0;
  let count = 0;
  try {
    await list({
      file,
      strict: true,
      onReadEntry: (entry) => {
        count += 1;
        const header = {
          path: entry.path,
          type: entry.type,
          size: entry.size,
          linkpath: entry.linkpath,
        };
        const problem = memberProblem(header, limits);
        const name = memberName(entry.path);
        if (problem) problems.push(problem);
        else if (members.has(name)) problems.push(`${JSON.stringify(name)}: duplicate member`);
        else members.set(name, { name, size: entry.size, directory: !isFileType(entry.type) });
        total += entry.size;
        entry.resume();
      },
    });
  } catch (error) {
    problems.push(
      `the archive is damaged: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
  if (count > limits.maxMembers)
    problems.push(`${count} members exceed the limit of ${limits.maxMembers}`);
  if (total > limits.maxTotalBytes)
    problems.push(`${total} bytes in all exceed the limit of ${limits.maxTotalBytes}`);
  if (count === 0 && problems.length === 0) problems.push('the archive is empty');
  return { members, problems };
}
