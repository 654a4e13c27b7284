import { EARLY_TOGGLE_ATTR, LOADER_META, WAKING_ATTR } from './attrs';

/**
 * The page's first script, inline in <head> (allowed by its hash in the Content-Security-Policy).
 * Until an island — or the whole app — has hydrated:
 * - a pointer down, a focus or a key inside it wakes it (`window.__artimWake(island)` once the
 *   islands loader is there; until then it is remembered in `window.__artimTouched`);
 * - a click on one of its buttons or a form submitted inside it would do nothing (or submit the
 *   form natively, putting its fields in the address): it is held back, queued in
 *   `window.__artimQueue` and the island woken. After hydration the queue is replayed
 *   (./replay.ts), and what was typed meanwhile is handed to the components.
 * - a click on a button marked `data-early-toggle` (./attrs.ts) is answered at once: what the
 *   button controls (`aria-controls`) is shown or hidden and `aria-expanded` follows, so a phone's
 *   menu opens at the tap, before React has arrived; the click is held all the same, and its
 *   replay sets the component's state to what the visitor already sees. Escape closes what such a
 *   button opened, and the click that opened it is no longer held: the replay ends closed too.
 * - while a held click or submit waits for its island, the island is marked `aria-busy="true"`
 *   and the page `<html data-waking>`: the pointer shows progress over it and a thin bar runs at
 *   the top of the screen (theme.css), until the island is live (./replay.ts clears both).
 * - a key that a menu or a list answers (`HELD_KEYS`), pressed inside an island before it is live,
 *   is queued too (not held back: it has no action of its own to stop) and replayed after the
 *   clicks held before it, in order.
 * An island inside a live one is live: the app renders islands' components itself, and those a
 *   page it moved to without a load shows were never marked (the app's root is, at hydration).
 * Links are left alone: they work without JavaScript. The queue is always `window.__artimQueue`,
 * which the replay of an island replaces with what is left for the others.
 *
 * On a page whose islands all wait (a `<meta name="artim-islands">` names the loader instead of a
 * script tag: server/web/renderer.ts), it adds the loader's module script once the document is
 * read and its first contentful paint is on the screen (the frame after it, where the browser does
 * not report paints; a second after the document at the latest, as in a tab that paints nothing),
 * so that fetching it holds up neither the first paint nor the largest (docs/decisions/0034).
 */
/**
 * Keys a component on a public page answers (a menu's arrows, Escape) that do nothing by
 * themselves in a page not yet live: pressed inside an island before it is, they are held and
 * replayed after hydration, to the element that had the focus. Not in a text field (they move its
 * caret), nor with a modifier; Tab moves the focus natively, Enter and Space on a button make a
 * click, held as one, and what is typed is the field's own (./replay.ts hands it over).
 */
export const HELD_KEYS = ['ArrowDown', 'ArrowUp', 'ArrowLeft', 'ArrowRight', 'Home', 'End', 'PageDown', 'PageUp', 'Escape'];

export const CAPTURE_SCRIPT = `(function(){var KEYS=/^(${HELD_KEYS.join("|")})$/,w=window,s=w.__artimTouched=[];w.__artimQueue=[];function pending(t){var p=null;for(var i=t&&t.closest?t.closest("[data-island]"):null;i;i=i.parentElement?i.parentElement.closest("[data-island]"):null){if(i.hasAttribute("data-hydrated"))return null;p=p||i}return p}function wake(i){if(w.__artimWake)w.__artimWake(i);else s.push(i)}function hold(type){return function(e){var t=e.target;if(type==="click"&&t.closest&&t.closest("a[href],label,input,select,textarea,summary"))return;var i=pending(t);if(!i)return;e.preventDefault();e.stopImmediatePropagation();if(type==="click")toggle(t);w.__artimQueue.push({type:type,target:t});busy(i);wake(i)}}function busy(i){i.setAttribute("aria-busy","true");document.documentElement.setAttribute("${WAKING_ATTR}","")}function toggle(t){var b=t.closest&&t.closest("button[${EARLY_TOGGLE_ATTR}]"),c=b&&document.getElementById(b.getAttribute("aria-controls")||"");if(!c)return;var o=b.getAttribute("aria-expanded")!=="true";b.setAttribute("aria-expanded",String(o));c.hidden=!o}function touch(e){var t=e.target,i=pending(t);if(e.key==="Escape")escape();if(!i)return;if(e.type==="keydown"&&KEYS.test(e.key)&&!e.ctrlKey&&!e.metaKey&&!e.altKey&&!(t.closest&&t.closest("input,select,textarea,[contenteditable]"))){w.__artimQueue.push({type:"keydown",target:t,key:e.key,code:e.code,shiftKey:e.shiftKey});busy(i)}wake(i)}function escape(){document.querySelectorAll("button[${EARLY_TOGGLE_ATTR}][aria-expanded=true]").forEach(function(b){if(!pending(b))return;toggle(b);var q=w.__artimQueue;for(var k=q.length;k--;)if(q[k].type==="click"&&b.contains(q[k].target)){q.splice(k,1);break}})}document.addEventListener("click",hold("click"),true);document.addEventListener("submit",hold("submit"),true);["pointerdown","focusin","keydown"].forEach(function(type){document.addEventListener(type,touch,true)});function loader(){var m=document.querySelector('meta[name="${LOADER_META}"]'),done=false;if(!m)return;function add(){if(done)return;done=true;var x=document.createElement("script");x.type="module";x.src=m.content;document.head.appendChild(x)}setTimeout(add,1000);try{if(PerformanceObserver.supportedEntryTypes.indexOf("paint")<0)throw 0;new PerformanceObserver(function(l,o){if(l.getEntriesByName("first-contentful-paint").length){o.disconnect();setTimeout(add,0)}}).observe({type:"paint",buffered:true})}catch(e){requestAnimationFrame(function(){setTimeout(add,0)})}}if(document.readyState==="loading")document.addEventListener("DOMContentLoaded",loader);else loader()})();`;
