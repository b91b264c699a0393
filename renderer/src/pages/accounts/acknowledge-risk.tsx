import { useState } from 'preact/hooks';

/**
 * The ban risk a provider's sign-in asks the user to accept first (agy, decisions §4.1): the
 * server's own words, a checkbox, then Continue. The server remembers the acceptance, so this
 * shows only until it has been given once.
 */
export function AcknowledgeRisk(props: { provider: string; name: string; risk: string; busy: boolean; onAccept: () => void; onCancel: () => void }) {
  const [checked, setChecked] = useState(false);
  // The server's text ends with how to confirm through the API; the checkbox is the dashboard's way.
  const risk = props.risk.replace(/^\w+: /, '').replace(/,? and confirm with \{"acknowledge": true\} \(asked once\)\.?$/, '.');
  return (
    <form
      class="acc-ack"
      data-testid={`acknowledge-${props.provider}`}
      aria-labelledby="acc-ack-title"
      onSubmit={(e) => {
        e.preventDefault();
        if (checked) props.onAccept();
      }}
    >
      <h3 id="acc-ack-title">Before you sign in to {props.name}</h3>
      <p class="acc-note">{risk}</p>
      <label class="check">
        <input type="checkbox" checked={checked} onChange={(e) => setChecked(e.currentTarget.checked)} /> I understand that this account may be banned, and I use one I can afford to lose
      </label>
      <p class="muted acc-blurb">Asked once: Switchboard remembers your answer.</p>
      <div class="actions">
        <button type="submit" class="btn btn-small btn-primary" disabled={!checked || props.busy}>
          Continue to Google
        </button>
        <button type="button" class="btn btn-small btn-quiet" onClick={props.onCancel}>
          Cancel
        </button>
      </div>
    </form>
  );
}
