/**
 * The page's first script, inline in <head> (allowed by its hash in the Content-Security-Policy).
 * Until an island — or the whole app — has hydrated:
 * - a pointer down, a focus or a key inside it wakes it (`window.__artimWake(island)` once the
 *   islands loader is there; until then it is remembered in `window.__artimTouched`);
 * - a click on one of its buttons or a form submitted inside it would do nothing (or submit the
 *   form natively, putting its fields in the address): it is held back, queued in
 *   `window.__artimQueue` and the island woken. After hydration the queue is replayed
 *   (./replay.ts), and what was typed meanwhile is handed to the components.
 * Links are left alone: they work without JavaScript.
 */
export const CAPTURE_SCRIPT = `(function(){var w=window,q=w.__artimQueue=[],s=w.__artimTouched=[];function pending(t){for(var i=t&&t.closest?t.closest("[data-island]"):null;i;i=i.parentElement?i.parentElement.closest("[data-island]"):null)if(!i.hasAttribute("data-hydrated"))return i;return null}function wake(i){if(w.__artimWake)w.__artimWake(i);else s.push(i)}function hold(type){return function(e){var t=e.target;if(type==="click"&&t.closest&&t.closest("a[href],label,input,select,textarea,summary"))return;var i=pending(t);if(!i)return;e.preventDefault();e.stopImmediatePropagation();q.push({type:type,target:t});wake(i)}}function touch(e){var i=pending(e.target);if(i)wake(i)}document.addEventListener("click",hold("click"),true);document.addEventListener("submit",hold("submit"),true);["pointerdown","focusin","keydown"].forEach(function(type){document.addEventListener(type,touch,true)})})();`;
