import { z } from 'zod';
import { channelSchema, type ChannelType } from '../config/schema.ts';
import { defineRoute, type AnyRoute } from '../http/route.ts';
import type { ChannelService } from './channel-service.ts';
import {
  detailResponse,
  listResponse,
  messagesQuery,
  messagesResponse,
  nameParams,
  pairingParams,
  pairingsResponse,
  sendBody,
  webhookParams,
} from './schemas.ts';

/** Largest signed webhook body accepted (Cloud API and generic senders stay far below). */
export const WEBHOOK_BODY_LIMIT_BYTES = 256 * 1024;

/**
 * Form B's ping result of `GET /channels`: whether every enabled channel's connection is up, as
 * its adapter reports it (a live connection's health, no extra network call per request).
 */
const pingResult = z.object({
  /** Every enabled channel is connected (or on standby while a peer gateway holds it). */
  ok: z.boolean(),
  enabled: z.number().int(),
  connected: z.number().int(),
  /** The enabled channels that are not up, with the last error when there was one. */
  failing: z.array(
    z.object({ name: z.string(), status: z.string(), detail: z.string().optional() }),
  ),
});

/** Form A's list plus form B's ping result (the union of both forms). */
const listWithPing = listResponse.extend({ ping: pingResult });

/** Form A's detail plus form B's config schema: JSON Schema of the type's config table. */
const detailWithSchema = detailResponse.extend({
  config_schema: z.record(z.string(), z.unknown()),
});

/** JSON Schema of each channel type's `[channels.<name>]` table, built once. */
const configSchemas = new Map<ChannelType, Record<string, unknown>>();
function configSchemaOf(type: ChannelType): Record<string, unknown> {
  let schema = configSchemas.get(type);
  if (!schema) {
    const option = channelSchema.options.find((candidate) => candidate.shape.type.value === type);
    if (!option) throw new Error(`no config schema for channel type ${type}`);
    schema = z.toJSONSchema(option, {
      io: 'input',
      unrepresentable: 'any',
      target: 'draft-2020-12',
    });
    configSchemas.set(type, schema);
  }
  return schema;
}

/** Connected, or on standby while a peer gateway holds the connection. */
const UP = new Set(['connected', 'standby']);

