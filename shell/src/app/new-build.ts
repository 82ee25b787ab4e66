/**
 * New builds: the shell polls the release registry (and checks it when the
 * tab regains focus). When it changed, the next navigation is a full page
 * load, so the shopper gets the new shell and areas together.
 */
import { useEffect, useRef } from 'react';
import { useLocation } from 'react-router';
import { bus } from '@shop/shared-kernel';
import { fetchRegistry } from '../areas/registry.ts';

let bootRevision: string | null = null;
let latestRevision: string | null = null;

export function setBootRevision(revision: string): void {
  bootRevision = revision;
  latestRevision = revision;
}

export function buildChanged(): boolean {
  return bootRevision !== null && latestRevision !== null && latestRevision !== bootRevision;
}

export async function checkForNewBuild(): Promise<boolean> {
  try {
    const registry = await fetchRegistry();
    if (registry.revision !== latestRevision && bootRevision !== null) {
      bus.emit('build:changed', { from: bootRevision, to: registry.revision });
    }
    latestRevision = registry.revision;
  } catch {
    // An unreachable registry is not a new build.
  }
  return buildChanged();
}

export function useNewBuildDetection(pollMs: number): void {
  const location = useLocation();
  const first = useRef(true);

  useEffect(() => {
    const check = () => void checkForNewBuild();
    const timer = window.setInterval(check, pollMs);
    const onVisible = () => document.visibilityState === 'visible' && check();
    window.addEventListener('focus', check);
    document.addEventListener('visibilitychange', onVisible);
    return () => {
      window.clearInterval(timer);
      window.removeEventListener('focus', check);
      document.removeEventListener('visibilitychange', onVisible);
    };
  }, [pollMs]);

  useEffect(() => {
    if (first.current) {
      first.current = false;
      return;
    }
    // The client-side navigation already changed the URL: load it fully.
    if (buildChanged()) window.location.reload();
  }, [location.key]);
}
