// Entry point: the app state, the page, and the sandbox boot.
import { mount } from 'svelte';
import { AppState } from './app/app.svelte';
import App from './ui/App.svelte';
import './ui/global.css';

const app = new AppState({
  bootRuntime: async (state) => {
    state.setBoot({ state: 'booting', kind: null, detail: '', canRetryWebContainer: false });
    try {
      // Loaded on demand: just-bash is large and must stay out of the initial bundle.
      const { createEmbeddedRuntime } = await import('./runtime/embedded');
      const runtime = await createEmbeddedRuntime();
      state.setBoot({ state: 'ready', kind: 'embedded', detail: 'a shell in this tab, without Node.js', canRetryWebContainer: false });
      return runtime;
    } catch (error) {
      state.setBoot({ state: 'failed', kind: null, detail: error instanceof Error ? error.message : String(error), canRetryWebContainer: false });
      return null;
    }
  },
});

mount(App, { target: document.getElementById('app')!, props: { app } });
void app.init();
