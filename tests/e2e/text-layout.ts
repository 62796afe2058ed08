// What a page's layout does to its text, measured in the browser (issue 40): words broken inside
// across two lines, text boxes printed over each other, and boxes that clip what they hold. A
// page-level overflow check sees none of these when the card clips its own overflow.
//
// - A word is a run of letters and digits (hyphens, slashes and spaces are where a line may end).
//   Each word's rendered boxes (Range.getClientRects) must sit on one line. Scripts written without
//   spaces (Chinese, Japanese, Thai, …) break between characters by design and are skipped, as are
//   web and e-mail addresses, which may break anywhere.
// - Overlap: the visible rectangles of every two different text nodes may not cover each other by
//   more than a sliver (2 px across, 40% of the shorter line's height down).
// - Clipped: an element that hides its overflow (overflow hidden or clip) may not hold more than
//   it shows (scrollWidth > clientWidth, or the same vertically); an element that scrolls must be
//   reachable from the keyboard (tabindex) and named, so its headers and rows can be read.
import type { Page } from '@playwright/test';

export interface TextLayoutFindings {
  brokenWords: string[];
  overlaps: string[];
  clipped: string[];
  unnamedScrollers: string[];
  pageOverflow: number;
}

export function textLayout(page: Page, root = 'main'): Promise<TextLayoutFindings> {
  return page.evaluate((rootSelector) => {
    const scope = document.querySelector(rootSelector) ?? document.body;
    const describe = (el: Element | null) => {
      const parts: string[] = [];
      for (let e = el; e && e !== document.body && parts.length < 3; e = e.parentElement) {
        const cls = typeof e.className === 'string' && e.className ? `.${e.className.trim().split(/\s+/).slice(0, 2).join('.')}` : '';
        parts.unshift(`${e.tagName.toLowerCase()}${cls}`);
      }
      return parts.join(' > ');
    };
    // Text no one sees: hidden, clipped away on purpose (.sr-only), or in a closed box.
    const hiddenCache = new Map<Element, boolean>();
    const hidden = (el: Element): boolean => {
      if (hiddenCache.has(el)) return hiddenCache.get(el)!;
      const s = getComputedStyle(el);
      let h = s.display === 'none' || s.visibility === 'hidden' || s.opacity === '0' || (s.clip !== 'auto' && s.clip !== '') || s.clipPath !== 'none';
      if (!h && el.parentElement) h = hidden(el.parentElement);
      hiddenCache.set(el, h);
      return h;
    };
    // The part of the page an element's text can show in: its clipping ancestors' boxes.
    const clipCache = new Map<Element, DOMRect | null>();
    const clipOf = (el: Element | null): DOMRect | null => {
      if (!el || el === document.documentElement) return null;
      if (clipCache.has(el)) return clipCache.get(el)!;
      const parent = clipOf(el.parentElement);
      const s = getComputedStyle(el);
      let rect = parent;
      if (s.overflowX !== 'visible' || s.overflowY !== 'visible') {
        const r = el.getBoundingClientRect();
        const own = new DOMRect(r.left + el.clientLeft, r.top + el.clientTop, el.clientWidth, el.clientHeight);
        rect = parent ? intersect(own, parent) : own;
      }
      clipCache.set(el, rect);
      return rect;
    };
    function intersect(a: DOMRect, b: DOMRect): DOMRect {
      const left = Math.max(a.left, b.left);
      const top = Math.max(a.top, b.top);
      return new DOMRect(left, top, Math.max(0, Math.min(a.right, b.right) - left), Math.max(0, Math.min(a.bottom, b.bottom) - top));
    }

    const NO_SPACES = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Thai}\p{Script=Lao}\p{Script=Khmer}\p{Script=Myanmar}]/u;
    const ADDRESS = /(https?:\/\/|www\.|@|\.[a-z]{2,}\/|\.(com|org|net|example)\b)/i;
    const brokenWords: string[] = [];
    const boxes: Array<{ rect: DOMRect; node: Text }> = [];
    const walker = document.createTreeWalker(scope, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode() as Text | null; node; node = walker.nextNode() as Text | null) {
      const text = node.data;
      const parent = node.parentElement;
      if (!parent || !text.trim() || hidden(parent) || ['SCRIPT', 'STYLE', 'TITLE', 'OPTION'].includes(parent.tagName)) continue;
      const clip = clipOf(parent);
      const range = document.createRange();
      range.selectNodeContents(node);
      for (const r of range.getClientRects()) {
        const visible = clip ? intersect(r, clip) : r;
        if (visible.width > 0.5 && visible.height > 0.5) boxes.push({ rect: visible, node });
      }
      // Words: each must be on one line.
      let offset = 0;
      for (const token of text.split(/(\s+)/)) {
        const start = offset;
        offset += token.length;
        if (!token.trim() || ADDRESS.test(token)) continue;
        for (const m of token.matchAll(/[\p{L}\p{M}\p{N}'’]+/gu)) {
          const word = m[0];
          if ([...word].length < 2 || NO_SPACES.test(word)) continue;
          const wr = document.createRange();
          wr.setStart(node, start + m.index);
          wr.setEnd(node, start + m.index + word.length);
          const rects = [...wr.getClientRects()].filter((r) => r.width > 0 && r.height > 0);
          if (rects.length < 2) continue;
          const tops = rects.map((r) => r.top);
          const minHeight = Math.min(...rects.map((r) => r.height));
          if (Math.max(...tops) - Math.min(...tops) > minHeight / 2) {
            // Where it breaks: the text of each line.
            const pieces: string[] = [];
            let line = '';
            let lastTop = Number.NaN;
            for (let i = 0; i < word.length; i++) {
              const cr = document.createRange();
              cr.setStart(node, start + m.index + i);
              cr.setEnd(node, start + m.index + i + 1);
              const top = cr.getClientRects()[0]?.top ?? lastTop;
              if (!Number.isNaN(lastTop) && Math.abs(top - lastTop) > minHeight / 2) { pieces.push(line); line = ''; }
              line += word[i];
              lastTop = top;
            }
            pieces.push(line);
            brokenWords.push(`${pieces.join('|')} in ${describe(parent)}`);
          }
        }
      }
    }

    // Overlap: a sweep over the boxes by their top edge.
    const overlaps: string[] = [];
    const seen = new Set<string>();
    boxes.sort((a, b) => a.rect.top - b.rect.top);
    for (let i = 0; i < boxes.length; i++) {
      const a = boxes[i]!;
      for (let j = i + 1; j < boxes.length && boxes[j]!.rect.top < a.rect.bottom; j++) {
        const b = boxes[j]!;
        if (a.node === b.node) continue;
        const w = Math.min(a.rect.right, b.rect.right) - Math.max(a.rect.left, b.rect.left);
        const h = Math.min(a.rect.bottom, b.rect.bottom) - Math.max(a.rect.top, b.rect.top);
        if (w > 2 && h > 0.4 * Math.min(a.rect.height, b.rect.height)) {
          const key = `${a.node.data.trim()}⟂${b.node.data.trim()}`;
          if (seen.has(key)) continue;
          seen.add(key);
          overlaps.push(`"${a.node.data.trim().slice(0, 40)}" over "${b.node.data.trim().slice(0, 40)}" in ${describe(a.node.parentElement)} / ${describe(b.node.parentElement)}`);
        }
      }
    }

    const clipped: string[] = [];
    const unnamedScrollers: string[] = [];
    for (const el of scope.querySelectorAll('*')) {
      if (hidden(el) || !(el.textContent ?? '').trim()) continue;
      const s = getComputedStyle(el);
      const cutX = ['hidden', 'clip'].includes(s.overflowX) && el.scrollWidth > el.clientWidth + 1;
      const cutY = ['hidden', 'clip'].includes(s.overflowY) && el.scrollHeight > el.clientHeight + 1;
      if (cutX || cutY) clipped.push(`${describe(el)} (${cutX ? `${el.scrollWidth} px in ${el.clientWidth}` : `${el.scrollHeight} px high in ${el.clientHeight}`}): "${(el.textContent ?? '').trim().slice(0, 50)}"`);
      const scrolls = (['auto', 'scroll'].includes(s.overflowX) && el.scrollWidth > el.clientWidth + 1) || (['auto', 'scroll'].includes(s.overflowY) && el.scrollHeight > el.clientHeight + 1);
      if (scrolls && el !== document.scrollingElement) {
        const named = el.getAttribute('aria-label') || el.getAttribute('aria-labelledby');
        if ((el as HTMLElement).tabIndex < 0 || !named) unnamedScrollers.push(describe(el));
      }
    }
    const pageOverflow = Math.max(0, document.documentElement.scrollWidth - document.documentElement.clientWidth);
    return { brokenWords, overlaps, clipped, unnamedScrollers, pageOverflow };
  }, root);
}
