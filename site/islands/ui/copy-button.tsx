// A "Copy" button for one value: the clipboard when the browser allows it (the button then reads
// "Copied" for a moment); otherwise the value's text is selected on the page and a note says how
// to copy it, so the value can still be taken when the clipboard is refused (an insecure origin,
// a permission prompt turned down).
import { useEffect, useState } from 'react';
import './copy-button.css';

type Outcome = 'idle' | 'copied' | 'selected';

/** `what` finishes the button's name for screen readers ("Copy the TXT record's value"); `targetId`
 *  is the element that shows the value, selected when the clipboard refuses. */
export default function CopyButton({ text, what, targetId }: { text: string; what: string; targetId: string }) {
  const [outcome, setOutcome] = useState<Outcome>('idle');
  useEffect(() => {
    if (outcome !== 'copied') return;
    const timer = setTimeout(() => setOutcome('idle'), 2500);
    return () => clearTimeout(timer);
  }, [outcome]);

  async function copy() {
    try {
      if (!navigator.clipboard) throw new Error('no clipboard');
      await navigator.clipboard.writeText(text);
      setOutcome('copied');
    } catch {
      const target = document.getElementById(targetId);
      const selection = window.getSelection();
      if (target && selection) {
        const range = document.createRange();
        range.selectNodeContents(target);
        selection.removeAllRanges();
        selection.addRange(range);
      }
      setOutcome('selected');
    }
  }

  return (
    <span className="copy-control">
      <button type="button" className="btn btn-secondary btn-sm copy-button" data-copied={outcome === 'copied' || undefined} onClick={() => void copy()}>
        {outcome === 'copied' ? 'Copied' : 'Copy'}
        <span className="sr-only"> {what}</span>
      </button>
      <span className="copy-note" role="status">
        {outcome === 'copied' ? <span className="sr-only">Copied {what}</span> : outcome === 'selected' ? 'Selected: press Ctrl+C (⌘C on a Mac) to copy.' : ''}
      </span>
    </span>
  );
}
