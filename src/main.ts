// Entry point: the app state, the page, and the sandbox boot.
import { mount } from 'svelte';
import { AppState } from './app/app.svelte';
import { createBrowserBoot } from './app/browser-boot';
import App from './ui/App.svelte';
import './ui/global.css';

const app = new AppState({ bootRuntime: createBrowserBoot() });

mount(App, { target: document.getElementById('app')!, props: { app } });
void app.init();
