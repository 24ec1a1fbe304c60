import { useEffect, useRef, useState } from 'preact/hooks';

/** One bar: a bucket's start (epoch seconds) and its value. */
export interface Bar {
  start: number;
  value: number;
}

/** The drawing's width until the page says how wide it is (then one unit is one pixel). */
const DEFAULT_WIDTH = 600;
const HEIGHT = 220;
const LEFT = 56;
const BOTTOM = 28;
const TOP = 10;

/**
 * A small bar chart drawn as SVG by hand: one bar per bucket, a scale line with the highest
 * value, the first, middle and last bucket named below. It is an image with a summary for
 * screen readers; the caller gives the same figures as a table.
 */
export function BarChart(props: {
  bars: Bar[];
  label: (start: number) => string;
  format: (value: number) => string;
  summary: string;
}) {
  const { bars } = props;
  const svg = useRef<SVGSVGElement>(null);
  const [width, setWidth] = useState(DEFAULT_WIDTH);
  // Drawn at the width it is shown at, so its labels keep their size on a phone.
  useEffect(() => {
    const element = svg.current;
    if (!element) return undefined;
    const observer = new ResizeObserver(([entry]) => {
      const shown = Math.round(entry?.contentRect.width ?? 0);
      if (shown > 0) setWidth(Math.max(240, Math.min(shown, 1200)));
    });
    observer.observe(element);
    return () => observer.disconnect();
  }, []);
  const max = Math.max(0, ...bars.map((bar) => bar.value));
  const plotWidth = width - LEFT - 4;
  const plotHeight = HEIGHT - TOP - BOTTOM;
  const step = bars.length === 0 ? plotWidth : plotWidth / bars.length;
  const gap = step > 6 ? step * 0.2 : 0;
  const ticks = bars.length === 0 ? [] : [0, Math.floor((bars.length - 1) / 2), bars.length - 1];
  return (
    <svg
      ref={svg}
      class="usage-chart"
      viewBox={`0 0 ${width} ${HEIGHT}`}
      role="img"
      aria-label={props.summary}
      focusable="false"
    >
      <line class="axis" x1={LEFT} x2={width - 4} y1={TOP} y2={TOP} stroke-dasharray="4 4" />
      <line class="axis" x1={LEFT} x2={width - 4} y1={TOP + plotHeight} y2={TOP + plotHeight} />
      <text x={LEFT - 6} y={TOP + 4} text-anchor="end">
        {props.format(max)}
      </text>
      <text x={LEFT - 6} y={TOP + plotHeight} text-anchor="end">
        0
      </text>
      {bars.map((bar, index) => {
        const height = max === 0 ? 0 : (bar.value / max) * plotHeight;
        return (
          <rect
            key={bar.start}
            class="bar"
            x={LEFT + index * step + gap / 2}
            y={TOP + plotHeight - height}
            width={Math.max(step - gap, 0.5)}
            height={height}
          >
            <title>
              {props.label(bar.start)}: {props.format(bar.value)}
            </title>
          </rect>
        );
      })}
      {[...new Set(ticks)].map((index) => {
        const bar = bars[index];
        if (!bar) return null;
        const x = LEFT + index * step + step / 2;
        const anchor = index === 0 ? 'start' : index === bars.length - 1 ? 'end' : 'middle';
        return (
          <text
            key={index}
            x={anchor === 'start' ? LEFT : anchor === 'end' ? width - 4 : x}
            y={HEIGHT - 8}
            text-anchor={anchor}
          >
            {props.label(bar.start)}
          </text>
        );
      })}
    </svg>
  );
}
