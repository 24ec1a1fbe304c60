/**
 * Collects a scan's findings and puts them in the order the port promises: by line, one per
 * rule and line, the most severe first when a rule fires twice on a line. A hostile file can
 * trip a rule on every line; the report keeps the `MAX_FINDINGS` most severe (then earliest)
 * and says how many it left out, while `flagged` still counts them all.
 */
import type { ScanFinding, ScanResult, ScanSeverity } from '../types.ts';

export const MAX_FINDINGS = 200;

const RANK: Record<ScanSeverity, number> = { low: 0, medium: 1, high: 2, critical: 3 };

export interface FindingSink {
  add(rule: string, line: number, severity: ScanSeverity, message: string): void;
  result(): ScanResult;
}

export function findingSink(): FindingSink {
  const byKey = new Map<string, ScanFinding>();
  return {
    add(rule, line, severity, message) {
      const key = `${rule}\u0000${line}`;
      const earlier = byKey.get(key);
      if (!earlier || RANK[severity] > RANK[earlier.severity]) {
        byKey.set(key, { rule, line, severity, message });
      }
    },
    result() {
      const all = [...byKey.values()];
      const flagged = all.some((f) => RANK[f.severity] >= RANK.high);
      let kept = all;
      if (all.length > MAX_FINDINGS) {
        kept = all
          .sort((a, b) => RANK[b.severity] - RANK[a.severity] || a.line - b.line)
          .slice(0, MAX_FINDINGS - 1);
        const left = all.length - kept.length;
        kept.push({
          rule: 'scanner.findings-truncated',
          line: kept.reduce((m, f) => Math.max(m, f.line), 1),
          severity: 'low',
          message: `${left} more findings not listed`,
        });
      }
      const findings = kept.sort(
        (a, b) =>
          a.line - b.line ||
          RANK[b.severity] - RANK[a.severity] ||
          (a.rule < b.rule ? -1 : a.rule > b.rule ? 1 : 0),
      );
      return { flagged, findings };
    },
  };
}
