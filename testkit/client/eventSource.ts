import type { FetchLike } from '../../src/client/data/net/apiClient';

/**
 * An EventSource for Node over a device's cookie-keeping fetch: the real server's stream, read and
 * parsed as a browser would (events by name, `data` joined; a failed open, or the end of the stream,
 * is an `error`). `opened` counts the streams it opened, for tests that check a reconnect.
 */
export function eventSourceOver(fetch: FetchLike): { EventSource: typeof EventSource; opened: () => number } {
  let opened = 0;
  class NodeEventSource extends EventTarget {
    readonly url: string;
    readonly withCredentials = true;
    readyState = 0;
    private readonly controller = new AbortController();
    constructor(url: string | URL) {
      super();
      this.url = String(url);
      void this.run();
    }
    private async run() {
      try {
        const response = await fetch(this.url, {
          headers: { accept: 'text/event-stream' },
          signal: this.controller.signal,
        });
        if (!response.ok || !response.body) throw new Error(`stream answered ${response.status}`);
        opened++;
        this.readyState = 1;
        this.dispatchEvent(new Event('open'));
        const reader = response.body.getReader();
        const decoder = new TextDecoder();
        let text = '';
        for (;;) {
          const { value, done } = await reader.read();
          if (done) break;
          text += decoder.decode(value, { stream: true });
          let end = text.indexOf('\n\n');
          while (end >= 0) {
            this.dispatch(text.slice(0, end));
            text = text.slice(end + 2);
            end = text.indexOf('\n\n');
          }
        }
        throw new Error('the stream ended');
      } catch {
        if (this.readyState === 2) return;
        this.readyState = 2;
        this.dispatchEvent(new Event('error'));
      }
    }
    private dispatch(block: string) {
      let type = 'message';
      const data: string[] = [];
      for (const line of block.split('\n')) {
        if (line.startsWith('event:')) type = line.slice(6).trim();
        else if (line.startsWith('data:')) data.push(line.slice(5).trimStart());
      }
      if (data.length > 0 && this.readyState !== 2)
        this.dispatchEvent(new MessageEvent(type, { data: data.join('\n') }));
    }
    close() {
      this.readyState = 2;
      this.controller.abort();
    }
  }
  return { EventSource: NodeEventSource as unknown as typeof EventSource, opened: () => opened };
}
