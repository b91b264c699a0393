import { render } from 'preact';
import { App } from './app.js';
import { installFocusKeeper } from './lib/focus-keeper.js';
import './styles.css';

installFocusKeeper();
render(<App />, document.getElementById('app')!);
