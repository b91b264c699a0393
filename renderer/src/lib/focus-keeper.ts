/**
 * Keeps keyboard focus where the user acted (issue 28.6). A button that turns disabled while its
 * action runs (Start, Save…), or is replaced by its result (Make default → Clear default), loses
 * focus, and the browser drops it on <body>: the next Tab starts again at the top of the page.
 *
 * The keeper notices that loss (a focused element disabled or removed, focus on <body>) and puts
 * focus back: on the same element when it can still take it, else on the element that replaced
 * it (same label in the same place), else on the first control near it, else on its panel. When
 * the element was only disabled for the time of its action, focus returns to it once it is
 * enabled again. Focus the user moved on purpose (a click elsewhere, Tab, another window) is
 * never touched: only a loss to <body> of an element that can no longer hold focus counts.
 */

/** Controls, enabled or not: a disabled one may be the result that is still busy. */
const CONTROLS = 'button, a[href], input, select, textarea, [tabindex]:not([tabindex="-1"])';

interface Lost {
  el: HTMLElement;
  /** The element's ancestors at the time it had focus, nearest first (it may be gone since). */
  ancestors: HTMLElement[];
  label: string;
}

/** Where focus is parked while the element it belongs to is disabled (its action still runs). */
let parked: { lost: Lost; at: HTMLElement } | null = null;
let last: Lost | null = null;

export function installFocusKeeper(doc: Document = document): () => void {
  const onFocusIn = (e: FocusEvent) => {
    const el = e.target as HTMLElement;
    if (parked && el !== parked.at) parked = null;
    if (el === doc.body || el.tagName === 'MAIN') return;
    last = { el, ancestors: ancestorsOf(el), label: labelOf(el) };
  };
  // Removal fires no focusout in every browser, and disabling may not either: watch the DOM.
  const observer = new MutationObserver(() => {
    if (parked && doc.activeElement === parked.at) {
      const { lost } = parked;
      // Enabled again: back to it. Replaced by its result (Make default → Clear default): there.
      if (lost.el.isConnected && !lost.el.hasAttribute('disabled')) {
        parked = null;
        lost.el.focus({ preventScroll: true });
      } else if (!lost.el.isConnected) {
        parked = null;
        restore(lost);
      }
      return;
    }
    if (doc.activeElement && doc.activeElement !== doc.body) return;
    if (!last || !cannotHoldFocus(last.el)) return;
    restore(last);
  });
  const onFocusOut = (e: FocusEvent) => {
    if (e.relatedTarget) return;
    // Decide once the browser has settled where focus went.
    requestAnimationFrame(() => {
      if (last && (doc.activeElement === doc.body || doc.activeElement === null) && cannotHoldFocus(last.el)) restore(last);
    });
  };
  doc.addEventListener('focusin', onFocusIn);
  doc.addEventListener('focusout', onFocusOut);
  observer.observe(doc.body, { subtree: true, childList: true, attributes: true, attributeFilter: ['disabled'] });
  return () => {
    doc.removeEventListener('focusin', onFocusIn);
    doc.removeEventListener('focusout', onFocusOut);
    observer.disconnect();
  };
}

function cannotHoldFocus(el: HTMLElement): boolean {
  return !el.isConnected || el.hasAttribute('disabled');
}

function restore(lost: Lost): void {
  last = null;
  const { el } = lost;
  if (el.isConnected) return park(lost);
  const place = lost.ancestors.find((a) => a.isConnected && visible(a));
  if (!place) return;
  const candidates = [...place.querySelectorAll<HTMLElement>(CONTROLS)].filter(visible);
  const twin = candidates.find((c) => c.tagName === el.tagName && labelOf(c) === lost.label);
  const target = twin ?? candidates[0];
  if (!target) return focusableBox(place).focus({ preventScroll: true });
  // The result may still be busy (disabled until the list reloads): wait for it the same way.
  if (target.hasAttribute('disabled')) return park({ el: target, ancestors: ancestorsOf(target), label: labelOf(target) });
  target.focus({ preventScroll: true });
}

/** Disabled while its action runs: hold focus on its panel, give it back when enabled. */
function park(lost: Lost): void {
  const at = holder(lost);
  if (!at) return;
  parked = { lost, at };
  at.focus({ preventScroll: true });
}

/** An enabled control next to the element, else its panel (made focusable by script only). */
function holder(lost: Lost): HTMLElement | null {
  const place = lost.ancestors.find((a) => a.isConnected && visible(a) && a.matches('section, form, dialog, li, [role="region"], main'));
  return place ? focusableBox(place) : null;
}

function focusableBox(el: HTMLElement): HTMLElement {
  if (!el.hasAttribute('tabindex')) el.setAttribute('tabindex', '-1');
  return el;
}

function ancestorsOf(el: HTMLElement): HTMLElement[] {
  const out: HTMLElement[] = [];
  for (let p = el.parentElement; p && p.tagName !== 'BODY'; p = p.parentElement) out.push(p);
  return out;
}

function labelOf(el: HTMLElement): string {
  return (el.getAttribute('aria-label') ?? el.textContent ?? '').trim();
}

function visible(el: HTMLElement): boolean {
  return el.getClientRects().length > 0;
}
