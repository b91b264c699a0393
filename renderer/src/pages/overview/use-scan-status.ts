import { useEffect } from 'preact/hooks';
import { api } from '../../api.js';
import type { ScanProgress } from '../../api-types.js';
import { useLiveReload } from '../../lib/live.js';
import { useResource } from '../../lib/use-resource.js';
import { noTranscripts } from '../usage/no-transcripts.js';

export interface ScanState {
  /** True while the first (or a full) scan runs: usage figures are not known yet. */
  scanning: boolean;
  progress: ScanProgress | null;
  /**
   * The status was read and no scan runs: usage reads answer at once. Until then views send
   * one read only (it starts the scan): each read waits for the scan and holds one of the
   * browser's six connections, which the progress polls would otherwise queue behind.
   */
  settled: boolean;
  /** The scan found no transcript at all: where it looked (the spend cards say so instead of $0.00); else null. */
  noTranscriptsIn: string | null;
}

/**
 * GET /api/usage/status, re-read every 700 ms while a scan runs so the progress moves; the
 * usage endpoints wait for the scan meanwhile, and views show this instead of a zero. Nothing
 * cached yet counts as scanning too: the first scan starts with the first usage read, which may
 * come a moment after this status was read.
 */
export function useScanStatus(): ScanState {
  const status = useResource(api.usageStatus, []);
  // A first scan that failed (a logs folder that cannot be read) is not "still scanning": the
  // reads then answer with the error, which the cards show, and the polling stops.
  const failed = status.data !== undefined && !status.data.cached && !status.data.scanning && status.data.lastError !== null;
  const scanning = status.data !== undefined && (status.data.scanning || (!status.data.cached && !failed));
  useEffect(() => {
    if (!scanning) return;
    const timer = setTimeout(() => void status.reload(), 700);
    return () => clearTimeout(timer);
  }, [status.data]);
  useLiveReload(['usage-refreshed'], () => void status.reload(), 0);
  return {
    scanning,
    progress: status.data?.progress ?? null,
    settled: status.data !== undefined && !scanning,
    noTranscriptsIn: noTranscripts(status.data) ? status.data!.transcriptsDir : null,
  };
}

/** "Reading usage logs… 12 of 40 files (31%)". */
export function scanText(p: ScanProgress | null): string {
  if (!p) return 'Reading usage logs…';
  const share = p.bytesTotal > 0 ? Math.floor((p.bytesDone / p.bytesTotal) * 100) : null;
  return `Reading usage logs… ${p.filesDone} of ${p.filesTotal} files${share === null ? '' : ` (${share}%)`}`;
}
