import { createHash, timingSafeEqual } from 'node:crypto';
import type { Logger } from 'pino';
import { HearthError, notFound, validationError } from '../errors.ts';
import type {
  DescribedTool,
  InstalledSkill,
  JudgePackage,
  PackageVerdict,
  ScanFinding,
  ScanResult,
  SkillCatalog,
  SkillKind,
} from '../skills/ports.ts';
import { fetchPackage, type HubFetchLimits, type HubNetwork } from './fetch-package.ts';
import { kindFromUrl, nameFromUrl } from './package-name.ts';
import { parsePackageUrl, type PackageUrl } from './package-url.ts';

/** A hub package as the REST API and the CLI show it. */
export interface HubPackage {
  name: string;
  version: string;
  tags: string[];
  enabled: boolean;
  kind: SkillKind;
  state: InstalledSkill['state'];
  tools: string[];
  origin: string;
  load_error: string | null;
}

export interface HubInstallInput {
  url: string;
  name?: string;
  kind?: SkillKind;
  version?: string;
  tags?: string[];
  /** The publisher's SHA-256 of the package bytes, lowercase hex. */
  expected_checksum?: string;
  /** Overrides the scanner's flag; never the checksum or layer 1. */
  force?: boolean;
}

export interface HubInstalled extends HubPackage {
  sha256: string;
  scan: ScanResult;
  forced: boolean;
  /** The tools' descriptions as the model sees them, for the owner to read. */
  tool_descriptions: DescribedTool[];
}

export interface HubServiceDeps {
  catalog: () => SkillCatalog;
  /** The one verdict (layer 1 and the scanner), shared with `POST /hub/scan`. */
  judge: JudgePackage;
  network: HubNetwork;
  limits: HubFetchLimits;
  logger: Logger;
}

/** The origin a hub install records: the https URL, or `data:sha256:<hex>` for inline code. */
export function originOf(source: PackageUrl, sha256: string): string {
  return source.kind === 'https' ? source.url.href : `data:sha256:${sha256}`;
}

/** Skills the hub installed (the others are the skills area's own, never touched here). */
export function isHubOrigin(origin: string): boolean {
  return origin.startsWith('https://') || origin.startsWith('data:');
}

export function toHubPackage(skill: InstalledSkill): HubPackage {
  return {
    name: skill.name,
    version: skill.version,
    tags: [...skill.tags],
    enabled: skill.state !== 'disabled' && skill.state !== 'quarantined',
    kind: skill.kind,
    state: skill.state,
    tools: [...skill.tools],
    origin: skill.origin,
    load_error: skill.load_error,
  };
}

const TOP_FINDINGS = 3;

/**
 * The package hub: installs code from an https or data: URL into the skills catalog, in this
 * order, each step refusing before the next runs: the URL's scheme; the name (free, valid);
 * the fetch (size cap, timeout, https-only redirects); the publisher's checksum; UTF-8 text;
 * the verdict of layer 1 and the scanner (blocks unless `force`; `POST /hub/scan` returns the
 * same verdict); then the catalog, whose layer-1 validation refuses what it must whatever
 * `force` says. Nothing is written before the catalog accepts.
 */
