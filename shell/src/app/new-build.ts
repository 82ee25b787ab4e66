/**
 * New releases: the server tells open tabs of every registry change over a
 * server-sent event stream (/builds/events, within a second); the registry is
 * also polled now and then and checked when the tab regains focus, in case
 * the stream is down. When it changed, the next navigation is a full page
 * load, so the shopper gets the new shell and areas together, never two
 * versions of one area in one page load. The same stream carries the areas'
 * feature switches: those apply at once, no reload (the kernel's flag store).
 */
import { useEffect, useRef } from 'react';
import { useLocation } from 'react-router';
import { bus, useFlagStore } from '@shop/shared-kernel';
import type { FlagShares } from '@shop/shared-kernel/rules';
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

function noteRevision(revision: string): void {
  if (revision !== latestRevision && bootRevision !== null) bus.emit('build:changed', { from: bootRevision, to: revision });
  latestRevision = revision;
}

export const REGISTRY_EVENTS_URL = '/builds/events';

/**
 * Listens to the server's registry events while the tab is visible; the browser reconnects on its
 * own after a break. A hidden tab closes its stream (browsers allow few connections per host over
 * HTTP/1.1, and a shopper may keep many tabs open) and checks the registry when shown again.
 */
export function listenForNewBuilds(): () => void {
  if (typeof EventSource === 'undefined') return () => undefined;
  let source: EventSource | null = null;
  const open = () => {
    if (source) return;
    source = new EventSource(REGISTRY_EVENTS_URL);
    source.addEventListener('registry', (event) => {
      try {
        const { revision } = JSON.parse((event as MessageEvent<string>).data) as { revision: string | null };
        if (typeof revision === 'string') noteRevision(revision);
      } catch {
        // A malformed event is not a new build.
      }
    });
    source.addEventListener('flags', (event) => {
      try {
        const { flags } = JSON.parse((event as MessageEvent<string>).data) as { flags: FlagShares };
        if (flags && typeof flags === 'object') useFlagStore.setState({ flags });
      } catch {
        // A malformed event changes no switch.
      }
    });
  };
  const close = () => {
    source?.close();
    source = null;
  };
  const onVisibility = () => (document.visibilityState === 'hidden' ? close() : open());
  if (document.visibilityState !== 'hidden') open();
  document.addEventListener('visibilitychange', onVisibility);
  return () => {
    document.removeEventListener('visibilitychange', onVisibility);
    close();
  };
}

export async function checkForNewBuild(): Promise<boolean> {
  try {
    noteRevision((await fetchRegistry()).revision);
  } catch {
    // An unreachable registry is not a new build.
  }
  return buildChanged();
}

export function useNewBuildDetection(pollMs: number): void {
  const location = useLocation();
  const first = useRef(true);

  useEffect(() => listenForNewBuilds(), []);

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