/** The channel routes, relative to `/api/v1`; thin over the channel service. */
export function channelRoutes(channels: () => ChannelService): AnyRoute[] {
  const tags = ['channels'];
  return [
    defineRoute({
      method: 'get',
      path: '/channels',
      summary:
        'Configured channels with their status and unread counts, and a ping result: whether every enabled channel is up',
      tags,
      response: listWithPing,
      handler: async () => {
        const service = channels();
        const list = await service.list();
        const enabled = list.filter((channel) => channel.status !== 'disabled');
        const failing = await Promise.all(
          enabled
            .filter((channel) => !UP.has(channel.status))
            .map(async ({ name, status }) => {
              const { last_error: detail } = await service.detail(name);
              return { name, status, ...(detail === undefined ? {} : { detail }) };
            }),
        );
        return {
          channels: list,
          ping: {
            ok: failing.length === 0,
            enabled: enabled.length,
            connected: enabled.length - failing.length,
            failing,
          },
        };
      },
    }),
    defineRoute({
      method: 'get',
      path: '/channels/{name}',
      summary:
        "One channel: status, config and stats, and the JSON Schema of its type's config table",
      tags,
      params: nameParams,
      response: detailWithSchema,
      handler: async ({ params }) => {
        const detail = await channels().detail(params.name);
        return { ...detail, config_schema: configSchemaOf(detail.type) };
      },
    }),
    defineRoute({
      method: 'post',
      path: '/channels/{name}/enable',
      summary: 'Connect a configured channel',
      tags,
      params: nameParams,
      response: z.object({ enabled: z.literal(true) }),
      handler: async ({ params }) => {
        await channels().enable(params.name);
        return { enabled: true as const };
      },
    }),
    defineRoute({
      method: 'post',
      path: '/channels/{name}/disable',
      summary: 'Disconnect a channel gracefully (turns already running still reply)',
      tags,
      params: nameParams,
      response: z.object({ disabled: z.literal(true) }),
      handler: async ({ params }) => {
        await channels().disable(params.name);
        return { disabled: true as const };
      },
    }),
    defineRoute({
      method: 'post',
      path: '/channels/{name}/reconnect',
      summary: 'Drop and re-establish a channel connection',
      tags,
      params: nameParams,
      response: z.object({ reconnecting: z.literal(true) }),
      handler: async ({ params }) => {
        await channels().reconnect(params.name);
        return { reconnecting: true as const };
      },
    }),
    defineRoute({
      method: 'get',
      path: '/channels/{name}/messages',
      summary: 'Messages in and out, newest first',
      tags,
      params: nameParams,
      query: messagesQuery,
      response: messagesResponse,
      handler: ({ params, query }) => channels().messages(params.name, query.limit),
    }),
    defineRoute({
      method: 'patch',
      path: '/channels/{name}/mark-read',
      summary: 'Mark every message of the channel read',
      tags,
      params: nameParams,
      response: z.object({ marked_read: z.number().int() }),
      handler: async ({ params }) => ({ marked_read: await channels().markRead(params.name) }),
    }),
    defineRoute({
      method: 'post',
      path: '/channels/{name}/send',
      summary: 'Send a text to a chat through the channel (split per the network limit)',
      tags,
      params: nameParams,
      body: sendBody,
      response: z.object({ sent: z.literal(true), parts: z.number().int() }),
      handler: async ({ params, body }) => ({
        sent: true as const,
        parts: await channels().send(params.name, body.target, body.text),
      }),
    }),
    defineRoute({
      method: 'get',
      path: '/channels/{name}/pairings',
      summary: 'Senders paired with the channel, and pending pairing codes',
      tags,
      params: nameParams,
      response: pairingsResponse,
      handler: async ({ params }) => ({ pairings: await channels().pairings(params.name) }),
    }),
    defineRoute({
      method: 'post',
      path: '/channels/{name}/pairings/{code}/approve',
      summary: 'Approve a sender by the one-time pairing code it was given',
      tags,
      params: pairingParams,
      response: z.object({ approved: z.literal(true), sender_id: z.string() }),
      handler: async ({ params }) => ({
        approved: true as const,
        sender_id: (await channels().approvePairing(params.name, params.code)).sender_id,
      }),
    }),
    defineRoute({
      method: 'post',
      path: '/channels/webhook/{name}',
      summary:
        'Inbound webhook of a channel (generic HMAC-signed, or WhatsApp Cloud API); verified before parsing, no X-API-Key',
      tags,
      params: webhookParams,
      webhook: { limitBytes: WEBHOOK_BODY_LIMIT_BYTES },
      response: z.record(z.string(), z.unknown()),
      handler: async ({ params, headers, rawBody, query }) => {
        const answer = await channels().webhook(params.name, {
          method: 'POST',
          headers,
          query,
          rawBody: rawBody ?? Buffer.alloc(0),
        });
        return 'json' in answer ? answer.json : { ok: true };
      },
    }),
    defineRoute({
      method: 'get',
      path: '/channels/webhook/{name}',
      summary: 'Webhook verification handshake (WhatsApp hub.challenge); no X-API-Key',
      tags,
      params: webhookParams,
      query: z.record(z.string(), z.unknown()),
      webhook: { limitBytes: 1024 },
      contentType: 'text/plain',
      response: z.string(),
      handler: async ({ params, headers, query }) => {
        const answer = await channels().webhook(params.name, {
          method: 'GET',
          headers,
          query,
          rawBody: Buffer.alloc(0),
        });
        return 'text' in answer ? answer.text : JSON.stringify(answer.json);
      },
    }),
  ];
}
