import { useState } from 'preact/hooks';
import { api } from '../../api.js';
import { ErrorNotice } from '../../components/notice.js';
import { useAction } from '../../lib/use-action.js';

/** The pin: installs and updates stay on it (PUT /api/proxy/cliproxy/pin); Unpin follows the latest again. */
export function CliproxyPin(props: { pinned: string | null; onChange: () => void }) {
  const [draft, setDraft] = useState('');
  const pin = useAction(async (version: string | null) => {
    await api.cliproxyPin(version);
    setDraft('');
    props.onChange();
  });
  return (
    <div class="cpx-pin" data-testid="cliproxy-pin">
      {props.pinned ? (
        <>
          <span>
            Pinned to <strong>{props.pinned}</strong>
          </span>
          <button type="button" class="btn btn-small" disabled={pin.busy} onClick={() => void pin.run(null)}>Unpin</button>
        </>
      ) : (
        <form
          class="cpx-pin-form"
          onSubmit={(e) => {
            e.preventDefault();
            void pin.run(draft.trim());
          }}
        >
          <label for="cpx-pin-input">Pin a version</label>
          <input id="cpx-pin-input" value={draft} placeholder="6.9.45" onInput={(e) => setDraft((e.currentTarget as HTMLInputElement).value)} />
          <button type="submit" class="btn btn-small" disabled={pin.busy || draft.trim() === ''}>Pin</button>
          <span class="muted">Not pinned: installs follow the latest release.</span>
        </form>
      )}
      <ErrorNotice error={pin.error} context="Pin" onDismiss={pin.clear} />
    </div>
  );
}
