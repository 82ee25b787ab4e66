import { useEffect, useState } from 'react';

/** What an operator call answers; null while it loads or when it failed (the section is then left out). */
export function useOperatorData<T>(load: () => Promise<{ data: T }>): T | null {
  const [data, setData] = useState<T | null>(null);
  useEffect(() => {
    let current = true;
    void load().then(
      (answer) => current && setData(answer.data),
      () => current && setData(null),
    );
    return () => {
      current = false;
    };
  }, [load]);
  return data;
}
