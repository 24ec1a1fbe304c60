/**
 * Test support: DKIM as a mail provider runs it, with keys made in the test. `createTestDkim()`
 * publishes each signer's public key as a TXT record and serves its records through
 * `resolveTxt` (no network: a name it does not hold is ENOTFOUND, as a real resolver says); a
 * signer signs mail with mailauth's signer, as the domain's outgoing server would.
 */
import { generateKeyPairSync } from 'node:crypto';
import type { DKIMSignOptions } from 'mailauth';
import { dkimSign } from 'mailauth/lib/dkim/sign.js';
import nodemailer, { type SendMailOptions } from 'nodemailer';
import type { TxtResolver } from '../ports.ts';

export type DkimKeyType = 'rsa' | 'ed25519';

/** A mail ready for `MailServers.send`: its envelope and its source as sent. */
export interface RawMail {
  envelope: { from: string; to: string[] };
  raw: Buffer;
}

export interface DkimSigner {
  readonly domain: string;
  readonly selector: string;
  /** Where its key is published: `<selector>._domainkey.<domain>`. */
  readonly keyName: string;
  /** The source with this signer's DKIM-Signature field on top (mailauth's options may be given). */
  sign(raw: Buffer, options?: Partial<DKIMSignOptions>): Promise<Buffer>;
  /** A mail composed from nodemailer's fields, then signed. */
  compose(mail: SendMailOptions, options?: Partial<DKIMSignOptions>): Promise<RawMail>;
}

export interface TestDkim {
  resolveTxt: TxtResolver;
  /** Every name looked up so far, in order. */
  readonly lookups: string[];
  /** A new key for `domain`, published unless `publish` is false. */
  signer(
    domain: string,
    options?: { selector?: string; type?: DkimKeyType; modulusLength?: number; publish?: boolean },
  ): DkimSigner;
  /** Publishes a TXT record as written (replacing what was there); `undefined` removes it. */
  publish(name: string, record: string | undefined): void;
  /** The next `count` lookups fail with `code`, as when the DNS server does not answer. */
  failNext(count: number, code?: string): void;
}

/** A private key (PEM) and the `v=DKIM1` record that publishes its public half. */
function dkimKey(type: DkimKeyType, modulusLength: number) {
  if (type === 'ed25519') {
    const { publicKey, privateKey } = generateKeyPairSync('ed25519');
    // RFC 8463: the record carries the bare 32-byte key, the end of its SubjectPublicKeyInfo.
    const raw = publicKey.export({ format: 'der', type: 'spki' }).subarray(-32);
    return {
      privateKey: privateKey.export({ format: 'pem', type: 'pkcs8' }).toString(),
      record: `v=DKIM1; k=ed25519; p=${raw.toString('base64')}`,
    };
  }
  const { publicKey, privateKey } = generateKeyPairSync('rsa', { modulusLength });
  const spki = publicKey.export({ format: 'der', type: 'spki' });
  return {
    privateKey: privateKey.export({ format: 'pem', type: 'pkcs8' }).toString(),
    record: `v=DKIM1; k=rsa; p=${spki.toString('base64')}`,
  };
}

/** Composes a mail as nodemailer sends it (CRLF line ends), without sending it. */
export async function composeMail(mail: SendMailOptions): Promise<RawMail> {
  const composer = nodemailer.createTransport({
    streamTransport: true,
    buffer: true,
    newline: 'windows',
  });
  const info = await composer.sendMail(mail);
  if (!Buffer.isBuffer(info.message)) throw new Error('nodemailer returned no buffer');
  return {
    envelope: { from: info.envelope.from || '', to: info.envelope.to },
    raw: info.message,
  };
}

export function createTestDkim(): TestDkim {
  const records = new Map<string, string>();
  const lookups: string[] = [];
  let failures: { count: number; code: string } = { count: 0, code: 'ETIMEOUT' };
  const dnsError = (code: string, name: string) =>
    Object.assign(new Error(`queryTxt ${code} ${name}`), { code, hostname: name });

  return {
    lookups,
    resolveTxt(name) {
      lookups.push(name);
      if (failures.count > 0) {
        failures = { ...failures, count: failures.count - 1 };
        return Promise.reject(dnsError(failures.code, name));
      }
      const record = records.get(name.toLowerCase());
      if (record === undefined) return Promise.reject(dnsError('ENOTFOUND', name));
      // Long records come as several strings of at most 255 characters, as DNS stores them.
      return Promise.resolve([record.match(/.{1,255}/gs) ?? ['']]);
    },
    publish(name, record) {
      if (record === undefined) records.delete(name.toLowerCase());
      else records.set(name.toLowerCase(), record);
    },
    failNext(count, code = 'ETIMEOUT') {
      failures = { count, code };
    },
    signer(domain, options = {}) {
      const selector = options.selector ?? 'test';
      const keyName = `${selector}._domainkey.${domain}`;
      const key = dkimKey(options.type ?? 'rsa', options.modulusLength ?? 2048);
      if (options.publish !== false) records.set(keyName.toLowerCase(), key.record);
      const sign = async (raw: Buffer, overrides: Partial<DKIMSignOptions> = {}) => {
        const signature = { signingDomain: domain, selector, privateKey: key.privateKey };
        // mailauth signs what `signatureData` lists; per-signature options go there too.
        const signed = await dkimSign(raw, {
          ...signature,
          ...overrides,
          signatureData: [{ ...signature, ...overrides }],
        });
        const [failed] = signed.errors;
        if (failed || signed.signatures === '')
          throw new Error(`DKIM signing failed: ${String(failed?.err ?? 'no signature')}`);
        return Buffer.concat([Buffer.from(signed.signatures), raw]);
      };
      return {
        domain,
        selector,
        keyName,
        sign,
        async compose(mail, overrides) {
          const composed = await composeMail(mail);
          return { ...composed, raw: await sign(composed.raw, overrides) };
        },
      };
    },
  };
}
