/** Builds the web application into web/dist: hashed assets that `tolk serve` serves at `/`. */
import vue from '@vitejs/plugin-vue';
import { defineConfig } from 'vite';

export default defineConfig({
  root: new URL('.', import.meta.url).pathname,
  plugins: [vue()],
  build: { target: 'es2022', outDir: 'dist', emptyOutDir: true, assetsDir: 'assets', sourcemap: false },
  // `npm run dev:web` proxies the API to a `tolk serve` on 8080.
  server: { proxy: { '/api': 'http://127.0.0.1:8080' } },
});
