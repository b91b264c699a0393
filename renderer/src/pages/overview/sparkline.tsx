import { formatCost } from '../../lib/format.js';
import type { SparkPoint } from './spend-days.js';


/**
 * A 30-day cost line drawn in SVG (no chart library for a card). Its twin table is kept in the
 * page for screen readers and tests, as every chart's is.
 */
export function Sparkline(props: { points: SparkPoint[]; label: string }) {
  const w = 300;
  const h = 44;
  const max = Math.max(...props.points.map((p) => p.cost), 0);
  const step = props.points.length > 1 ? w / (props.points.length - 1) : w;
  const y = (c: number) => (max > 0 ? h - 3 - (c / max) * (h - 6) : h - 3);
  const line = props.points.map((p, i) => `${(i * step).toFixed(1)},${y(p.cost).toFixed(1)}`).join(' ');
  const peak = props.points.reduce<SparkPoint | null>((best, p) => (!best || p.cost > best.cost ? p : best), null);
  const total = props.points.reduce((t, p) => t + p.cost, 0);
  const summary = `${props.label}: ${formatCost(total)} in total${peak && peak.cost > 0 ? `, highest ${formatCost(peak.cost)} on ${peak.day}` : ''}`;
  return (
    <>
      <svg class="sparkline" viewBox={`0 0 ${w} ${h}`} preserveAspectRatio="none" role="img" aria-label={summary}>
        <polygon points={`0,${h} ${line} ${w},${h}`} class="sparkline-area" />
        <polyline points={line} class="sparkline-line" fill="none" />
      </svg>
      <table class="sr-only" data-testid="sparkline-table">
        <caption>{props.label}</caption>
        <thead>
          <tr>
            <th scope="col">Day</th>
            <th scope="col">Cost</th>
          </tr>
        </thead>
        <tbody>
          {props.points.map((p) => (
            <tr key={p.day}>
              <th scope="row">{p.day}</th>
              <td>{formatCost(p.cost)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </>
  );
}
