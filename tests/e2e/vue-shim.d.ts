// Single-file components, for the type checker (the widget's Vue host page imports one).
declare module '*.vue' {
  const component: import('vue').Component;
  export default component;
}
