import { useMemo, useRef, useState } from 'preact/hooks';
import { api } from '../../api.js';
import { Empty, ErrorNotice, Loading, Notice } from '../../components/notice.js';
import { PageHeader } from '../../components/page-header.js';
import { proxyBadge } from '../../components/proxy-control.js';
import { useLiveReload } from '../../lib/live.js';
import { href } from '../../lib/router.js';
import { useResource } from '../../lib/use-resource.js';
import { ConnectHint } from './connect-hint.js';
import { RequestTable } from './request-table.js';
import { hasFilters, NO_FILTERS, type TrafficFilters } from './traffic-format.js';
import { TrafficFilterBar } from './traffic-filters.js';
import { TrafficStats } from './traffic-stats.js';
import { ROW_LIMIT, useLiveRequests } from './use-live-requests.js';
import { useRequestStats } from './use-request-stats.js';
import './traffic.css';

/** The proxy port from its YAML when it is not running (the status only knows it while it runs). */
function portFromYaml(text: string): number | null {
  const m = /^\s*port:\s*(\d{1,5})\s*(#.*)?$/m.exec(text);
  return m ? Number(m[1]) : null;
}

/** Every request the proxy finished: live table with filters, and the last hour per minute. */
export function TrafficPage() {
  const [filters, setFilters] = useState<TrafficFilters>(NO_FILTERS);
  const live = useLiveRequests(filters);
  const stats = useRequestStats();
  const status = useResource(api.proxyStatus, []);
  useLiveReload(['proxy-state'], status.reload, 5000);
  const yamlPort = useResource(() => api.proxyConfig().then(portFromYaml).catch(() => null), []);
  const scroll = useRef<HTMLDivElement | null>(null);
  const names = useKnownNames(live.rows);

  const running = status.data?.running === true;
  const port = status.data?.running ? status.data.port : (yamlPort.data ?? null);
  const resume = () => {
    scroll.current?.scrollTo({ top: 0 });
    live.resume();
  };

  return (
    <>
      <PageHeader title="Traffic" subtitle="Every request the proxy finished, newest first, as it happens.">
        <span data-testid="traffic-proxy-state">{status.data ? proxyBadge(status.data) : null}</span>
      </PageHeader>
      {status.data && !running ? (
        <Notice tone="info" title="The proxy is stopped">
          What is listed below is its history (kept in <span class="path">proxy/logs/requests.jsonl</span>). Start it on the{' '}
          <a href={href('proxy', 'status')}>Proxy page</a> to see new requests.
        </Notice>
      ) : null}
      <TrafficStats stats={stats} />
      <section class="panel" aria-labelledby="traffic-requests-title">
        <header class="panel-head">
          <h2 id="traffic-requests-title">Requests</h2>
          <div class="panel-tools">
            <span class="muted" data-testid="traffic-count">
              {live.loaded ? countText(live.rows.length, live.total) : null}
            </span>
            {live.paused || live.held.length ? (
              <button type="button" class="btn btn-small btn-primary" onClick={resume} data-testid="traffic-resume">
                {live.held.length ? `${live.held.length} new — resume` : 'Paused — resume'}
              </button>
            ) : (
              <button type="button" class="btn btn-small" onClick={() => live.setPaused(true)}>
                Pause
              </button>
            )}
          </div>
        </header>
        <TrafficFilterBar value={filters} onChange={setFilters} models={names.models} upstreams={names.upstreams} />
        <ErrorNotice error={live.error} context="Requests" />
        {!live.loaded && live.loading ? <Loading what="requests" /> : null}
        {live.loaded && live.rows.length === 0 && live.held.length === 0 ? (
          hasFilters(filters) ? (
            <Empty>
              No requests match these filters.{' '}
              <button type="button" class="btn-link" onClick={() => setFilters(NO_FILTERS)}>
                Clear filters
              </button>
            </Empty>
          ) : (
            <ConnectHint port={port} running={running} />
          )
        ) : null}
        {live.rows.length > 0 ? (
          <RequestTable rows={live.rows} scrollRef={scroll} onScrolledAway={(away) => (away ? live.setPaused(true) : live.resume())} />
        ) : null}
        <p class="muted traffic-note">
          Live while this page is open; scrolling down pauses it. The newest {ROW_LIMIT} rows are shown; no request or response bodies are kept, only
          failures have an error log.
        </p>
      </section>
    </>
  );
}

function countText(shown: number, total: number | null): string {
  if (total === null || total <= shown) return `${shown} ${shown === 1 ? 'request' : 'requests'}`;
  return `newest ${shown} of ${total}`;
}

/** Models and upstreams seen since the page opened, for the filter suggestions. */
function useKnownNames(rows: Array<{ modelRequested: string | null; modelSent: string | null; upstream: string | null }>) {
  const seen = useRef({ models: new Set<string>(), upstreams: new Set<string>() });
  return useMemo(() => {
    for (const r of rows) {
      if (r.modelRequested) seen.current.models.add(r.modelRequested);
      if (r.modelSent) seen.current.models.add(r.modelSent);
      if (r.upstream) seen.current.upstreams.add(r.upstream);
    }
    return { models: [...seen.current.models].sort(), upstreams: [...seen.current.upstreams].sort() };
  }, [rows]);
}
