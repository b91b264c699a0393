import type { ScanProgress } from '../../api-types.js';
import { scanText } from './use-scan-status.js';

/** Stands in for a figure while the first scan runs: progress, never a zero. */
export function ScanNote(props: { progress: ScanProgress | null }) {
  const p = props.progress;
  return (
    <p class="muted scan-note" role="status" data-testid="scan-progress">
      {p && p.bytesTotal > 0 ? <progress max={p.bytesTotal} value={p.bytesDone} aria-hidden="true" /> : null}
      <span>{scanText(p)}</span>
    </p>
  );
}
