import { createHash } from 'node:crypto';
import type { FileHandle } from 'node:fs/promises';
import {
  describeType,
  isDirectoryType,
  isFileType,
  memberName,
  memberProblem,
  type ArchiveLimits,
} from './archive-rules.ts';
import {
  planBackup,
  MAX_PAX_BYTES,
  type BackupPlan,
  type PlannedDirectory,
  type PlannedFile,
} from './backup-plan.ts';
import { MANIFEST_NAME, manifestSchema, type BackupManifest } from './manifest.ts';
import { BLOCK, blocks } from './tar-format.ts';
import { ArchiveDamaged, ArchiveRefused, TarReader, type TarMember } from './tar-reader.ts';

/** Where a read puts what it accepts: verify keeps only the databases, restore everything. */
export interface BackupSink {
  /** The manifest is checked; nothing is read past it yet. May refuse (free space). */
  start(plan: BackupPlan): Promise<void>;
  directory(directory: PlannedDirectory): Promise<void>;
  /** Where the file's bytes go, or undefined to only hash them. */
  file(file: PlannedFile): Promise<FileHandle | undefined>;
}

export interface BackupRead {
  manifest?: BackupManifest;
  plan?: BackupPlan;
  /** Files whose bytes matched the manifest's SHA-256. */
  matched: PlannedFile[];
  /** Empty when the archive is exactly what its manifest declares. */
  problems: string[];
  /** The read reached the end of the archive (no member refused, nothing damaged). */
  complete: boolean;
  /** Bytes of tar decompressed and read: never much past what the manifest declares. */
  inflated: number;
}

async function writeAll(handle: FileHandle, piece: Buffer): Promise<void> {
  for (let at = 0; at < piece.length;) {
    const { bytesWritten } = await handle.write(piece, at, piece.length - at);
    at += bytesWritten;
  }
}

const describe = (member: TarMember) =>
  `${JSON.stringify(member.path)} (${describeType(member.type)})`;

type Refusal = { problems: string[] };

/**
 * manifest.json, first, within its limit: parsed, checked against the schema and the limits,
 * and planned. Reading is then allowed only as far as the plan's bytes.
 */
async function readManifest(
  reader: TarReader,
  limits: ArchiveLimits,
): Promise<{ manifest?: BackupManifest; plan?: BackupPlan; problems: string[] }> {
  // The manifest's header (and a pax record of its name), then its body.
  reader.allow(2 * BLOCK + blocks(MAX_PAX_BYTES));
  const first = await reader.next();
  if (!first) return { problems: ['the archive is empty'] };
  const firstProblem = memberProblem(first, limits);
  if (firstProblem) return { problems: [firstProblem] };
  if (memberName(first.path) !== MANIFEST_NAME || !isFileType(first.type))
    return {
      problems: [
        `${MANIFEST_NAME} is missing from the start of the archive: its first member is ${describe(first)}`,
      ],
    };
  if (first.size > limits.maxManifestBytes)
    return {
      problems: [
        `${MANIFEST_NAME} is ${first.size} bytes, beyond the limit of ${limits.maxManifestBytes}`,
      ],
    };
  reader.allow(blocks(first.size));
  const text = (await reader.readBody()).toString('utf8');
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    return { problems: [`${MANIFEST_NAME} cannot be read: ${(error as Error).message}`] };
  }
  const parsed = manifestSchema.safeParse(json);
  if (!parsed.success)
    return { problems: [`${MANIFEST_NAME} is not valid: ${parsed.error.message}`] };
  const { plan, problems } = planBackup(parsed.data, limits);
  if (plan) reader.allow(plan.tarBytes);
  return { manifest: parsed.data, plan, problems };
}

/**
 * Why a member header is not the next one the plan allows, or null when it is (the entry it
 * is, or 'state' for the state folder itself, which a tool packing `state` adds).
 */
