/**
 * Who runs an export job, recorded on its row (`exports.worker`) as `role host pid start`, so
 * that another process can decide safely that the job's process is gone (docs/exports.md,
 * "Interrupted jobs"). On the same host the process decides: its pid must be alive and, where
 * /proc tells, started at the same instant of the same boot, so a reused pid is not taken for the
 * owner and a live process's job is never taken however long it is silent. A job run on another
 * host (a ledger on a shared disk) is judged by its heartbeat: silent for 10 minutes is gone.
 */
import { readFileSync } from 'node:fs';
import { hostname } from 'node:os';

/** `cli`: a txa command running the job in the foreground; `serve`: the export worker of `txa serve`. */
export type JobRole = 'cli' | 'serve';

export interface JobOwner {
  role: JobRole;
  host: string;
  pid: number;
  /** Boot id and start time of the process; '' when unknown. */
  start: string;
}

/** A job of another host whose heartbeat is older than this is taken to be dead. */
export const STALE_SECONDS = 10 * 60;

let bootId: string | undefined;

/** Boot id + start time (clock ticks since boot) of a process, from /proc; '' where there is none. */
function startIdentity(pid: number): string {
  try {
    bootId ??= readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim();
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Field 22; the command name (field 2) may hold spaces and parentheses, so count from its end.
    const startTicks = stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19];
    return startTicks ? `${bootId}/${startTicks}` : '';
  } catch {
    return '';
  }
}

const selfStart = startIdentity(process.pid);

/** This process as the owner of a job it runs in the given role. */
export function ownerOf(role: JobRole): string {
  return [role, hostname(), process.pid, selfStart || '-'].join(' ');
}

/** Whether a job's recorded owner is this process (in either role). */
export function ownedHere(worker: string | null): boolean {
  const owner = parseOwner(worker);
  return owner !== null && owner.host === hostname() && owner.pid === process.pid && owner.start === selfStart;
}

export function parseOwner(worker: string | null): JobOwner | null {
  if (!worker) return null;
  const parts = worker.split(' ');
  if (parts.length === 4 && (parts[0] === 'cli' || parts[0] === 'serve')) {
    return { role: parts[0], host: parts[1]!, pid: Number(parts[2]), start: parts[3] === '-' ? '' : parts[3]! };
  }
  // `host:pid`, written before jobs had roles, when only `txa serve` resumed them.
  const [host = '', pid = ''] = worker.split(':');
  return { role: 'serve', host, pid: Number(pid), start: '' };
}

function pidAlive(pid: number): boolean {
  if (!Number.isSafeInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Whether the process that owns a job is gone; `wallNow` in Unix seconds (heartbeats use the wall clock). */
export function ownerGone(owner: JobOwner | null, heartbeatTs: number | null, wallNow: number): boolean {
  if (!owner) return true;
  if (owner.host !== hostname()) return (heartbeatTs ?? 0) < wallNow - STALE_SECONDS;
  if (!pidAlive(owner.pid)) return true;
  const now = startIdentity(owner.pid);
  return owner.start !== '' && now !== '' && now !== owner.start;
}
