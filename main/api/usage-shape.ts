/**
 * `agentBreakdown` is in every daily, hourly and monthly entry and the summary the service builds;
 * the API shows it only on `by=agent` (decisions §5.1), so other answers keep their shape.
 */
export function shaped<T extends { agentBreakdown?: unknown }>(entry: T, byAgent: boolean): T | Omit<T, 'agentBreakdown'> {
  if (byAgent) return entry;
  const { agentBreakdown: _hidden, ...rest } = entry;
  return rest;
}

export function shapedList<T extends { agentBreakdown?: unknown }>(entries: readonly T[], byAgent: boolean): Array<T | Omit<T, 'agentBreakdown'>> {
  return byAgent ? [...entries] : entries.map((e) => shaped(e, false));
}
