import { z } from 'zod';
import { defineRoute, type AnyRoute } from '../http/route.ts';
import type { PushService } from './push-service.ts';
import { subscriptionSchema } from './subscriptions.ts';

const tags = ['push'];
const record = subscriptionSchema.extend({ created_at: z.string() });

/** `/push/*` under `/api/v1`. */
export function pushRoutes(push: () => PushService): AnyRoute[] {
  return [
    defineRoute({
      method: 'get',
      path: '/push/vapid-public-key',
      summary: 'The gateway’s VAPID public key (base64url), for PushManager.subscribe',
      tags,
      response: z.object({ public_key: z.string() }),
      handler: () => ({ public_key: push().publicKey }),
    }),
    defineRoute({
      method: 'post',
      path: '/push/subscribe',
      summary: 'Registers a browser push subscription (https endpoint, P-256 key, auth secret)',
      tags,
      body: subscriptionSchema,
      response: z.object({
        subscribed: z.literal(true),
        created: z.boolean(),
        endpoint: z.string(),
      }),
      handler: ({ body }) => push().subscribe(body),
    }),
    defineRoute({
      method: 'delete',
      path: '/push/subscribe',
      summary: 'Unregisters a subscription by its endpoint',
      tags,
      body: z.strictObject({ endpoint: z.string().min(1).max(2048) }),
      response: z.object({ unsubscribed: z.boolean(), endpoint: z.string() }),
      handler: ({ body }) => push().unsubscribe(body.endpoint),
    }),
    defineRoute({
      method: 'get',
      path: '/push/subscriptions',
      summary: 'Registered subscriptions',
      tags,
      response: z.object({ subscriptions: z.array(record), count: z.number() }),
      handler: () => {
        const subscriptions = push().list();
        return { subscriptions, count: subscriptions.length };
      },
    }),
    defineRoute({
      method: 'post',
      path: '/push/notify',
      summary:
        'Sends a notification to every subscription; sent counts pushes a push service accepted (the spec’s seed never delivered, so its sent was always 0)',
      tags,
      body: z.strictObject({
        title: z.string().trim().min(1, 'must not be empty').max(200),
        body: z.string().max(2_000),
      }),
      response: z.object({
        sent: z.number(),
        matched_subscribers: z.number(),
        failed: z.number(),
        removed: z.number(),
      }),
      handler: ({ body }) => push().notify(body),
    }),
  ];
}
