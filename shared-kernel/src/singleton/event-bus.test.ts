import { describe, expect, it, vi } from 'vitest';
import { bus } from './event-bus.ts';

describe('bus', () => {
  it('delivers typed events to listeners', () => {
    const listener = vi.fn();
    bus.on('route:not-found', listener);
    bus.emit('route:not-found', { path: '/neexistuje' });
    expect(listener).toHaveBeenCalledWith({ path: '/neexistuje' });
    bus.off('route:not-found', listener);
    bus.emit('route:not-found', { path: '/znova' });
    expect(listener).toHaveBeenCalledTimes(1);
  });
  it('supports wildcard listeners', () => {
    const listener = vi.fn();
    bus.on('*', listener);
    bus.emit('build:changed', { from: 'a', to: 'b' });
    expect(listener).toHaveBeenCalledWith('build:changed', { from: 'a', to: 'b' });
    bus.off('*', listener);
  });
});
