/** What the load rows read of the machine's processes, from /proc. */
import { readFileSync, readdirSync } from 'node:fs';

/** CPU seconds (user + system) a process has used; 0 once it is gone. */
export function cpuSeconds(pid: number): number {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    // utime and stime are fields 14 and 15 of the line, 12 and 13 after "pid (comm) ".
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return 0;
  }
}

export const cpuOf = (pids: number[]) => pids.reduce((sum, pid) => sum + cpuSeconds(pid), 0);

/**
 * CPU seconds of a process and its children: its own, its children's that ended (cutime, cstime),
 * and its children's still running (the server's renderer processes).
 */
export function cpuWithChildren(pid: number): number {
  let total = 0;
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    total += (Number(fields[11]) + Number(fields[12]) + Number(fields[13]) + Number(fields[14])) / 100;
  } catch {
    return 0;
  }
  for (const entry of readdirSync('/proc')) {
    if (/^\d+$/.test(entry) && parentOf(Number(entry)) === pid) total += cpuSeconds(Number(entry));
  }
  return total;
}

export function procStatusMb(pid: number, field: 'VmHWM' | 'VmRSS'): number {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    return Number(new RegExp(`${field}:\\s+(\\d+) kB`).exec(status)?.[1] ?? 0) / 1024;
  } catch {
    return 0;
  }
}

/** The processes whose command name is `comm` (postgres, redis-server, nginx). */
export function processesNamed(comm: string): number[] {
  return readdirSync('/proc')
    .filter((entry) => /^\d+$/.test(entry))
    .map(Number)
    .filter((pid) => {
      try {
        return readFileSync(`/proc/${pid}/comm`, 'utf8').trim() === comm;
      } catch {
        return false;
      }
    });
}

/** The parent of a process, or 0 once it is gone. */
export function parentOf(pid: number): number {
  try {
    return Number(readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ')[1]);
  } catch {
    return 0;
  }
}

/** Proportional resident memory (shared pages divided among their users), summed, in MB. */
export function pssMb(pids: number[]): number {
  let kb = 0;
  for (const pid of pids) {
    try {
      kb += Number(/^Pss:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8'))?.[1] ?? 0);
    } catch {
      // Gone meanwhile (a PostgreSQL backend that ended).
    }
  }
  return kb / 1024;
}
