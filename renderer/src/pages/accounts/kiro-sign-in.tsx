import { useState } from 'preact/hooks';
import type { SignInMethod } from '../../api-types.js';

export interface KiroOptions {
  startUrl?: string;
  region?: string;
}

/**
 * Kiro's two sign-ins through the managed CLIProxyAPI: AWS Builder ID (a device code, one click)
 * or IAM Identity Center, which needs the organisation's start URL and the Identity Center's region.
 */
export function KiroSignIn(props: { busy: boolean; onStart: (method: SignInMethod, options: KiroOptions) => void }) {
  const [idc, setIdc] = useState(false);
  const [startUrl, setStartUrl] = useState('');
  const [region, setRegion] = useState('us-east-1');
  if (!idc) {
    return (
      <>
        <button type="button" class="btn btn-small btn-primary" disabled={props.busy} onClick={() => props.onStart('device', {})}>
          Sign in with Builder ID
        </button>
        <button type="button" class="btn btn-small" disabled={props.busy} onClick={() => setIdc(true)}>
          IAM Identity Center…
        </button>
      </>
    );
  }
  return (
    <form
      class="acc-kiro-idc"
      aria-label="IAM Identity Center sign-in"
      onSubmit={(e) => {
        e.preventDefault();
        props.onStart('idc', { startUrl: startUrl.trim(), region: region.trim() });
      }}
    >
      <div class="field">
        <label for="kiro-start-url">Start URL</label>
        <input id="kiro-start-url" type="url" required placeholder="https://my-org.awsapps.com/start" value={startUrl} onInput={(e) => setStartUrl((e.target as HTMLInputElement).value)} />
      </div>
      <div class="field acc-kiro-region">
        <label for="kiro-region">Region</label>
        <input id="kiro-region" type="text" required pattern="[a-z]{2}(-[a-z]+)+-[0-9]{1,2}" title="An AWS region, e.g. us-east-1" value={region} onInput={(e) => setRegion((e.target as HTMLInputElement).value)} />
      </div>
      <div class="actions">
        <button type="submit" class="btn btn-small btn-primary" disabled={props.busy || startUrl.trim() === ''}>
          Sign in
        </button>
        <button type="button" class="btn btn-small btn-quiet" onClick={() => setIdc(false)}>
          Back
        </button>
      </div>
    </form>
  );
}
