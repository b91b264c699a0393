import { render } from 'preact';

function App() {
  return (
    <main>
      <h1>Switchboard</h1>
      <p>The dashboard is being built.</p>
    </main>
  );
}

render(<App />, document.getElementById('app')!);
