import type { DailyEntry } from './daily.js';
import { round2 } from './totals.js';

/** Spec 2.7. */
export const THRESHOLDS = {
  highInput: 10_000_000,
  highIoRatio: 100,
  costSpikeMultiplier: 2,
  highCacheRead: 1_000_000_000,
} as const;

export type AnomalyType = 'cost_spike' | 'high_input' | 'high_io_ratio' | 'high_cache_read';

export interface Anomaly {
  type: AnomalyType;
  date: string;
  value: number;
  threshold: number;
  message: string;
}

/**
 * The one average every cost spike is judged against: the mean cost of the days with data in the
 * window, named by its first and last such day (null without data).
 */
export interface Baseline {
  averageDailyCost: number;
  days: number;
  since: string | null;
  until: string | null;
}

export function baselineOf(daily: readonly DailyEntry[]): Baseline {
  const days = daily.length;
  return {
    averageDailyCost: days ? daily.reduce((sum, d) => sum + d.cost, 0) / days : 0,
    days,
    since: daily[0]?.date ?? null,
    until: daily[days - 1]?.date ?? null,
  };
}

const TYPE_ORDER: AnomalyType[] = ['cost_spike', 'high_input', 'high_io_ratio', 'high_cache_read'];

/**
 * Per day over all models (decisions §5): a cost above multiplier x the average daily cost (days
 * with data), input above 10 M, input/output above 100 (days with output only: a day of pure
 * input has no ratio), cache reads above 1 B. Newest first.
 */
export function detectAnomalies(daily: readonly DailyEntry[]): Anomaly[] {
  const average = baselineOf(daily).averageDailyCost;
  const spikeAt = THRESHOLDS.costSpikeMultiplier * average;
  const found: Anomaly[] = [];
  for (const d of daily) {
    if (d.cost > spikeAt) {
      found.push({
        type: 'cost_spike',
        date: d.date,
        value: d.cost,
        threshold: spikeAt,
        message: `Cost on ${d.date} was ${usd(d.cost)}, more than ${THRESHOLDS.costSpikeMultiplier}x the daily average of ${usd(average)}`,
      });
    }
    if (d.inputTokens > THRESHOLDS.highInput) {
      found.push({
        type: 'high_input',
        date: d.date,
        value: d.inputTokens,
        threshold: THRESHOLDS.highInput,
        message: `${count(d.inputTokens)} input tokens on ${d.date}, above ${count(THRESHOLDS.highInput)}`,
      });
    }
    const ratio = d.outputTokens > 0 ? d.inputTokens / d.outputTokens : 0;
    if (ratio > THRESHOLDS.highIoRatio) {
      found.push({
        type: 'high_io_ratio',
        date: d.date,
        value: round2(ratio),
        threshold: THRESHOLDS.highIoRatio,
        message: `Input to output ratio on ${d.date} was ${round2(ratio)}:1, above ${THRESHOLDS.highIoRatio}:1`,
      });
    }
    if (d.cacheReadTokens > THRESHOLDS.highCacheRead) {
      found.push({
        type: 'high_cache_read',
        date: d.date,
        value: d.cacheReadTokens,
        threshold: THRESHOLDS.highCacheRead,
        message: `${count(d.cacheReadTokens)} cache read tokens on ${d.date}, above ${count(THRESHOLDS.highCacheRead)}`,
      });
    }
  }
  return found.sort((a, b) => (a.date !== b.date ? (a.date < b.date ? 1 : -1) : TYPE_ORDER.indexOf(a.type) - TYPE_ORDER.indexOf(b.type)));
}

/** Stable identity of an anomaly, to tell new ones from those already announced. */
export function anomalyId(a: Anomaly): string {
  return `${a.type}|${a.date}`;
}

function usd(value: number): string {
  return `$${value.toFixed(2)}`;
}

function count(value: number): string {
  return value.toLocaleString('en-US');
}
