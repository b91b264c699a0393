import type { DailyEntry } from '../../api-types.js';
import { formatCost } from '../../lib/format.js';
import { agentRows } from '../usage/agent-breakdown.js';

/**
 * Cost per coding agent over the last 30 days, as a share bar with a legend (issue 32). Shown only
 * when more than one agent has usage: with Claude Code alone the Overview stays as it was.
 */
export function AgentShareCard(props: { daily: DailyEntry[] }) {
  const rows = agentRows(props.daily);
  if (rows.length < 2) return null;
  return (
    <div class="card card-wide" data-testid="agent-share">
      <h2 class="card-label">Cost by agent, last 30 days</h2>
      <div class="share-bar" role="img" aria-label={rows.map((r) => `${r.agent} ${r.share.toFixed(0)} %`).join(', ')}>
        {rows.map((r, i) => (
          <span key={r.agent} class={`share-seg share-${i % 6}`} style={{ width: `${Math.max(r.share, 0.5)}%` }} />
        ))}
      </div>
      <ul class="share-legend">
        {rows.map((r, i) => (
          <li key={r.agent}>
            <span class={`share-dot share-${i % 6}`} aria-hidden="true" />
            <code>{r.agent}</code> {formatCost(r.cost)} · {r.share.toFixed(1)} %
          </li>
        ))}
      </ul>
    </div>
  );
}
