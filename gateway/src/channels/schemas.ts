import { z } from 'zod';
import { channelNameSchema, REPLY_MODES } from '../config/schema.ts';
import { noControlChars } from '../http/validation.ts';
import { pairingCodeSchemaPattern } from './pairing.ts';

export const nameParams = z.object({ name: channelNameSchema });

const status = z.enum(['connected', 'connecting', 'disconnected', 'disabled', 'standby']);

export const listResponse = z.object({
  channels: z.array(
    z.object({
      name: z.string(),
      type: z.string(),
      status,
      unread: z.number().int(),
      messages_total: z.number().int(),
      last_message_at: z.string().nullable(),
    }),
  ),
});

export const detailResponse = z.object({
  name: z.string(),
  type: z.string(),
  status,
  config: z.object({
    enabled: z.boolean(),
    reply_mode: z.enum(REPLY_MODES),
    rate_limit_per_minute: z.number().int(),
    /** Group messages of other members a turn quotes as context (0: none). */
    group_context: z.number().int(),
  }),
  stats: z.object({
    messages_in_total: z.number().int(),
    messages_out_total: z.number().int(),
    errors_total: z.number().int(),
  }),
  /** Why the channel is not connected, when it failed. */
  last_error: z.string().optional(),
});

export const messagesQuery = z.object({
  limit: z.coerce.number().int().min(1).max(500).default(50),
});

export const messagesResponse = z.object({
  messages: z.array(
    z.object({
      id: z.string(),
      direction: z.enum(['in', 'out']),
      text: z.string(),
      user: z.string().optional(),
      chat_id: z.string(),
      timestamp: z.string(),
    }),
  ),
  total: z.number().int(),
});

export const sendBody = z.object({
  target: z.string().min(1).max(200).check(noControlChars),
  text: z.string().min(1).max(32_000),
});

export const pairingParams = z.object({
  name: channelNameSchema,
  code: z
    .string()
    .transform((code) => code.toUpperCase())
    .pipe(z.string().regex(pairingCodeSchemaPattern, 'is not a pairing code')),
});

export const pairingsResponse = z.object({
  pairings: z.array(
    z.object({
      sender_id: z.string(),
      status: z.enum(['pending', 'approved']),
      code: z.string().optional(),
      created_at: z.string(),
      approved_at: z.string().nullable(),
    }),
  ),
});

/** A webhook name: any string here, so an unknown one is a 404 naming it, not a 422. */
export const webhookParams = z.object({ name: z.string().max(64) });
