import type { CacheStatus } from '../../api-types.js';
import { formatBytes, formatInt } from '../../lib/format.js';

/**
 * The first scan of the transcripts, in place of every figure: until it ends there are no numbers
 * to show, and a zero would be a false answer.
 */
export function ScanProgress(props: { status: CacheStatus }) {
  const p = props.status.progress;
  const ratio = p && p.bytesTotal > 0 ? p.bytesDone / p.bytesTotal : 0;
  return (
    <section class="panel scan-progress" aria-labelledby="scan-title" data-testid="scan-progress">
      <h3 id="scan-title">Reading the agent's transcripts for the first time…</h3>
      <progress max={1} value={ratio} aria-labelledby="scan-title" aria-valuetext={`${Math.round(ratio * 100)} %`} />
      <p class="muted" aria-live="polite">
        {p
          ? `${formatInt(p.filesDone)} of ${formatInt(p.filesTotal)} files, ${formatBytes(p.bytesDone)} of ${formatBytes(p.bytesTotal)}`
          : 'Looking for transcripts…'}
        . Figures appear when the scan ends.
      </p>
    </section>
  );
}
