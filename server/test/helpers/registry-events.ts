/**
 * An open tab's view of `GET /builds/events`: the registry revisions the server sends, one at a
 * time, as the shell reads them.
 */
export type RegistryEventStream = {
  /** The next revision the stream sends (waits for it). */
  nextRevision(): Promise<string>;
  /** Closes the stream. */
  close(): void;
  contentType: string | null;
};

export async function openRegistryEvents(base: string): Promise<RegistryEventStream> {
  const controller = new AbortController();
  const response = await fetch(`${base}/builds/events`, { signal: controller.signal });
  const reader = response.body!.getReader();
  const decoder = new TextDecoder();
  let text = '';
  return {
    contentType: response.headers.get('content-type'),
    close: () => controller.abort(),
    async nextRevision() {
      for (;;) {
        const match = /event: registry\ndata: (\{.*\})\n\n/.exec(text);
        if (match) {
          text = text.slice(match.index + match[0].length);
          return (JSON.parse(match[1]!) as { revision: string }).revision;
        }
        const { value, done } = await reader.read();
        if (done) throw new Error('stream ended');
        text += decoder.decode(value);
      }
    },
  };
}
