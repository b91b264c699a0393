import { Component, type ComponentChildren } from 'preact';
import { Notice } from './notice.js';

/**
 * A page that throws while rendering shows what broke instead of a blank window; the rest of
 * the app (navigation, other pages) keeps working.
 */
export class ErrorBoundary extends Component<{ children: ComponentChildren; resetKey: string }, { error: Error | null }> {
  override state = { error: null as Error | null };

  static override getDerivedStateFromError(error: unknown) {
    return { error: error instanceof Error ? error : new Error(String(error)) };
  }

  override componentDidUpdate(prev: { resetKey: string }) {
    if (prev.resetKey !== this.props.resetKey && this.state.error) this.setState({ error: null });
  }

  override render() {
    if (!this.state.error) return this.props.children;
    return (
      <Notice tone="error" title="This page failed to display">
        <p>{this.state.error.message}</p>
        <button type="button" class="btn btn-small" onClick={() => location.reload()}>
          Reload the dashboard
        </button>
      </Notice>
    );
  }
}
