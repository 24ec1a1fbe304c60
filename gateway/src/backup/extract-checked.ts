import { extract } from 'tar';
import { memberName, memberProblem, type ArchiveLimits } from './archive-rules.ts';
import type { ArchiveScan } from './scan-archive.ts';

/**
 * Extracts a scanned archive into `dir` (an empty private folder). The same rules run again
 * on every header, and only the names the scan accepted are written: an archive swapped
 * between the scan and this read cannot slip a new member in. Damage is an error.
 */
export async function extractChecked(
  file: string,
  dir: string,
  scan: ArchiveScan,
  limits: ArchiveLimits,
): Promise<void> {
  const written = new Set<string>();
  await extract({
    file,
    cwd: dir,
    strict: true,
    preservePaths: false,
    preserveOwner: false,
    filter: (path, entry) => {
      const name = memberName(path);
      const header =
        'type' in entry
          ? { path, type: entry.type, size: entry.size, linkpath: entry.linkpath }
          : undefined;
      const accepted =
        header !== undefined &&
        memberProblem(header, limits) === null &&
        scan.members.get(name)?.size === header.size &&
        !written.has(name);
      if (accepted) written.add(name);
      return accepted;
    },
  });
}
