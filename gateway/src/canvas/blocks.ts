import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import { HearthError } from '../errors.ts';
import {
  CANVAS_BLOCK_TYPES,
  type CanvasBlock,
  type CanvasLimits,
  type ChartContent,
} from './ports.ts';

export const chartContent = z
  .object({
    type: z.string().min(1).max(32).default('bar'),
    labels: z.array(z.string().max(200)).min(1).max(1_000),
    values: z.array(z.number().finite()).min(1).max(1_000),
  })
  .refine((chart) => chart.labels.length === chart.values.length, {
    message: 'labels and values must have the same length',
  });

export const renderBody = z
  .object({
    type: z.enum(CANVAS_BLOCK_TYPES),
    content: z.union([z.string(), chartContent]),
    language: z
      .string()
      .regex(/^[\w+#.-]{1,32}$/, 'a language name such as ts or python')
      .optional(),
  })
  .strict();

export type RenderBody = z.output<typeof renderBody>;

/** Raster images only: an SVG can carry script and external references. */
const IMAGE_DATA_URL = /^data:image\/(png|jpeg|gif|webp|avif);base64,([A-Za-z0-9+/]+={0,2})$/;

function contentText(body: RenderBody): string {
  if (typeof body.content !== 'string') {
    throw new HearthError('validation', `content: a ${body.type} block needs text content`);
  }
  return body.content;
}

function chartOf(content: RenderBody['content']): ChartContent {
  if (typeof content !== 'string') return content;
  let parsed: unknown;
  try {
    parsed = JSON.parse(content);
  } catch {
    throw new HearthError('validation', 'content: a chart block needs {type, labels, values}');
  }
  const result = chartContent.safeParse(parsed);
  if (!result.success) {
    const issue = result.error.issues[0];
    throw new HearthError(
      'validation',
      `content: ${issue ? `${issue.path.join('.') || 'chart'}: ${issue.message}` : 'invalid chart'}`,
    );
  }
  return result.data;
}

/** Byte size of a block as stored (its JSON). */
export function blockBytes(block: CanvasBlock): number {
  return Buffer.byteLength(JSON.stringify(block));
}

/**
 * A validated block from a render request: image content must be a base64 raster data: URL
 * (never a remote URL, never SVG), chart content the `/chat/canvas` shape, the others text.
 * Too large a block is 413; malformed content 422.
 */
export function makeBlock(
  body: RenderBody,
  limits: CanvasLimits,
  now: () => number,
  newId: () => string = randomUUID,
): CanvasBlock {
  let block: CanvasBlock;
  switch (body.type) {
    case 'chart':
      block = { id: newId(), type: 'chart', content: chartOf(body.content), created_at: '' };
      break;
    case 'image': {
      const text = contentText(body);
      if (!IMAGE_DATA_URL.test(text)) {
        throw new HearthError(
          'validation',
          'content: an image block takes a data:image/(png|jpeg|gif|webp|avif);base64 URL only',
        );
      }
      block = { id: newId(), type: 'image', content: text, created_at: '' };
      break;
    }
    case 'code':
      block = {
        id: newId(),
        type: 'code',
        content: contentText(body),
        ...(body.language ? { language: body.language } : {}),
        created_at: '',
      };
      break;
    default:
      block = { id: newId(), type: body.type, content: contentText(body), created_at: '' };
  }
  if (body.language && body.type !== 'code') {
    throw new HearthError('validation', 'language: only code blocks take a language');
  }
  if (typeof block.content === 'string' && block.content.trim() === '') {
    throw new HearthError('validation', 'content: must not be empty');
  }
  block.created_at = new Date(now()).toISOString();
  const size = blockBytes(block);
  if (size > limits.maxBlockBytes) {
    throw new HearthError(
      'payload_too_large',
      `The block is ${size} bytes; a canvas block may be at most ${limits.maxBlockBytes}`,
    );
  }
  return block;
}

/** The 413 for a canvas that cannot take another block. */
export function canvasFull(limits: CanvasLimits, reason: 'blocks' | 'bytes'): HearthError {
  return new HearthError(
    'payload_too_large',
    reason === 'blocks'
      ? `The canvas holds at most ${limits.maxBlocks} blocks; clear it first (DELETE /canvas/clear)`
      : `The canvas holds at most ${limits.maxCanvasBytes} bytes; clear it first (DELETE /canvas/clear)`,
  );
}
