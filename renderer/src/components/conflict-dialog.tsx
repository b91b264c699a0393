import { Dialog } from './dialog.js';
import { changedLines } from '../lib/line-diff.js';

/** The words of the dialog; a save uses SAVE_LABELS. */
export interface ConflictLabels {
  intro: string;
  mine: string;
  /** How the intro's "Lines marked + are only in …" names the left side. */
  yours: string;
  reload: string;
  overwrite: string;
  cancel: string;
}
const SAVE_LABELS: ConflictLabels = {
  intro: 'Someone else saved {what} after you opened it. Choose which version to keep.',
  mine: 'Your version (unsaved)',
  yours: 'yours',
  reload: 'Reload from disk (discard mine)',
  overwrite: 'Overwrite with my version',
  cancel: 'Keep editing',
};

/**
 * Shown on 409 "File modified externally": both versions side by side, changed lines marked
 * by a sign and a label (not by colour alone), then Reload (take the disk version) or
 * Overwrite (write mine over it). An action other than a save (applying a preset) names its
 * own side and buttons through `labels`.
 */
export function ConflictDialog(props: {
  open: boolean;
  what: string;
  mine: string;
  theirs: string;
  busy?: boolean;
  labels?: Partial<ConflictLabels>;
  onReload: () => void;
  onOverwrite: () => void;
  onCancel: () => void;
}) {
  const l = { ...SAVE_LABELS, ...props.labels };
  const a = props.mine.split('\n');
  const b = props.theirs.split('\n');
  const { onlyA, onlyB } = changedLines(a, b);
  return (
    <Dialog title={`${props.what[0]!.toUpperCase()}${props.what.slice(1)} changed on disk`} open={props.open} onClose={props.onCancel} wide>
      <p>
        {l.intro.replace('{what}', props.what)} Lines marked
        <span class="diff-mark diff-mine"> + </span> are only in {l.yours}, <span class="diff-mark diff-theirs"> − </span> only on disk.
      </p>
      <div class="compare" data-testid="conflict-compare">
        <Side title={l.mine} lines={a} marked={onlyA} sign="+" cls="diff-mine" />
        <Side title="Version on disk" lines={b} marked={onlyB} sign="−" cls="diff-theirs" />
      </div>
      <div class="actions">
        <button type="button" class="btn" onClick={props.onReload} disabled={props.busy}>
          {l.reload}
        </button>
        <button type="button" class="btn btn-danger" onClick={props.onOverwrite} disabled={props.busy}>
          {l.overwrite}
        </button>
        <button type="button" class="btn" onClick={props.onCancel} disabled={props.busy}>
          {l.cancel}
        </button>
      </div>
    </Dialog>
  );
}

function Side(props: { title: string; lines: string[]; marked: Set<number>; sign: string; cls: string }) {
  return (
    <figure class="compare-side">
      <figcaption>
        {props.title} <span class="muted">({props.marked.size} changed {props.marked.size === 1 ? 'line' : 'lines'})</span>
      </figcaption>
      <pre tabIndex={0} aria-label={props.title}>
        {props.lines.map((line, i) => (
          <div key={i} class={props.marked.has(i) ? `diff-line ${props.cls}` : 'diff-line'}>
            <span class="diff-sign" aria-hidden={!props.marked.has(i)}>
              {props.marked.has(i) ? props.sign : ' '}
            </span>
            {line || ' '}
          </div>
        ))}
      </pre>
    </figure>
  );
}
