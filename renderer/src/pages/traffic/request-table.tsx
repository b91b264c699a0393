import { useRef } from 'preact/hooks';
import type { RequestEntry } from '../../api-types.js';
import { StatusBadge } from '../../components/status-badge.js';
import { formatCompact, formatInt, formatTime } from '../../lib/format.js';
import { href } from '../../lib/router.js';
import { ModelName } from './model-name.js';
import { clockTime, formatMs, outcomeLabel, requestCost } from './traffic-format.js';

/** Scrolled further than this from the top counts as reading: live rows wait. */
const PAUSE_AFTER_PX = 12;

/**
 * The request rows, newest first, in a scroll box of their own so that reading further down
 * pauses the live feed (rows would otherwise move under the reader).
 */
export function RequestTable(props: { rows: RequestEntry[]; onScrolledAway: (away: boolean) => void; scrollRef?: { current: HTMLDivElement | null } }) {
  const own = useRef<HTMLDivElement>(null);
  const box = props.scrollRef ?? own;
  return (
    <div
      class="table-wrap traffic-scroll"
      ref={box}
      tabIndex={0}
      role="region"
      aria-label="Requests, newest first"
      data-testid="traffic-table"
      onScroll={(e) => props.onScrolledAway(e.currentTarget.scrollTop > PAUSE_AFTER_PX)}
    >
      <table class="traffic-table">
        <caption class="sr-only">Requests, newest first</caption>
        <thead>
          {/* What each request did, how long it took and what it cost come first: at 800 px they
              stay in view and the rest scrolls sideways (issue 28.6). */}
          <tr>
            <th scope="col">Time</th>
            <th scope="col">Status</th>
            <th scope="col" class="num">Latency</th>
            <th scope="col" class="num">Cost</th>
            <th scope="col" class="num">Tokens in/out</th>
            <th scope="col">Model asked → sent</th>
            <th scope="col" class="num">TTFB</th>
            <th scope="col">Upstream</th>
            <th scope="col">Format</th>
          </tr>
        </thead>
        <tbody>
          {props.rows.map((e) => (
            <Row key={e.id} entry={e} />
          ))}
        </tbody>
      </table>
    </div>
  );
}

function Row(props: { entry: RequestEntry }) {
  const e = props.entry;
  const outcome = outcomeLabel(e);
  const t = e.tokens;
  return (
    <tr data-testid="traffic-row" data-id={e.id}>
      <th scope="row" class="nowrap" title={formatTime(e.time)}>
        {clockTime(e.time)}
      </th>
      <td class="traffic-status">
        <StatusBadge kind={outcome.kind} label={outcome.text} />
        {e.errorLog ? (
          <>
            {' '}
            <a href={href('proxy', 'logs', e.errorLog)}>
              Error log<span class="sr-only"> of the {clockTime(e.time)} request</span>
            </a>
          </>
        ) : null}
        {e.error ? (
          <span class="traffic-error muted" title={e.error}>
            {e.error}
          </span>
        ) : null}
      </td>
      <td class="num" data-col="latency">{formatMs(e.latencyMs)}</td>
      <td class="num" data-col="cost">{requestCost(e.costUSD)}</td>
      <td class="num" title={t ? `input ${formatInt(t.input)}, output ${formatInt(t.output)}, cache read ${formatInt(t.cacheRead)}, cache write ${formatInt(t.cacheWrite)}` : undefined}>
        {t ? `${formatCompact(t.input)} / ${formatCompact(t.output)}` : '—'}
      </td>
      <td class="traffic-model">
        <ModelName entry={e} />
      </td>
      <td class="num">{formatMs(e.ttfbMs)}</td>
      <td class="nowrap">
        {e.upstream ?? '—'}
        {e.via === 'cliproxy' ? (
          <span class="muted" data-testid="traffic-via" title="Forwarded to the managed CLIProxyAPI, which chose the account">
            {' '}
            · via CLIProxyAPI
          </span>
        ) : e.account ? (
          <span class="muted"> · {e.account}</span>
        ) : e.keyIndex != null ? (
          <span class="muted"> · key {e.keyIndex + 1}</span>
        ) : null}
      </td>
      <td>
        <span class="tag">{e.format}</span>
      </td>
    </tr>
  );
}
