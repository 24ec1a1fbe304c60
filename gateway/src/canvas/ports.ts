/** One rendered block on the canvas, as stored, listed and broadcast. */
export interface CanvasBlock {
  /** Random UUID; also the capability that opens an html block's sandbox page. */
  id: string;
  type: CanvasBlockType;
  /** Text for markdown, html and code; a data: URL for image; chart data for chart. */
  content: string | ChartContent;
  /** The language of a code block, when given. */
  language?: string;
  /** ISO 8601 UTC. */
  created_at: string;
}

export const CANVAS_BLOCK_TYPES = ['markdown', 'html', 'chart', 'image', 'code'] as const;
export type CanvasBlockType = (typeof CANVAS_BLOCK_TYPES)[number];

/** The `/chat/canvas` data: a chart kind, its labels and values. */
export interface ChartContent {
  type: string;
  labels: string[];
  values: number[];
}

/** What `/ws/canvas` viewers are sent after the full state: one block added, or all cleared. */
export type CanvasEvent = { type: 'add'; block: CanvasBlock } | { type: 'clear' };

export interface CanvasLimits {
  /** Largest block (its JSON), in bytes: 413 above it. */
  maxBlockBytes: number;
  /** Largest canvas (all blocks' JSON), in bytes: 413 when a block would pass it. */
  maxCanvasBytes: number;
  /** Most blocks on the canvas: 413 when one more would pass it. */
  maxBlocks: number;
}

/**
 * Where the canvas lives: in this process, or in Redis shared by the gateways of one
 * `[memory] cache_url`. Every adapter passes `runCanvasStoreConformance`.
 */
export interface CanvasStore {
  /** `in-process`, `redis`, or `in-process (redis unreachable)`. */
  readonly kind: string;
  /** Every block, oldest first. */
  blocks(): Promise<CanvasBlock[]>;
  /** Total size of the blocks' JSON, in bytes. */
  bytes(): Promise<number>;
  /**
   * Appends a block unless the canvas caps forbid it (then throws a 413 HearthError), and tells
   * every subscriber (on every gateway sharing the store).
   */
  add(block: CanvasBlock): Promise<void>;
  /** Removes every block and tells every subscriber. */
  clear(): Promise<void>;
  /** `listener` hears every add and clear from now on; returns the unsubscribe. */
  subscribe(listener: (event: CanvasEvent) => void): () => void;
  close(): Promise<void>;
}
