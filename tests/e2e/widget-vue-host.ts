// The Vue 3 site's entry: mounts the app with the two agencies' keys from the page
// (tests/e2e/widget-frameworks.spec.ts bundles it with Vue, as the agency's own build would).
import { createApp } from 'vue';
import App from './widget-vue-host.vue';

const app = document.getElementById('app')!;
createApp(App, { agencies: JSON.parse(app.dataset.agencies!) }).mount(app);
