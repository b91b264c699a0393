import type { ComponentChildren } from 'preact';
import { useEffect, useRef, useState } from 'preact/hooks';
import { Chart, type ChartConfiguration } from '../lib/chart-setup.js';
import { useColorScheme } from '../lib/theme.js';

export interface Series {
  label: string;
  data: number[];
  /** Second y axis (right), e.g. cost next to tokens. */
  secondAxis?: boolean;
  /** Draw as a line over bars. */
  line?: boolean;
  stack?: string;
}

/**
 * One chart with a Chart/Table switch. The table is the accessible twin of the chart and is
 * always in the page (hidden while the chart shows) so screen readers and tests can read it.
 */
export function ChartPanel(props: {
  title: string;
  kind: 'bar' | 'doughnut';
  labels: string[];
  series: Series[];
  table: ComponentChildren;
  summary: string;
  id: string;
  yTitle?: string;
  y2Title?: string;
  actions?: ComponentChildren;
  /** Extra tooltip lines for the hovered label (e.g. the day's total tokens and cost). */
  footer?: (index: number) => string[];
}) {
  const [view, setView] = useState<'chart' | 'table'>('chart');
  const headingId = `${props.id}-title`;
  return (
    <section class="panel chart-panel" aria-labelledby={headingId} data-testid={props.id}>
      <header class="panel-head">
        <h3 id={headingId}>{props.title}</h3>
        <div class="panel-tools">
          {props.actions}
          <div class="segmented" role="group" aria-label={`${props.title} view`}>
            <button type="button" aria-pressed={view === 'chart'} onClick={() => setView('chart')}>
              Chart
            </button>
            <button type="button" aria-pressed={view === 'table'} onClick={() => setView('table')}>
              Table
            </button>
          </div>
        </div>
      </header>
      <div hidden={view !== 'chart'} class="chart-box">
        <ChartCanvas {...props} />
      </div>
      <div hidden={view !== 'table'}>{props.table}</div>
    </section>
  );
}

function cssVar(name: string): string {
  return getComputedStyle(document.documentElement).getPropertyValue(name).trim();
}

function ChartCanvas(props: {
  kind: 'bar' | 'doughnut';
  labels: string[];
  series: Series[];
  summary: string;
  yTitle?: string;
  y2Title?: string;
  footer?: (index: number) => string[];
}) {
  const canvas = useRef<HTMLCanvasElement>(null);
  const scheme = useColorScheme();

  useEffect(() => {
    if (!canvas.current) return;
    const palette = [1, 2, 3, 4, 5, 6].map((i) => cssVar(`--chart-${i}`));
    const text = cssVar('--text-muted');
    const grid = cssVar('--border');
    const doughnut = props.kind === 'doughnut';
    const config: ChartConfiguration = {
      type: props.kind,
      data: {
        labels: props.labels,
        datasets: props.series.map((s, i) => ({
          type: s.line ? 'line' : props.kind,
          label: s.label,
          data: s.data,
          backgroundColor: doughnut ? props.labels.map((_, j) => palette[j % palette.length]!) : palette[i % palette.length],
          borderColor: doughnut ? cssVar('--surface') : palette[i % palette.length],
          borderWidth: s.line ? 2 : doughnut ? 2 : 0,
          pointRadius: s.line ? 2 : 0,
          yAxisID: doughnut ? undefined : s.secondAxis ? 'y2' : 'y',
          stack: s.stack,
          order: s.line ? 0 : 1,
        })) as ChartConfiguration['data']['datasets'],
      },
      options: {
        animation: false,
        responsive: true,
        maintainAspectRatio: false,
        color: text,
        // A bar chart's tooltip lists every segment of the hovered label, then the footer's totals.
        interaction: doughnut ? undefined : { mode: 'index', intersect: false },
        plugins: {
          legend: { position: doughnut ? 'right' : 'bottom', labels: { color: text, boxWidth: 12 } },
          tooltip: props.footer ? { callbacks: { footer: (items) => (items[0] ? props.footer!(items[0].dataIndex) : []) } } : {},
        },
        scales: doughnut
          ? {}
          : {
              x: { stacked: true, ticks: { color: text, maxRotation: 0, autoSkipPadding: 12 }, grid: { display: false } },
              y: {
                stacked: true,
                beginAtZero: true,
                ticks: { color: text },
                grid: { color: grid },
                title: { display: Boolean(props.yTitle), text: props.yTitle ?? '', color: text },
              },
              ...(props.series.some((s) => s.secondAxis)
                ? {
                    y2: {
                      position: 'right' as const,
                      beginAtZero: true,
                      ticks: { color: text },
                      grid: { display: false },
                      title: { display: Boolean(props.y2Title), text: props.y2Title ?? '', color: text },
                    },
                  }
                : {}),
            },
      },
    };
    const chart = new Chart(canvas.current, config);
    return () => chart.destroy();
  }, [props.kind, props.labels, props.series, props.footer, scheme]);

  return <canvas ref={canvas} role="img" aria-label={props.summary} />;
}
