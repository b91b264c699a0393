import { CopyButton } from '../../components/copy-button.js';
import { href } from '../../lib/router.js';

/** The empty Traffic table says how to get rows into it: point a client at the proxy. */
export function ConnectHint(props: { port: number | null; running: boolean }) {
  const origin = `http://127.0.0.1:${props.port ?? '<port>'}`;
  const claude = `ANTHROPIC_BASE_URL=${origin} ANTHROPIC_AUTH_TOKEN=<proxy API key> claude`;
  return (
    <div class="connect-hint" data-testid="traffic-empty">
      <p>
        <strong>No requests yet — point a client at {origin}</strong>
      </p>
      {props.running ? null : (
        <p class="muted">
          The proxy is not running: start it on the <a href={href('proxy', 'status')}>Proxy page</a> first.
        </p>
      )}
      <ul>
        <li>
          Claude Code (Anthropic format): <code>{claude}</code> <CopyButton text={claude} label="Copy the Claude Code command" />
        </li>
        <li>
          OpenAI SDKs and tools: base URL <code>{origin}/v1</code>, API key = the proxy API key.
        </li>
        <li>
          The key is on <a href={href('proxy', 'tokens')}>Proxy › Tokens</a>; a profile on the <a href={href('profiles')}>Profiles page</a> can carry both.
        </li>
      </ul>
    </div>
  );
}
