// The Vue 3 site's entry: mounts the app with the two agencies' keys from the page
// (tests/e2e/widget-frameworks.spec.ts bundles it with Vue, as the agency's own build would).
import { createApp } from 'vue';
// The app's single-file component (widget-vue-host.vue), compiled by the spec's build.
import App from 'virtual:widget-vue-host';

const app = document.getElementById('app')!;
createApp(App, { agencies: JSON.parse(app.dataset.agencies!) }).mount(app);
