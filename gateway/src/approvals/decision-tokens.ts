import { createHmac, hkdfSync, randomBytes, timingSafeEqual } from 'node:crypto';

export type ApprovalDecision = 'approve' | 'deny';

/** The token a push carries for each action: `<expiry ms>.<HMAC-SHA256, base64url>`. */
const TOKEN_PATTERN = /^(\d{13})\.([\w-]{43})$/;

export interface DecisionTokensDeps {
  /** The HMAC key (see `decisionTokenSecret`). */
  secret: Buffer;
  now: () => number;
}

export interface DecisionTokens {
  /** A token that decides `approvalId` this one way, until `expiresAt` (ms since the epoch). */
  mint(approvalId: string, decision: ApprovalDecision, expiresAt: number): string;
  /**
   * True once for a genuine, unexpired token of exactly this approval and decision; a second
   * presentation of the same token (a replay) is false.
   */
  redeem(approvalId: string, decision: ApprovalDecision, token: string): boolean;
}

/**
 * The key the tokens are signed with. With `[gateway] api_key` set it is derived from the key
 * (HKDF-SHA256), so every gateway sharing the key accepts a token another one minted (the
 * approval may wait on any of them); the key itself never leaves the gateway. Without a key a
 * random one per process.
 */
export function decisionTokenSecret(apiKey: string): Buffer {
  if (apiKey === '') return randomBytes(32);
  return Buffer.from(hkdfSync('sha256', apiKey, 'hearth', 'approval decision token v1', 32));
}

/**
 * Short-lived, single-purpose decision tokens for the service worker's Approve and Deny
 * notification actions: the worker holds no API key, only these, each bound by HMAC to one
 * approval id and one decision and expiring with the approval. A redeemed token is remembered
 * until it expires, so it works once; once the approval is decided it is gone anyway.
 */
export function createDecisionTokens(deps: DecisionTokensDeps): DecisionTokens {
  const redeemed = new Map<string, number>();
  const mac = (approvalId: string, decision: ApprovalDecision, expiresAt: number): Buffer =>
    createHmac('sha256', deps.secret).update(`${approvalId}\n${decision}\n${expiresAt}`).digest();
  const forget = (at: number) => {
    for (const [token, expiresAt] of redeemed) if (expiresAt <= at) redeemed.delete(token);
  };
  return {
    mint(approvalId, decision, expiresAt) {
      const expiry = Math.floor(expiresAt);
      return `${expiry}.${mac(approvalId, decision, expiry).toString('base64url')}`;
    },
    redeem(approvalId, decision, token) {
      const match = TOKEN_PATTERN.exec(token);
      if (!match) return false;
      const expiresAt = Number(match[1]);
      const now = deps.now();
      forget(now);
      if (expiresAt <= now || redeemed.has(token)) return false;
      const given = Buffer.from(match[2]!, 'base64url');
      // 43 base64url characters carry 258 bits for the MAC's 256: four spellings of the last
      // character decode alike. Only the canonical one counts, so a spent token cannot come back
      // spelt another way.
      if (given.toString('base64url') !== match[2]) return false;
      if (!timingSafeEqual(given, mac(approvalId, decision, expiresAt))) return false;
      redeemed.set(token, expiresAt);
      return true;
    },
  };
}
