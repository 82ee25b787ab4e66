import { useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router';

/** Submits to /search/{search}. */
export function SearchBox({ id = 'header-search' }: { id?: string }) {
  const [query, setQuery] = useState('');
  const navigate = useNavigate();
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const text = query.trim();
    if (text) void navigate(`/search/${encodeURIComponent(text)}`);
  };
  return (
    <form role="search" className="search-box" onSubmit={submit}>
      <label htmlFor={id} className="visually-hidden">Hľadať v obchode</label>
      <input
        id={id}
        type="search"
        placeholder="Hľadať tehly, izolácie, farby…"
        value={query}
        onChange={(event) => setQuery(event.target.value)}
        autoComplete="off"
      />
      <button type="submit" className="button">Hľadať</button>
    </form>
  );
}
