// The Vue host page's single-file component (tests/e2e/widget-vue-host.vue), for the type
// checker: the widget-frameworks spec's build resolves this name to it and compiles it.
declare module 'virtual:widget-vue-host' {
  const component: import('vue').Component;
  export default component;
}
