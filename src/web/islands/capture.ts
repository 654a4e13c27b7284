/**
 * The page's first script, inline in <head> (allowed by its hash in the Content-Security-Policy):
 * until an island — or the whole app — has hydrated, a click on one of its buttons or a form
 * submitted inside it would do nothing (or submit the form natively, putting its fields in the
 * address). It is held back and queued in `window.__artimQueue`; `window.__artimWake(island)`,
 * once the islands runtime is there, hydrates that island at once. After hydration the queue is
 * replayed (./replay.ts). Links are left alone: they work without JavaScript.
 */
export const CAPTURE_SCRIPT = `(function(){var q=window.__artimQueue=[];function pending(t){for(var i=t&&t.closest?t.closest("[data-island]"):null;i;i=i.parentElement?i.parentElement.closest("[data-island]"):null)if(!i.hasAttribute("data-hydrated"))return i;return null}function hold(type){return function(e){var t=e.target;if(type==="click"&&t.closest&&t.closest("a[href],label,input,select,textarea,summary"))return;var i=pending(t);if(!i)return;e.preventDefault();e.stopImmediatePropagation();q.push({type:type,target:t});if(window.__artimWake)window.__artimWake(i)}}document.addEventListener("click",hold("click"),true);document.addEventListener("submit",hold("submit"),true)})();`;

