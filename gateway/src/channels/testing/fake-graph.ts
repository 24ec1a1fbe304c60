import { createHmac } from 'node:crypto';
import { createServer, type IncomingMessage } from 'node:http';
import { listenRestartable } from './restartable-server.ts';

/**
 * A fake of the WhatsApp Cloud API's Graph endpoints on 127.0.0.1: `GET /{phone_number_id}`
 * and `POST /{phone_number_id}/messages` with a Bearer token, Graph-style error bodies
 * (`{error: {message, type, code}}`), and the real success shape (`messaging_product`,
 * `contacts`, `messages[{id: "wamid…"}]`). It also builds signed webhook notifications as
 * Meta sends them (`X-Hub-Signature-256` over the raw body with the app secret).
 */
export async function startFakeGraph(options: {
  token: string;
  phoneNumberId: string;
  appSecret: string;
}) {
  const sent: { to: string; text: string }[] = [];
  /** The `text.preview_url` of each message sent, as sent (undefined when absent). */
  const previewUrls: unknown[] = [];
  let nextId = 1;
  /** Hostile: the next send is answered 200 with a body that never ends. */
  let endlessNext = false;
  /** Bytes each endless answer wrote before the client cut it. */
  const cuts: number[] = [];
  const read = async (req: IncomingMessage) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    return Buffer.concat(chunks).toString('utf8');
  };
  const server = createServer((req, res) => {
    void read(req).then((text) => {
      const json = (status: number, body: unknown) =>
        res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
      const path = req.url?.split('?')[0] ?? '';
      if (req.headers.authorization !== `Bearer ${options.token}`)
        return json(401, {
          error: { message: 'Invalid OAuth access token.', type: 'OAuthException', code: 190 },
        });
      if (req.method === 'GET' && path === `/v21.0/${options.phoneNumberId}`)
        return json(200, { id: options.phoneNumberId });
      if (
        req.method === 'POST' &&
        path === `/v21.0/${options.phoneNumberId}/messages` &&
        endlessNext
      ) {
        endlessNext = false;
        res.writeHead(200, { 'content-type': 'application/json' }).write('{"messages":"');
        const pad = Buffer.alloc(16 * 1024, 0x61);
        let written = 0;
        const pump = () => {
          while (!res.destroyed && res.write(pad)) written += pad.length;
          if (!res.destroyed) res.once('drain', pump);
        };
        res.once('close', () => cuts.push(written));
        return pump();
      }
      if (req.method === 'POST' && path === `/v21.0/${options.phoneNumberId}/messages`) {
        const body = JSON.parse(text) as {
          messaging_product?: string;
          to?: string;
          type?: string;
          text?: { body?: string; preview_url?: unknown };
        };
        if (body.messaging_product !== 'whatsapp' || body.type !== 'text' || !body.to)
          return json(400, {
            error: { message: 'Invalid parameter', type: 'OAuthException', code: 100 },
          });
        const message = body.text?.body ?? '';
        if (message.length > 4096)
          return json(400, {
            error: { message: 'Message too long', type: 'OAuthException', code: 100 },
          });
        sent.push({ to: body.to, text: message });
        previewUrls.push(body.text?.preview_url);
        return json(200, {
          messaging_product: 'whatsapp',
          contacts: [{ input: body.to, wa_id: body.to }],
          messages: [{ id: `wamid.${nextId++}` }],
        });
      }
      return json(404, {
        error: { message: 'Unknown path', type: 'GraphMethodException', code: 100 },
      });
    });
  });
  const { port, close } = await listenRestartable(server);
  let message = 1;
  return {
    url: `http://127.0.0.1:${port}/v21.0`,
    sent,
    previewUrls,
    cuts,
    /** Hostile: the next send is answered 200 with a body that never ends. */
    endlessNextSend(): void {
      endlessNext = true;
    },
    /**
     * A Cloud API notification carrying one text message (sent at `sentAtMs`, now by default),
     * and its signature headers.
     */
    notification(
      from: string,
      text: string,
      phoneNumberId = options.phoneNumberId,
      sentAtMs = Date.now(),
    ) {
      const body = JSON.stringify({
        object: 'whatsapp_business_account',
        entry: [
          {
            id: '102290129340398',
            changes: [
              {
                field: 'messages',
                value: {
                  messaging_product: 'whatsapp',
                  metadata: { display_phone_number: '15550783881', phone_number_id: phoneNumberId },
                  contacts: [{ profile: { name: 'Kerry' }, wa_id: from }],
                  messages: [
                    {
                      from,
                      id: `wamid.in.${message++}`,
                      timestamp: String(Math.floor(sentAtMs / 1000)),
                      type: 'text',
                      text: { body: text },
                    },
                  ],
                },
              },
            ],
          },
        ],
      });
      return { body, headers: this.sign(body) };
    },
    sign: (body: string, secret = options.appSecret) => ({
      'content-type': 'application/json',
      'x-hub-signature-256': `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`,
    }),
    close,
  };
}

export type FakeGraph = Awaited<ReturnType<typeof startFakeGraph>>;
