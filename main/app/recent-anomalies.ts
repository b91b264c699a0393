/** Anomalies the tray counts: those of the last 7 days, today included (issue 28.4, as the Overview). */
export const RECENT_ANOMALY_DAYS = 7;

/** How many `anomalies` fall within the last `days` days up to `today` (YYYYMMDD). */
export function countRecent(anomalies: ReadonlyArray<{ date: string }>, today: string, days = RECENT_ANOMALY_DAYS): number {
  const d = new Date(Date.UTC(Number(today.slice(0, 4)), Number(today.slice(4, 6)) - 1, Number(today.slice(6, 8))));
  d.setUTCDate(d.getUTCDate() - (days - 1));
  const from = d.toISOString().slice(0, 10).replaceAll('-', '');
  return anomalies.filter((a) => a.date.replaceAll('-', '') >= from).length;
}
