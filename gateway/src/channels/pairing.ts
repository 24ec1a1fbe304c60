import { randomInt } from 'node:crypto';
import type { ChannelPairing, ChannelRepository } from '../db/ports.ts';

/** Letters and digits that cannot be misread for one another (no 0/O, 1/I/L). */
const CODE_ALPHABET = 'ABCDEFGHJKMNPQRSTUVWXYZ23456789';
export const PAIRING_CODE_LENGTH = 8;
/** How long a pairing code can be approved; a later message gets a fresh one. */
export const PAIRING_CODE_TTL_MS = 60 * 60_000;

export const pairingCodeSchemaPattern = new RegExp(`^[${CODE_ALPHABET}]{${PAIRING_CODE_LENGTH}}$`);

export function newPairingCode(random: (max: number) => number = randomInt): string {
  let code = '';
  for (let i = 0; i < PAIRING_CODE_LENGTH; i += 1)
    code += CODE_ALPHABET[random(CODE_ALPHABET.length)];
  return code;
}

export interface PairingDeps {
  store: () => ChannelRepository;
  now: () => number;
  newCode?: () => string;
}

/**
 * Who may talk to the agent on a channel. Default deny: a sender is paired when listed in
 * `allow_from` or approved by the owner with its one-time code; everyone else gets a code
 * (direct messages only) and nothing of theirs reaches the model.
 */
export function createPairings(deps: PairingDeps) {
  const newCode = deps.newCode ?? (() => newPairingCode());
  return {
    async isPaired(
      channel: string,
      senderId: string,
      allowFrom: readonly string[],
    ): Promise<boolean> {
      if (allowFrom.includes(senderId)) return true;
      return (await deps.store().pairing(channel, senderId))?.status === 'approved';
    },

    /** The sender's live pending code, or a new one (an expired code is replaced). */
    async codeFor(channel: string, senderId: string): Promise<string> {
      const existing = await deps.store().pairing(channel, senderId);
      const now = deps.now();
      if (
        existing?.status === 'pending' &&
        existing.code !== null &&
        now - existing.created_at < PAIRING_CODE_TTL_MS
      )
        return existing.code;
      const pairing: ChannelPairing = {
        channel,
        sender_id: senderId,
        code: newCode(),
        status: 'pending',
        created_at: now,
        approved_at: null,
      };
      await deps.store().savePairing(pairing);
      return pairing.code ?? '';
    },

    /** Approves a live code; undefined when there is no such pending, unexpired code. */
    async approve(channel: string, code: string): Promise<ChannelPairing | undefined> {
      const pending = await deps.store().pairingByCode(channel, code);
      const now = deps.now();
      if (pending?.status !== 'pending' || now - pending.created_at >= PAIRING_CODE_TTL_MS)
        return undefined;
      const approved: ChannelPairing = {
        ...pending,
        code: null,
        status: 'approved',
        approved_at: now,
      };
      await deps.store().savePairing(approved);
      return approved;
    },

    list: (channel: string) => deps.store().listPairings(channel),
  };
}

export type Pairings = ReturnType<typeof createPairings>;
