import { domainToASCII } from 'node:url';
import type { DKIMResult } from 'mailauth';
import { dkimVerify } from 'mailauth/lib/dkim/verify.js';
import type { TxtResolver } from '../ports.ts';

/** What the sender check says of one mail. */
export type SenderVerdict =
  | { ok: true; signingDomain: string }
  | {
      ok: false;
      reason: string;
      /** Only a DNS failure stood in the way: the same mail may pass when read again. */
      temporary: boolean;
    };

/**
 * Whether a mail (its raw source, as received) really comes from the domain of `from`, the
 * address the channel took from its From header as the sender.
 */
export type SenderCheck = (source: Buffer, from: string) => Promise<SenderVerdict>;

/**
 * A mail with more DKIM-Signature fields than this is refused unchecked: each one costs a DNS
 * lookup and a hash of the body. Real mail carries one to three.
 */
export const MAX_DKIM_SIGNATURES = 6;

export interface DkimCheckOptions {
  /** Where the signers' public keys are looked up (`<selector>._domainkey.<domain>` TXT). */
  resolveTxt: TxtResolver;
  /** Epoch milliseconds: a signature whose `x=` has passed is expired. */
  now: () => number;
}

const REASON_LIMIT = 300;

/** The domain of an address (after its last `@`), lower case, as A-labels; '' when none. */
function domainOf(address: string): string {
  const at = address.lastIndexOf('@');
  if (at < 0) return '';
  return domainToASCII(
    address
      .slice(at + 1)
      .trim()
      .toLowerCase(),
  ).replace(/\.$/, '');
}

/** How many DKIM-Signature fields the header section holds (before mailauth reads any). */
function signatureFields(source: Buffer): number {
  const ends = [source.indexOf('\r\n\r\n'), source.indexOf('\n\n')].filter((at) => at >= 0);
  const header = source.subarray(0, ends.length > 0 ? Math.min(...ends) : source.length);
  return (header.toString('latin1').match(/^dkim-signature[ \t]*:/gim) ?? []).length;
}

/** One signature's outcome in a few words, for the refusal's log line. */
function outcome(result: DKIMResult): string {
  const { status } = result;
  const why =
    status.result === 'pass' && status.underSized
      ? `${status.underSized} body bytes unsigned (l=)`
      : status.result === 'pass' && !status.aligned
        ? 'not aligned with the From domain'
        : (status.comment ?? status.policy?.['dkim-rules']);
  return `d=${result.signingDomain ?? '?'} ${status.result}${why ? ` (${why})` : ''}`;
}

const refused = (reason: string, temporary = false): SenderVerdict => ({
  ok: false,
  reason: reason.length > REASON_LIMIT ? `${reason.slice(0, REASON_LIMIT - 1)}…` : reason,
  temporary,
});

/**
 * The sender check of `verify_sender = "dkim"` (mailauth's DKIM verifier): the mail needs a
 * signature that verifies against its signer's key in DNS, covers the whole body (no unsigned
 * rest after an `l=`), and whose signing domain `d=` shares the organizational domain of the
 * From domain (DMARC's relaxed alignment, by the Public Suffix List). Headers that claim a
 * result (`Authentication-Results`, `ARC-*`) are never believed: anyone can write them. The
 * From mailauth reads must be the one the channel read (one From field, one address, the same
 * domain), so two parsers cannot be played against each other. rsa-sha1, RSA keys under 1024
 * bits and expired signatures do not pass.
 */
export function createDkimCheck(options: DkimCheckOptions): SenderCheck {
  // mailauth asks for `(name, 'TXT')`; a DKIM key is never anything else.
  const resolver = (name: string, type: string): Promise<string[][]> =>
    type === 'TXT'
      ? options.resolveTxt(name)
      : Promise.reject(Object.assign(new Error(`no ${type} lookups`), { code: 'ENOTFOUND' }));

  return async (source, from) => {
    const domain = domainOf(from);
    if (domain === '') return refused(`From ${from.slice(0, 200)} has no domain to verify`);
    const fields = signatureFields(source);
    if (fields === 0) return refused(`mail from ${domain} without a DKIM signature`);
    if (fields > MAX_DKIM_SIGNATURES)
      return refused(
        `mail from ${domain} with ${fields} DKIM signatures (at most ${MAX_DKIM_SIGNATURES} are checked)`,
      );
    let verified: Awaited<ReturnType<typeof dkimVerify>>;
    try {
      verified = await dkimVerify(source, {
        resolver,
        rejectRsaSha1: true,
        curTime: new Date(options.now()),
      });
    } catch (error) {
      return refused(`mail from ${domain}: DKIM check failed: ${String(error)}`);
    }
    if (verified.fromFields !== 1)
      return refused(`mail from ${domain} with ${verified.fromFields} From fields`);
    const authors = verified.headerFrom.map(domainOf);
    if (authors.length !== 1 || authors[0] !== domain)
      return refused(`mail whose From reads as ${domain} here and ${authors.join(', ')} to DKIM`);
    const good = verified.results.find(
      (result) =>
        result.status.result === 'pass' && result.status.aligned && !result.status.underSized,
    );
    if (good?.signingDomain) return { ok: true, signingDomain: good.signingDomain };
    return refused(
      `mail from ${domain} without a passing DKIM signature of its domain: ${verified.results.map(outcome).join('; ')}`,
      verified.results.some((result) => result.status.result === 'temperror'),
    );
  };
}
