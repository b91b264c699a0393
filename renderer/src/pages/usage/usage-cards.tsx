import type { UsageSummary } from '../../api-types.js';
import { formatCompact, formatCost, formatInt } from '../../lib/format.js';

function Card(props: { label: string; value: string; exact?: string; note?: string; testId?: string; pair?: boolean }) {
  return (
    <div class="card" data-testid={props.testId}>
      <h3 class="card-label">{props.label}</h3>
      <p class={props.pair ? 'card-value-pair' : 'card-value'} title={props.exact}>
        {props.value}
      </p>
      {props.note ? <p class="muted">{props.note}</p> : null}
    </div>
  );
}

/** Headline numbers. `totalTokens` counts input + output + cache read + cache write. */
export function UsageCards(props: { summary: UsageSummary }) {
  const s = props.summary;
  const range = s.dateRange.from ? `${s.dateRange.from} → ${s.dateRange.to}` : 'No data in this period';
  return (
    <>
    <section class="cards" aria-label="Usage summary">
      <Card label="Total cost" value={formatCost(s.totalCost)} note={range} testId="card-cost" />
      <Card
        label="Total tokens"
        value={formatCompact(s.totalTokens)}
        exact={formatInt(s.totalTokens)}
        note="all four kinds"
        testId="card-tokens"
      />
      <Card label="Input/output" pair value={`${formatCompact(s.inputTokens)} / ${formatCompact(s.outputTokens)}`} exact={`${formatInt(s.inputTokens)} / ${formatInt(s.outputTokens)}`} />
      <Card
        label="Cache read/write"
        pair
        value={`${formatCompact(s.cacheReadTokens)} / ${formatCompact(s.cacheWriteTokens)}`}
        exact={`${formatInt(s.cacheReadTokens)} / ${formatInt(s.cacheWriteTokens)}`}
      />
      <Card
        label="Daily average"
        value={formatCost(s.dailyAverage.cost)}
        note={`${formatCompact(s.dailyAverage.tokens)} tokens per active day`}
      />
      <Card
        label="Models used"
        value={String(s.modelsUsed.length)}
        note={s.unpricedModels?.length ? `Unpriced (cost not counted): ${s.unpricedModels.join(', ')}` : undefined}
      />
    </section>
    <p class="muted small-note">
      Total tokens = input + output + cache read + cache write. Costs use the built-in price table; models without a price count as $0 and are named above.
    </p>
    </>
  );
}
