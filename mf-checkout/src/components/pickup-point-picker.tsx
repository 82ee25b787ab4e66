import { useEffect, useId, useState } from 'react';
import { resource } from '@shop/shared-kernel';
import { formatZip } from '@shop/shared-kernel/rules';
import { dataOf, LoadFailed, useResource } from '@shop/shared-kernel/react';
import type { PickupPoint } from '@shop/shared-kernel/contract';

type Position = { lat: number; lon: number };
type Locating = 'idle' | 'busy' | 'failed';

/** The typed search, settled for a moment before it is sent. */
function useSettled(value: string, ms = 250): string {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = window.setTimeout(() => setSettled(value), ms);
    return () => window.clearTimeout(timer);
  }, [value, ms]);
  return settled;
}

const describe = (point: PickupPoint) =>
  `${point.street}, ${formatZip(point.zip)} ${point.city}${point.distanceKm !== null ? ` · ${point.distanceKm.toLocaleString('sk-SK')} km` : ''}`;

/**
 * Shipping "Výdajné miesto": the shopper finds a pickup point by town or PSČ, or the nearest ones
 * when the browser tells where they are, and picks one (kept in the checkout draft).
 */
export function PickupPointPicker({ value, onChange }: { value: string | null; onChange: (code: string) => void }) {
  const id = useId();
  const [query, setQuery] = useState('');
  const [position, setPosition] = useState<Position | null>(null);
  const [locating, setLocating] = useState<Locating>('idle');
  const q = useSettled(query.trim());
  // A position to about ten metres: the same place asks the same question (and a cache may answer it).
  const near = position ? { lat: Number(position.lat.toFixed(4)), lon: Number(position.lon.toFixed(4)) } : {};
  const points = useResource(resource('GET /api/pickup-points', { query: { q: q || undefined, ...near } }), { select: dataOf });

  const locate = () => {
    if (!('geolocation' in navigator)) return setLocating('failed');
    setLocating('busy');
    navigator.geolocation.getCurrentPosition(
      ({ coords }) => {
        setPosition({ lat: coords.latitude, lon: coords.longitude });
        setQuery('');
        setLocating('idle');
      },
      () => setLocating('failed'),
      { timeout: 10_000, maximumAge: 600_000 },
    );
  };

  return (
    <fieldset className="chk-methods chk-pickup" data-testid="pickup-point-picker">
      <legend>Výdajné miesto</legend>
      <label htmlFor={`${id}-q`}>Mesto alebo PSČ</label>
      <div className="chk-pickup__search">
        <input
          id={`${id}-q`}
          type="search"
          maxLength={60}
          value={query}
          placeholder="napr. Žilina alebo 010 01"
          onChange={(event) => setQuery(event.target.value)}
        />
        <button type="button" className="button" onClick={locate} aria-busy={locating === 'busy'}>
          {locating === 'busy' ? 'Zisťujem polohu…' : 'Najbližšie ku mne'}
        </button>
      </div>
      {locating === 'failed' && (
        <p className="chk-message" role="status">
          Polohu sa nepodarilo zistiť. Vyhľadajte výdajné miesto podľa mesta alebo PSČ.
        </p>
      )}
      {points.status === 'error' && (
        <LoadFailed inline className="chk-message chk-message--error" buttonClassName="chk-link-button" onRetry={points.reload}>
          Výdajné miesta sa nepodarilo načítať.
        </LoadFailed>
      )}
      {points.status === 'ready' && points.data.length === 0 && (
        <p className="chk-message" role="status">
          Pre „{q}“ sme nenašli žiadne výdajné miesto. Skúste iné mesto alebo PSČ.
        </p>
      )}
      {points.status === 'ready' && points.data.length > 0 && (
        <div className="chk-pickup__list" role="radiogroup" aria-label="Výdajné miesta">
          {points.data.map((point) => (
            <label key={point.code} className="chk-method">
              <input
                type="radio"
                name="pickup-point"
                value={point.code}
                checked={value === point.code}
                onChange={() => onChange(point.code)}
              />
              <span className="chk-method__name">{point.name}</span>
              <span />
              <small>
                {describe(point)}
                <br />
                {point.hours}
              </small>
            </label>
          ))}
        </div>
      )}
    </fieldset>
  );
}
