/** How the console writes times, sizes and intervals, in Slovak. */
import { formatDate } from '@shop/shared-kernel/rules';

export const time = (iso: string | null) => (iso ? `${formatDate(iso)} ${iso.slice(11, 16)} UTC` : '—');

const decimal = (value: number) => value.toLocaleString('sk-SK', { maximumFractionDigits: 1 });
export const size = (bytes: number | null) =>
  bytes === null ? '—' : bytes >= 1024 * 1024 ? `${decimal(bytes / 1024 / 1024)} MB` : `${decimal(bytes / 1024)} kB`;
export const every = (ms: number) =>
  ms < 60_000 ? `${decimal(ms / 1000)} s` : ms % 3_600_000 === 0 ? `${ms / 3_600_000} h` : `${decimal(ms / 60_000)} min`;
export const seconds = (ms: number) => decimal(ms / 1000);

export const PART_LABELS: Record<string, string> = {
  shell: 'Shell (rámec)',
  catalog: 'Katalóg',
  checkout: 'Košík a objednávka',
  account: 'Zákaznícky účet',
  content: 'Obsah',
};
