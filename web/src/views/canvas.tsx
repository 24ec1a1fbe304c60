import type { ApiResponse } from '@hearth/client';
import { useEffect, useState } from 'preact/hooks';
import { openSocket } from '../api.ts';
import { renderMarkdown } from '../markdown.ts';

/** A block as GET /canvas/state lists it, and as the canvas socket pushes it. */
type Block = ApiResponse<'/canvas/state'>['blocks'][number];
type Chart = Exclude<Block['content'], string>;

function BarChart(props: { chart: Chart }) {
  const { labels, values } = props.chart;
  const max = Math.max(...values.map(Math.abs), 1);
  const row = 28;
  return (
    <svg
      class="chart"
      viewBox={`0 0 400 ${labels.length * row}`}
      role="img"
      aria-label={`Chart: ${labels.map((l, i) => `${l} ${values[i]}`).join(', ')}`}
    >
      {labels.map((label, i) => {
        const value = values[i] ?? 0;
        return (
          <g key={`${label}-${i}`} transform={`translate(0 ${i * row})`}>
            <text x="0" y="18" class="chart-label">
              {label}
            </text>
            <rect x="120" y="5" height="18" width={(Math.abs(value) / max) * 220} class="bar" />
            <text x={125 + (Math.abs(value) / max) * 220} y="18" class="chart-value">
              {value}
            </text>
          </g>
        );
      })}
    </svg>
  );
}

function BlockView(props: { block: Block }) {
  const { block } = props;
  const text = typeof block.content === 'string' ? block.content : '';
  switch (block.type) {
    case 'markdown':
      return <div class="markdown" dangerouslySetInnerHTML={{ __html: renderMarkdown(text) }} />;
    case 'html':
      // No flag at all: the block has an opaque origin and runs no script (a script could reach
      // any host through WebRTC, which no CSP governs), under the frame page's CSP.
      return (
        <iframe
          class="html-block"
          title="HTML block"
          sandbox=""
          src={`/canvas/frame/${block.id}`}
          referrerpolicy="no-referrer"
        />
      );
    case 'chart':
      return typeof block.content === 'string' ? null : <BarChart chart={block.content} />;
    case 'image':
      return text.startsWith('data:image/') ? <img src={text} alt="Canvas image" /> : null;
    case 'code':
      return (
        <pre>
          <code data-language={block.language}>{text}</code>
        </pre>
      );
    default:
      return null;
  }
}

/** The canvas, live over `/ws/canvas`: the full state first, then adds and clears. */
export function CanvasView() {
  const [blocks, setBlocks] = useState<Block[]>([]);
  const [state, setState] = useState('connecting');
  useEffect(() => {
    const ws = openSocket('/ws/canvas');
    ws.onopen = () => setState('live');
    ws.onclose = () => setState('disconnected');
    ws.onmessage = (event: MessageEvent<string>) => {
      const frame = JSON.parse(event.data) as { type: string; blocks?: Block[]; block?: Block };
      if (frame.type === 'state') setBlocks(frame.blocks ?? []);
      else if (frame.type === 'add' && frame.block) {
        const added = frame.block;
        setBlocks((list) => [...list, added]);
      } else if (frame.type === 'clear') setBlocks([]);
    };
    return () => ws.close();
  }, []);
  return (
    <section aria-labelledby="canvas-title">
      <h2 id="canvas-title">Canvas</h2>
      <p role="status" class="muted">
        {state} · {blocks.length} block{blocks.length === 1 ? '' : 's'}
      </p>
      <ul class="cards">
        {blocks.map((block) => (
          <li key={block.id} class={`card block block-${block.type}`} data-block-id={block.id}>
            <BlockView block={block} />
          </li>
        ))}
      </ul>
    </section>
  );
}
