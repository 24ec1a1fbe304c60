import preact from '@preact/preset-vite';
import { defineConfig } from 'vite';

// Static assets the gateway serves at `/`: hashed files under assets/ (cached for a year),
// index.html, the service worker and the manifest. No inline script anywhere (the page's CSP
// forbids it), so the module-preload polyfill, which Vite would inline, is off.
export default defineConfig({
  root: import.meta.dirname,
  plugins: [preact()],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    assetsDir: 'assets',
    modulePreload: { polyfill: false },
    assetsInlineLimit: 0,
    target: 'es2022',
  },
});
