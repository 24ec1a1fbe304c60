import type { ApiResponse } from '@hearth/client';
import { useState } from 'preact/hooks';
import { api } from '../api.ts';
import { LoadState, Stats, count, useLoad } from './admin-ui.tsx';
import { BarChart, type Bar } from './usage-chart.tsx';

type History = ApiResponse<'/usage/history'>;
type Metric = 'tokens' | 'cost' | 'requests';

const RANGES = [
  { id: '1h', label: 'Last 24 hours (hourly)', days: 1, bucket: 'hour' },
  { id: '7h', label: 'Last 7 days (hourly)', days: 7, bucket: 'hour' },
  { id: '7d', label: 'Last 7 days (daily)', days: 7, bucket: 'day' },
  { id: '30d', label: 'Last 30 days (daily)', days: 30, bucket: 'day' },
  { id: '90d', label: 'Last 90 days (daily)', days: 90, bucket: 'day' },
] as const;
type RangeId = (typeof RANGES)[number]['id'];

const METRICS: { id: Metric; label: string }[] = [
  { id: 'tokens', label: 'Tokens' },
  { id: 'cost', label: 'Cost (USD)' },
  { id: 'requests', label: 'Generations' },
];

const usd = (value: number): string => `$${value.toFixed(value >= 1 ? 2 : 4)}`;

function valueOf(
  point: { input_tokens: number; output_tokens: number; cost_usd: number; requests: number },
  metric: Metric,
): number {
  if (metric === 'cost') return point.cost_usd;
  if (metric === 'requests') return point.requests;
  return point.input_tokens + point.output_tokens;
}

/** Every bucket of the window, oldest first, with the metric summed over providers and models. */
function barsOf(history: History, metric: Metric): Bar[] {
  const step = history.bucket === 'hour' ? 3600 : 86_400;
  const sums = new Map<number, number>();
  for (const point of history.points) {
    sums.set(point.start, (sums.get(point.start) ?? 0) + valueOf(point, metric));
  }
  const bars: Bar[] = [];
  for (let start = history.from; start < history.to; start += step) {
    bars.push({ start, value: sums.get(start) ?? 0 });
  }
  return bars;
}

/** Per provider and model over the window. */
function byModel(history: History) {
  const models = new Map<
    string,
    {
      provider: string;
      model: string;
      tokens: number;
      cost: number;
      requests: number;
      unpriced: number;
    }
  >();
  for (const point of history.points) {
    const key = `${point.provider}\u0000${point.model}`;
    const row = models.get(key) ?? {
      provider: point.provider,
      model: point.model,
      tokens: 0,
      cost: 0,
      requests: 0,
      unpriced: 0,
    };
    row.tokens += point.input_tokens + point.output_tokens;
    row.cost += point.cost_usd;
    row.requests += point.requests;
    row.unpriced += point.unpriced_requests;
    models.set(key, row);
  }
  return [...models.values()].sort((a, b) => b.tokens - a.tokens);
}

