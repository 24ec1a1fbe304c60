/**
 * A push service on 127.0.0.1 (https, a self-signed certificate) that speaks the Web Push
 * protocol as browsers' push services do (RFC 8030, 8291, 8292): each request must carry a
 * VAPID JWT (`Authorization: vapid t=…, k=…`) signed ES256 by the key in `k`, for this origin,
 * not expired; its body is decrypted (aes128gcm, with the subscription's private key and auth
 * secret, by the http_ece library) and recorded with its TTL and Urgency.
 */
import { createECDH, createPublicKey, randomBytes, verify, type ECDH } from 'node:crypto';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { decrypt } from 'http_ece';

export interface ReceivedPush {
  subscription: string;
  payload: unknown;
  ttl: string | undefined;
  urgency: string | undefined;
  vapidKey: string;
}

function checkVapid(authorization: string | undefined, origin: string): string {
  const match = /^vapid t=([\w-]+\.[\w-]+\.[\w-]+), k=([\w-]+)$/.exec(authorization ?? '');
  if (!match) throw new Error('no vapid authorization');
  const [jwt, key] = [match[1]!, match[2]!];
  const [head, claims, signature] = jwt.split('.') as [string, string, string];
  const point = Buffer.from(key, 'base64url');
  const publicKey = createPublicKey({
    format: 'jwk',
    key: {
      kty: 'EC',
      crv: 'P-256',
      x: point.subarray(1, 33).toString('base64url'),
      y: point.subarray(33, 65).toString('base64url'),
    },
  });
  const valid = verify(
    'sha256',
    Buffer.from(`${head}.${claims}`),
    { key: publicKey, dsaEncoding: 'ieee-p1363' },
    Buffer.from(signature, 'base64url'),
  );
  if (!valid) throw new Error('bad vapid signature');
  const jose = JSON.parse(Buffer.from(head, 'base64url').toString()) as { alg?: string };
  const body = JSON.parse(Buffer.from(claims, 'base64url').toString()) as {
    aud?: string;
    exp?: number;
    sub?: string;
  };
  const now = Date.now() / 1000;
  if (jose.alg !== 'ES256') throw new Error('vapid alg is not ES256');
  if (body.aud !== origin) throw new Error(`vapid aud ${String(body.aud)} is not ${origin}`);
  if (!body.exp || body.exp < now || body.exp > now + 24 * 3600) throw new Error('vapid exp');
  if (!body.sub) throw new Error('vapid sub missing');
  return key;
}

export async function startFakePushService(certificate: { key: string; cert: string }) {
  const browsers = new Map<string, { ecdh: ECDH; auth: string }>();
  const received: ReceivedPush[] = [];
  const rejected: string[] = [];
  const statusFor = new Map<string, number>();
  /** Hostile subscriptions: an answer that never ends, or one that trickles a byte a second. */
  const hostile = new Map<string, 'endless' | 'trickle'>();
  /** Bytes each hostile answer wrote before the gateway cut it. */
  const cuts: number[] = [];
  let origin = '';
  const server: Server = createServer(certificate, (req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const id = /^\/push\/([\w-]+)$/.exec(req.url ?? '')?.[1] ?? '';
      const browser = browsers.get(id);
      if (req.method !== 'POST' || !browser) {
        res.writeHead(404).end();
        return;
      }
      try {
        const vapidKey = checkVapid(req.headers.authorization, origin);
        if (req.headers['content-encoding'] !== 'aes128gcm') throw new Error('not aes128gcm');
        const plain = decrypt(Buffer.concat(chunks), {
          version: 'aes128gcm',
          privateKey: browser.ecdh,
          authSecret: browser.auth,
        });
        const status = statusFor.get(id) ?? 201;
        const behaviour = hostile.get(id);
        if (behaviour) {
          res.writeHead(status, { 'content-type': 'text/plain' });
          let written = 0;
          res.once('close', () => cuts.push(written));
          if (behaviour === 'trickle') {
            const timer = setInterval(() => {
              if (res.destroyed) return clearInterval(timer);
              res.write('.');
              written += 1;
            }, 1_000);
            return;
          }
          const pad = Buffer.alloc(16 * 1024, 0x61);
          const pump = () => {
            while (!res.destroyed && res.write(pad)) written += pad.length;
            if (!res.destroyed) res.once('drain', pump);
          };
          return pump();
        }
        if (status < 300) {
          received.push({
            subscription: id,
            payload: JSON.parse(plain.toString('utf8')),
            ttl: req.headers.ttl as string | undefined,
            urgency: req.headers.urgency as string | undefined,
            vapidKey,
          });
        }
        res.writeHead(status).end();
      } catch (error) {
        rejected.push((error as Error).message);
        res.writeHead(403).end();
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `https://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    origin,
    received,
    rejected,
    cuts,
    /**
     * A browser's subscription to this service (its keys stay here, to decrypt); `behaviour`
     * makes its answers hostile: `endless` (a body without end) or `trickle` (a byte a second).
     */
    subscribe(answer = 201, behaviour?: 'endless' | 'trickle') {
      const id = randomBytes(8).toString('hex');
      const ecdh = createECDH('prime256v1');
      ecdh.generateKeys();
      const auth = randomBytes(16).toString('base64url');
      browsers.set(id, { ecdh, auth });
      statusFor.set(id, answer);
      if (behaviour) hostile.set(id, behaviour);
      return {
        id,
        endpoint: `${origin}/push/${id}`,
        keys: { p256dh: ecdh.getPublicKey('base64url'), auth },
      };
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
