/**
 * Reads a server-sent event stream as text: `until(needle)` reads on until the text so far holds
 * the needle (and fails if the stream ends first); `untilEnd()` reads until the server closes it
 * and returns the text; `text()` is everything read.
 */
export function eventStreamReader(res: Response) {
  const reader = res.body!.getReader();
  const decoder = new TextDecoder();
  let text = '';
  return {
    text: () => text,
    async until(needle: string) {
      while (!text.includes(needle)) {
        const chunk = await reader.read();
        if (chunk.done) throw new Error(`stream ended before ${needle}: ${text}`);
        text += decoder.decode(chunk.value);
      }
    },
    async untilEnd() {
      for (;;) {
        const chunk = await reader.read();
        if (chunk.done) return text;
        text += decoder.decode(chunk.value);
      }
    },
    cancel: () => reader.cancel().catch(() => {}),
  };
}
