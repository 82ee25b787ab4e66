import { useEffect, useState } from 'react';
import { nextOpeningHoursChange, openingHoursText } from '@shop/shared-kernel/rules';
import { ClockIcon } from './icons.tsx';

/** The header's opening-hours text; re-renders when the Slovak clock crosses 15:30 or midnight. */
export function OpeningHours() {
  const [now, setNow] = useState(() => new Date());
  useEffect(() => {
    const delay = Math.max(1000, nextOpeningHoursChange(now).getTime() - Date.now() + 1000);
    const timer = window.setTimeout(() => setNow(new Date()), delay);
    return () => window.clearTimeout(timer);
  }, [now]);
  return (
    <p className="opening-hours">
      <ClockIcon />
      <span data-testid="opening-hours">{openingHoursText(now)}</span>
    </p>
  );
}
