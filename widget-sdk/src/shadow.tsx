// The ES module build's isolation: each component renders into its own shadow root (through a
// portal), with the same stylesheet as the script-tag build.
import { useState, type ReactNode } from 'react';
import { createPortal } from 'react-dom';
import { adoptStyles } from './styles.ts';

export function Isolated({ children }: { children: ReactNode }) {
  const [root, setRoot] = useState<ShadowRoot | null>(null);
  const attach = (host: HTMLDivElement | null) => {
    if (!host || root) return;
    const shadow = host.shadowRoot ?? host.attachShadow({ mode: 'open' });
    adoptStyles(shadow);
    setRoot(shadow);
  };
  return <div ref={attach}>{root && createPortal(children, root)}</div>;
}
