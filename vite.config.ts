import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

/** Where `npm run dev` runs the API (scripts/dev.ts starts it there). */
export const DEV_API_PORT = 3001;
export const DEV_CLIENT_PORT = 3000;

const apiTarget = `http://127.0.0.1:${DEV_API_PORT}`;

export default defineConfig({
  root: import.meta.dirname,
  plugins: [react(), tailwindcss()],
  build: {
    // The server serves this folder and scripts/start.ts checks its index.html for staleness.
    outDir: 'dist/client',
    emptyOutDir: true,
  },
  server: {
    port: DEV_CLIENT_PORT,
    strictPort: true,
    // No changeOrigin: the API must see the browser's Host so cookies and origin checks match
    // what production (same origin) does.
    proxy: {
      '/api': { target: apiTarget },
      '/sanctum': { target: apiTarget },
    },
  },
});