function judge(
  member: TarMember,
  plan: BackupPlan,
  seen: Set<string>,
  limits: ArchiveLimits,
): Refusal | PlannedFile | PlannedDirectory | 'state' {
  const rule = memberProblem(member, limits);
  if (rule) return { problems: [rule] };
  const name = memberName(member.path);
  if (seen.has(name))
    return {
      problems: [`${JSON.stringify(name)}: duplicate member (${describeType(member.type)})`],
    };
  seen.add(name);
  const isDirectory = isDirectoryType(member.type);
  if (name === 'state')
    return isDirectory && member.size === 0
      ? 'state'
      : { problems: [`${describe(member)}: the manifest's members live in this directory`] };
  const expected = plan.members.get(name);
  if (!expected || (expected.kind === 'directory' && !expected.inArchive))
    return { problems: [`${describe(member)}: in the archive but not in the manifest`] };
  if (isDirectory !== (expected.kind === 'directory'))
    return {
      problems: [
        `${describe(member)}: the manifest lists a ${expected.kind === 'file' ? 'regular file' : 'directory'}`,
      ],
    };
  if (expected.kind === 'directory' && member.size !== 0)
    return { problems: [`${describe(member)}: a directory with ${member.size} bytes of data`] };
  if (expected.kind === 'file' && member.size !== expected.size)
    return {
      problems: [
        `${describe(member)}: the archive declares ${member.size} bytes, the manifest ${expected.size}`,
      ],
    };
  return expected;
}

/** Streams a file's body to the sink (if it wants it), hashing it; true when the hash matches. */
async function streamFile(
  reader: TarReader,
  file: PlannedFile,
  sink: BackupSink,
): Promise<boolean> {
  const hash = createHash('sha256');
  const handle = await sink.file(file);
  try {
    for await (const piece of reader.body()) {
      hash.update(piece);
      if (handle) await writeAll(handle, piece);
    }
  } finally {
    await handle?.close();
  }
  return hash.digest('hex') === file.sha256;
}

/**
 * Reads a backup once, in order, against its manifest: manifest.json must come first (a
 * regular file within the manifest limit); every later member must be one the manifest lists,
 * of the listed type (regular file or directory) and size, once. The first member that is
 * not stops the read there and is the one problem reported, naming it and its type, before
 * any byte of its body is inflated; reading also stops at the first byte past what the
 * manifest declares. Files go to the sink as they stream, each hashed against its SHA-256;
 * at the end, every member the manifest lists must have been seen.
 */
export async function readBackup(
  archive: string,
  limits: ArchiveLimits,
  sink: BackupSink,
): Promise<BackupRead> {
  const reader = new TarReader(archive);
  const matched: PlannedFile[] = [];
  let manifest: BackupManifest | undefined;
  let plan: BackupPlan | undefined;
  const done = (problems: string[], complete = false): BackupRead => ({
    manifest,
    plan,
    matched,
    problems,
    complete,
    inflated: reader.position,
  });
  try {
    const head = await readManifest(reader, limits);
    manifest = head.manifest;
    plan = head.plan;
    if (!plan) return done(head.problems);
    await sink.start(plan);

    const seen = new Set<string>([MANIFEST_NAME]);
    const problems: string[] = [];
    for (let member = await reader.next(); member; member = await reader.next()) {
      const entry = judge(member, plan, seen, limits);
      if (entry === 'state') continue;
      if ('problems' in entry) return done(entry.problems);
      if (entry.kind === 'directory') await sink.directory(entry);
      else if (await streamFile(reader, entry, sink)) matched.push(entry);
      else problems.push(`${JSON.stringify(entry.path)}: SHA-256 does not match the manifest`);
    }
    await reader.finish();
    for (const [name, entry] of plan.members)
      if (!seen.has(name) && (entry.kind === 'file' || entry.inArchive))
        problems.push(`${JSON.stringify(name)}: listed in the manifest but not in the archive`);
    return done(problems, true);
  } catch (error) {
    if (error instanceof ArchiveRefused) return done([error.message]);
    if (error instanceof ArchiveDamaged)
      return done([
        error.message === 'the archive is empty'
          ? error.message
          : `the archive is damaged: ${error.message}`,
      ]);
    throw error;
  } finally {
    reader.close();
  }
}
