import { z } from 'zod';
import { defineRoute, type AnyRoute } from '../http/route.ts';
import { chartContent, renderBody } from './blocks.ts';
import { HTML_SCRIPTS } from './frame-page.ts';
import { CANVAS_BLOCK_TYPES } from './ports.ts';
import type { CanvasService } from './service.ts';

const block = z.object({
  id: z.string(),
  type: z.enum(CANVAS_BLOCK_TYPES),
  content: z.union([z.string(), chartContent]),
  language: z.string().optional(),
  created_at: z.string(),
});

/** `/canvas/*` under `/api/v1`; before the store is open, state and status say unavailable. */
export function canvasRoutes(canvas: CanvasService, started: () => boolean): AnyRoute[] {
  const tags = ['canvas'];
  return [
    defineRoute({
      method: 'get',
      path: '/canvas/state',
      summary: 'Every block on the canvas, oldest first',
      tags,
      response: z.object({ available: z.boolean(), blocks: z.array(block), count: z.number() }),
      handler: async () =>
        started()
          ? { available: true, ...(await canvas.state()) }
          : { available: false, blocks: [], count: 0 },
    }),
    defineRoute({
      method: 'post',
      path: '/canvas/render',
      summary:
        'Adds a block (markdown, html, chart, image as a data: URL, code); 413 past the block or canvas caps',
      tags,
      body: renderBody,
      response: block,
      status: 201,
      handler: ({ body }) => canvas.render(body),
    }),
    defineRoute({
      method: 'delete',
      path: '/canvas/clear',
      summary: 'Removes every block',
      tags,
      response: z.void(),
      status: 204,
      handler: () => canvas.clear(),
    }),
    defineRoute({
      method: 'get',
      path: '/canvas/status',
      summary:
        'Block count, size, connected viewers (of this gateway), the store in use, and whether html blocks run scripts',
      tags,
      response: z.object({
        available: z.boolean(),
        count: z.number(),
        bytes: z.number(),
        viewers: z.number(),
        backend: z.string(),
        html_scripts: z
          .string()
          .describe('Always "off: <why>": html blocks render without scripts'),
      }),
      handler: async () =>
        started()
          ? { available: true, ...(await canvas.status()), html_scripts: HTML_SCRIPTS }
          : {
              available: false,
              count: 0,
              bytes: 0,
              viewers: 0,
              backend: 'starting',
              html_scripts: HTML_SCRIPTS,
            },
    }),
  ];
}
