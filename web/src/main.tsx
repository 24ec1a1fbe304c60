import { render } from 'preact';
import { App } from './app.tsx';
import { applyTheme, storedTheme } from './theme.ts';
import './styles.css';

applyTheme(storedTheme());
const root = document.getElementById('app');
if (root) render(<App />, root);
