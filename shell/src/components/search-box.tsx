import { useEffect, useId, useRef, useState, type FormEvent, type KeyboardEvent } from 'react';
import { useNavigate } from 'react-router';
import { call } from '@shop/shared-kernel';
import { useAfterHydration } from '@shop/shared-kernel/react';
import { formatPrice, SEARCH_TEXT_MAX } from '@shop/shared-kernel/rules';
import { shopPaths, type SearchSuggestions } from '@shop/shared-kernel/contract';

/** Suggestions start after this many characters, this long after the last keystroke. */
const MIN_LENGTH = 2;
const DEBOUNCE_MS = 250;

type Option = { key: string; url: string; label: string; detail: string };

function toOptions(suggestions: SearchSuggestions): Option[] {
  return [
    ...suggestions.categories.map((c) => ({
      key: `c${c.cat_id}`,
      url: shopPaths.category(c.cat_url),
      label: c.cat_name,
      detail: 'kategória',
    })),
    ...suggestions.products.map((p) => ({
      key: `p${p.p_id}`,
      url: shopPaths.product(p.p_url),
      label: p.p_name,
      detail: formatPrice(p.price),
    })),
  ];
}

/** Submits to /search/{search}; while typing, suggests categories and products (debounced). */
export function SearchBox({ id = 'header-search' }: { id?: string }) {
  const [query, setQuery] = useState('');
  const [options, setOptions] = useState<Option[]>([]);
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(-1);
  const navigate = useNavigate();
  const listId = useId();
  const typed = useRef(false);

  useEffect(() => {
    const text = query.trim();
    if (!typed.current || text.length < MIN_LENGTH) {
      setOptions([]);
      return;
    }
    const controller = new AbortController();
    const timer = setTimeout(() => {
      call('GET /api/search/suggest', { query: { q: text }, signal: controller.signal }).then(
        (answer) => {
          setOptions(toOptions(answer.data));
          setActive(-1);
        },
        () => {
          // Suggestions are a convenience: a failure leaves the plain search working.
          if (!controller.signal.aborted) setOptions([]);
        },
      );
    }, DEBOUNCE_MS);
    return () => {
      clearTimeout(timer);
      controller.abort();
    };
  }, [query]);

  const go = (url: string) => {
    typed.current = false;
    setOpen(false);
    setOptions([]);
    void navigate(url);
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const chosen = open ? options[active] : undefined;
    if (chosen) {
      go(chosen.url);
      return;
    }
    const text = query.trim();
    if (text) go(shopPaths.search(text));
  };

  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === 'ArrowDown' && options.length > 0) {
      event.preventDefault();
      setOpen(true);
      setActive((i) => (i + 1) % options.length);
    } else if (event.key === 'ArrowUp' && options.length > 0) {
      event.preventDefault();
      setActive((i) => (i <= 0 ? options.length - 1 : i - 1));
    } else if (event.key === 'Escape') {
      setOpen(false);
      setActive(-1);
    }
  };

  const hydrated = useAfterHydration();
  const expanded = open && options.length > 0;
  return (
    <form role="search" className="search-box" onSubmit={submit}>
      <label htmlFor={id} className="visually-hidden">
        Hľadať v obchode
      </label>
      {/* Classes, not style attributes: the server renders this header, and the policy admits no inline style. */}
      <div className="search-box__field">
        <input
          id={id}
          type="search"
          role="combobox"
          aria-autocomplete="list"
          aria-expanded={expanded}
          aria-controls={listId}
          aria-activedescendant={expanded && active >= 0 ? `${listId}-${active}` : undefined}
          placeholder="Hľadať tehly, izolácie, farby…"
          // The API answers at most this many characters of search text (the kernel's search rule).
          maxLength={SEARCH_TEXT_MAX}
          value={query}
          onChange={(event) => {
            typed.current = true;
            setQuery(event.target.value);
            setOpen(true);
          }}
          onKeyDown={onKeyDown}
          onFocus={() => setOpen(true)}
          onBlur={() => setOpen(false)}
          autoComplete="off"
          // In a server-rendered page, typing waits for the script: React would not see earlier input.
          disabled={!hydrated}
        />
        <ul id={listId} role="listbox" aria-label="Návrhy vyhľadávania" className="search-box__list" hidden={!expanded}>
          {options.map((option, index) => (
            <li
              key={option.key}
              id={`${listId}-${index}`}
              role="option"
              aria-selected={index === active}
              className="search-box__option"
              // Before the input's blur closes the list.
              onMouseDown={(event) => {
                event.preventDefault();
                go(option.url);
              }}
            >
              <span>{option.label}</span>
              <span className="search-box__detail">{option.detail}</span>
            </li>
          ))}
        </ul>
      </div>
      <button type="submit" className="button">
        Hľadať
      </button>
    </form>
  );
}