/** Usage and cost over time: totals, a bar chart with its table, and the split per model. */
export function UsageView() {
  const [rangeId, setRangeId] = useState<RangeId>('7d');
  const [metric, setMetric] = useState<Metric>('tokens');
  const range = RANGES.find((r) => r.id === rangeId) ?? RANGES[2];
  const [history] = useLoad(
    () => api('GET', '/usage/history', { query: { days: range.days, bucket: range.bucket } }),
    [range.days, range.bucket],
    30_000,
  );
  const label = (start: number) => {
    const date = new Date(start * 1000);
    return range.bucket === 'hour'
      ? date.toLocaleString(undefined, { month: 'short', day: 'numeric', hour: '2-digit' })
      : date.toLocaleDateString(undefined, { month: 'short', day: 'numeric' });
  };
  const format = metric === 'cost' ? usd : count;
  const metricLabel = METRICS.find((m) => m.id === metric)?.label ?? metric;

  return (
    <section aria-labelledby="usage-title">
      <h2 id="usage-title">Usage</h2>
      <div class="row">
        <label for="usage-range">Period</label>
        <select
          id="usage-range"
          value={rangeId}
          onChange={(e) => setRangeId(e.currentTarget.value as RangeId)}
        >
          {RANGES.map((r) => (
            <option key={r.id} value={r.id}>
              {r.label}
            </option>
          ))}
        </select>
      </div>
      <fieldset class="inline">
        <legend>Chart</legend>
        {METRICS.map((m) => (
          <label key={m.id}>
            <input
              type="radio"
              name="usage-metric"
              value={m.id}
              checked={metric === m.id}
              onChange={() => setMetric(m.id)}
            />{' '}
            {m.label}
          </label>
        ))}
      </fieldset>
      <LoadState
        loaded={history}
        what="usage"
        empty={(data) =>
          data.totals.requests === 0
            ? `No generation in this period. Usage is kept ${data.retention_days} days.`
            : undefined
        }
      >
        {(data) => {
          const bars = barsOf(data, metric);
          const peak = bars.reduce<Bar | undefined>(
            (best, bar) => (best === undefined || bar.value > best.value ? bar : best),
            undefined,
          );
          const summary = `${metricLabel} per ${data.bucket}, ${range.label.toLowerCase()}: ${format(
            bars.reduce((sum, bar) => sum + bar.value, 0),
          )} in all${peak && peak.value > 0 ? `, highest ${format(peak.value)} at ${label(peak.start)}` : ''}.`;
          return (
            <>
              <Stats
                class="totals"
                items={[
                  ['Tokens in', count(data.totals.input_tokens)],
                  ['Tokens out', count(data.totals.output_tokens)],
                  ['Cost', usd(data.totals.cost_usd)],
                  ['Generations', count(data.totals.requests)],
                ]}
              />
              {data.totals.unpriced_requests > 0 ? (
                <p class="muted">
                  {count(data.totals.unpriced_requests)} generation
                  {data.totals.unpriced_requests === 1 ? ' was' : 's were'} on an unpriced model
                  (not in the cost).
                </p>
              ) : null}
              <figure class="usage-figure">
                <BarChart bars={bars} label={label} format={format} summary={summary} />
                <figcaption class="muted">{summary}</figcaption>
              </figure>
              <details>
                <summary>The chart as a table</summary>
                <div class="table-scroll" role="region" aria-label="Chart data" tabIndex={0}>
                  <table>
                    <thead>
                      <tr>
                        <th scope="col">{data.bucket === 'hour' ? 'Hour' : 'Day'}</th>
                        <th scope="col">{metricLabel}</th>
                      </tr>
                    </thead>
                    <tbody>
                      {bars.map((bar) => (
                        <tr key={bar.start}>
                          <th scope="row">{label(bar.start)}</th>
                          <td>{format(bar.value)}</td>
                        </tr>
                      ))}
                    </tbody>
                  </table>
                </div>
              </details>
              <h3 id="usage-models-title">Per model</h3>
              <div
                class="table-scroll"
                role="region"
                aria-labelledby="usage-models-title"
                tabIndex={0}
              >
                <table>
                  <thead>
                    <tr>
                      <th scope="col">Model</th>
                      <th scope="col">Provider</th>
                      <th scope="col">Tokens</th>
                      <th scope="col">Cost</th>
                      <th scope="col">Generations</th>
                    </tr>
                  </thead>
                  <tbody>
                    {byModel(data).map((row) => (
                      <tr key={`${row.provider}/${row.model}`}>
                        <th scope="row" class="wrap">
                          {row.model}
                        </th>
                        <td>{row.provider}</td>
                        <td>{count(row.tokens)}</td>
                        <td>{row.unpriced === row.requests ? 'unpriced' : usd(row.cost)}</td>
                        <td>{count(row.requests)}</td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </div>
            </>
          );
        }}
      </LoadState>
    </section>
  );
}
