// The ES module build's isolation: each component renders into its own shadow root (through a
// portal), with the same stylesheet as the script-tag build. The shadow host is an element of
// our own (<localrank-widget>, like the script-tag build's custom elements), so a host page's
// `div { display: none !important }` or `.container > div` rules do not match it.
import { createElement, useState, type ReactNode } from 'react';
import { createPortal } from 'react-dom';
import { adoptStyles } from './styles.ts';

/** The shadow host's tag: any valid custom element name may hold a shadow root, defined or not. */
export const REACT_HOST_TAG = 'localrank-widget';

export function Isolated({ children }: { children: ReactNode }) {
  const [root, setRoot] = useState<ShadowRoot | null>(null);
  const attach = (host: HTMLElement | null) => {
    if (!host || root) return;
    const shadow = host.shadowRoot ?? host.attachShadow({ mode: 'open' });
    adoptStyles(shadow);
    setRoot(shadow);
  };
  return createElement(REACT_HOST_TAG, { ref: attach, style: { display: 'block' } }, root && createPortal(children, root));
}
