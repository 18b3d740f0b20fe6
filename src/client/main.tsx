import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/App';
import './styles.css';

// Follow the system theme until the preferences screen exists; a class (not the media query) drives
// the styles so that a later in-app choice can override it.
const darkQuery = window.matchMedia('(prefers-color-scheme: dark)');
const applySystemTheme = () => document.documentElement.classList.toggle('dark', darkQuery.matches);
applySystemTheme();
darkQuery.addEventListener('change', applySystemTheme);

const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root element');

createRoot(root).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
