import type { CacheStatus } from '../../api-types.js';
import { Notice } from '../../components/notice.js';

/**
 * The scan found no transcript at all: say where it looked and what to do, instead of figures
 * that would all read $0.00 (a false answer when the logs simply live elsewhere).
 */
export function noTranscripts(status: CacheStatus | undefined): boolean {
  return status !== undefined && status.cached && !status.scanning && status.files === 0;
}

export function NoTranscripts(props: { dir: string }) {
  return (
    <Notice tone="info" title="No agent transcripts found">
      <p>
        Switchboard counts tokens and cost from the transcripts Claude Code writes, and found none in <code>{props.dir}</code>.
      </p>
      <p>
        If Claude Code has not run on this machine yet, figures appear after its first session (press Refresh, or wait a minute). If it keeps its logs elsewhere,
        start Switchboard with <code>CLAUDE_CONFIG_DIR</code> (or <code>SWITCHBOARD_AGENT_DIR</code>) set to the folder that holds <code>projects/</code>.
      </p>
    </Notice>
  );
}
