// What the script-tag build gives the components for `react`: Preact's Component, createRef and
// createElement, nothing else. preact/compat adds about 1.2 KB gzip of React emulation (event and
// className rewriting, Suspense, hooks) these class components do not use, and the budget is
// 10 KB gzip for both components (decision 0115).
export { Component, createElement, createRef } from 'preact';
