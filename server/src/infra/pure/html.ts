/**
 * The one HTML escape of the API: pages, e-mails and the SVG pictures write text through it.
 * Escapes the five characters that matter in text and in quoted attribute values (& < > " ').
 */
const ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => ENTITIES[char]!);
}
