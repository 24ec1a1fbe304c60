/** One outbound HTTP(S) request: metadata only, never headers or bodies. */
export interface EgressEntry {
  session_id: string | null;
  method: string;
  /** The full URL with userinfo removed and secret-bearing query values redacted. */
  url: string;
  /** `hostname`, or `hostname:port` when the port is not the scheme's default. */
  destination: string;
  /** Epoch seconds (fractional). */
  timestamp: number;
  /**
   * Who made it: null for the gateway itself, `skill:<name>` for a request the gateway made on a
   * skill's behalf (a skill has no network of its own). Absent when recording means null.
   */
  source?: string | null;
  /** Why the gateway refused to make it (nothing was sent), or null for a request that was made. */
  refused?: string | null;
}

export interface AuditReport {
  /** The session reported, or null for all sessions. */
  session_id: string | null;
  /** Every matching entry, even those beyond the `entries` cap. */
  total: number;
  /** Distinct destinations of every matching entry, sorted. */
  unique_destinations: string[];
  /** Newest first, capped (see `AuditStoreOptions.entryLimit`); `source`/`refused` always set. */
  entries: Required<EgressEntry>[];
}

export interface ClearResult {
  cleared: number;
  session_id: string | null;
}