export function createHubService(deps: HubServiceDeps) {
  const log = deps.logger.child({ area: 'hub' });
  /** Names with an install in flight: a replayed request waits for no one, it is refused. */
  const installing = new Set<string>();

  const hubSkills = (): InstalledSkill[] =>
    deps
      .catalog()
      .list()
      .filter((skill) => isHubOrigin(skill.origin));

  function hubSkill(name: string): InstalledSkill {
    const skill = deps.catalog().get(name);
    if (!skill || !isHubOrigin(skill.origin)) throw notFound(`No hub package named ${name}`);
    return skill;
  }

  async function install(input: HubInstallInput): Promise<HubInstalled> {
    const source = parsePackageUrl(input.url);
    const name = input.name ?? (source.kind === 'https' ? nameFromUrl(source.url) : undefined);
    if (name === undefined) throw validationError('name: a data: URL install needs a name');
    const kind = input.kind ?? (source.kind === 'https' ? kindFromUrl(source.url) : undefined);
    if (deps.catalog().get(name) || installing.has(name)) throw nameTaken(name);
    installing.add(name);
    try {
      const bytes = await fetchPackage(source, deps.network, deps.limits);
      const sha256 = createHash('sha256').update(bytes).digest('hex');
      if (input.expected_checksum !== undefined && !sameDigest(sha256, input.expected_checksum))
        throw validationError(
          `expected_checksum: the fetched package's SHA-256 is ${sha256}, not ${input.expected_checksum}; nothing was installed`,
        );
      const text = utf8(bytes);
      const finalKind = kind ?? 'mjs';
      const verdict = await deps.judge(text, finalKind);
      const scan: ScanResult = { flagged: verdict.flagged, findings: verdict.findings };
      if (scan.flagged && input.force !== true)
        throw validationError(
          `the package scanner flagged ${name}: ${describeFindings(scan.findings)}; nothing was installed (force overrides the scanner)`,
        );
      // Again after the download: a trusted write of the same name may have landed meanwhile.
      if (deps.catalog().get(name)) throw nameTaken(name);
      const skill = await deps.catalog().install({
        name,
        kind: finalKind,
        source: text,
        origin: originOf(source, sha256),
        version: input.version,
        tags: input.tags,
      });
      log.info(
        { name, origin: skill.origin, sha256, flagged: scan.flagged, forced: scan.flagged },
        'hub package installed',
      );
      return {
        ...toHubPackage(skill),
        sha256,
        scan,
        forced: scan.flagged,
        tool_descriptions: verdict.tool_descriptions,
      };
    } finally {
      installing.delete(name);
    }
  }

  return {
    /** True once the skills catalog is open. */
    available(): boolean {
      try {
        deps.catalog();
        return true;
      } catch {
        return false;
      }
    },
    list: (): HubPackage[] => hubSkills().map(toHubPackage),
    get: (name: string): HubPackage => toHubPackage(hubSkill(name)),
    search(query: string): HubPackage[] {
      const q = query.toLowerCase();
      return hubSkills()
        .filter(
          (skill) =>
            skill.name.includes(q) || skill.tags.some((tag) => tag.toLowerCase().includes(q)),
        )
        .map(toHubPackage);
    },
    install,
    async setEnabled(name: string, enabled: boolean): Promise<HubPackage> {
      hubSkill(name);
      return toHubPackage(await deps.catalog().setEnabled(name, enabled));
    },
    async remove(name: string): Promise<void> {
      hubSkill(name);
      if (!(await deps.catalog().remove(name))) throw notFound(`No hub package named ${name}`);
      log.info({ name }, 'hub package removed');
    },
    /** The verdict an install of this code would reach (the same function decides both). */
    scan: (code: string, kind: SkillKind): Promise<PackageVerdict> => deps.judge(code, kind),
    status() {
      const packages = hubSkills().map(toHubPackage);
      return {
        total: packages.length,
        enabled: packages.filter((p) => p.enabled).length,
      };
    },
  };
}

export type HubService = ReturnType<typeof createHubService>;

function nameTaken(name: string): HearthError {
  return new HearthError(
    'conflict',
    `name: ${name} is already installed; remove it first to install another`,
  );
}

function sameDigest(actual: string, expected: string): boolean {
  const a = Buffer.from(actual, 'hex');
  const b = Buffer.from(expected, 'hex');
  return a.length === 32 && b.length === 32 && timingSafeEqual(a, b);
}

function utf8(bytes: Uint8Array): string {
  if (bytes.length === 0) throw validationError('url: the package is empty');
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    throw validationError('url: the package is not UTF-8 text');
  }
}

/** The most severe findings first, as `rule (severity, line N): message`. */
function describeFindings(findings: readonly ScanFinding[]): string {
  const rank = { critical: 0, high: 1, medium: 2, low: 3 } as const;
  const top = [...findings]
    .sort((a, b) => rank[a.severity] - rank[b.severity] || a.line - b.line)
    .slice(0, TOP_FINDINGS)
    .map((f) => `${f.rule} (${f.severity}, line ${f.line}): ${f.message}`);
  const more = findings.length - top.length;
  return `${top.join('; ')}${more > 0 ? `; and ${more} more` : ''}`;
}
